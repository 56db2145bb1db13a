/* dlock_zk_reaper.c: the retry thread behind guaranteed deletes. */
#include "dlock_zk_reaper.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../dlock_fault.h"

typedef struct reap_item {
	char *path;             /* node to delete, or with guid: the parent to search (owned) */
	char *guid;             /* delete every child of path whose name has this (owned), or NULL */
	struct reap_item *next; /* FIFO order */
} reap_item;

struct dlock_reaper {
	zhandle_t *zh;       /* borrowed; outlives the reaper */
	pthread_t thread;    /* the retry thread */
	pthread_mutex_t mu;  /* guards everything below */
	pthread_cond_t cond; /* new work, a reconnect, or stop */
	reap_item *head;     /* pending deletes, oldest first */
	reap_item **tail;    /* where the next item goes */
	size_t count;        /* items in the list */
	int connected;       /* a reconnect happened since the last failure */
	int stop;            /* the thread must exit */
};

static void reaper_push(dlock_reaper *r, reap_item *it)
{
	it->next = NULL;
	*r->tail = it;
	r->tail = &it->next;
	r->count++;
}

static reap_item *reaper_pop(dlock_reaper *r)
{
	reap_item *it = r->head;

	if (it) {
		r->head = it->next;
		if (!r->head) {
			r->tail = &r->head;
		}
		r->count--;
	}
	return it;
}

static void item_free(reap_item *it)
{
	free(it->path);
	free(it->guid);
	free(it);
}

/* Deletes the children of it->path that carry it->guid: nodes whose create
 * reply was lost. Returns the first failing code, else ZOK. */
static void reap_synced(int rc, const char *value, const void *data)
{
	(void)rc;
	(void)value;
	(void)data;
}

static int reap_by_guid(zhandle_t *zh, const reap_item *it)
{
	struct String_vector kids = {0, NULL};
	int zrc, i;

	/* a sync first: the listing after it cannot miss a node a lagging
	 * server has not seen yet (requests of a session are ordered) */
	zoo_async(zh, it->path, reap_synced, NULL);
	zrc = zoo_get_children(zh, it->path, 0, &kids);

	if (zrc == ZNONODE) {
		return ZOK;
	}
	for (i = 0; zrc == ZOK && i < kids.count; i++) {
		size_t n = strlen(it->path) + strlen(kids.data[i]) + 2;
		char *full;

		if (!strstr(kids.data[i], it->guid) || !(full = malloc(n))) {
			continue;
		}
		snprintf(full, n, "%s/%s", it->path, kids.data[i]);
		zrc = zoo_delete(zh, full, -1);
		if (zrc == ZNONODE) {
			zrc = ZOK;
		}
		free(full);
	}
	deallocate_String_vector(&kids);
	return zrc;
}

static void *reaper_main(void *arg)
{
	dlock_reaper *r = arg;

	pthread_mutex_lock(&r->mu);
	while (!r->stop) {
		reap_item *it;
		int zrc;

		if (!r->head) {
			pthread_cond_wait(&r->cond, &r->mu);
			continue;
		}
		if (!r->connected) {
			/* retry on the next reconnect, or after a pause in case the loss
			 * was a timeout on a connection that never dropped */
			struct timespec ts;

			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_sec += 1;
			if (pthread_cond_timedwait(&r->cond, &r->mu, &ts) == ETIMEDOUT) {
				r->connected = 1;
			}
			continue;
		}
		it = reaper_pop(r);
		pthread_mutex_unlock(&r->mu);
		if (dlock_fault_hit(DLOCK_FAULT_DELETE_CONNLOSS)) {
			zrc = ZCONNECTIONLOSS;
		} else if (it->guid) {
			zrc = reap_by_guid(r->zh, it);
		} else {
			zrc = zoo_delete(r->zh, it->path, -1);
		}
		pthread_mutex_lock(&r->mu);
		if (zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT) {
			reaper_push(r, it); /* retry after the next reconnect */
			r->connected = 0;
		} else {
			/* deleted, already gone, or the session is gone: done either way */
			item_free(it);
		}
	}
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

dlock_reaper *dlock_reaper_start(zhandle_t *zh)
{
	dlock_reaper *r = calloc(1, sizeof(*r));
	sigset_t all, old;
	int rc;

	if (!r) {
		return NULL;
	}
	r->zh = zh;
	r->tail = &r->head;
	r->connected = 1;
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cond, NULL);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&r->thread, NULL, reaper_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&r->cond);
		pthread_mutex_destroy(&r->mu);
		free(r);
		return NULL;
	}
	return r;
}

void dlock_reaper_add(dlock_reaper *r, const char *path, const char *guid)
{
	reap_item *it = calloc(1, sizeof(*it));

	if (!it || !(it->path = strdup(path)) || (guid && !(it->guid = strdup(guid)))) {
		if (it) {
			free(it->path);
		}
		free(it); /* out of memory: the node goes when the session ends */
		return;
	}
	pthread_mutex_lock(&r->mu);
	reaper_push(r, it);
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->mu);
}

void dlock_reaper_connected(dlock_reaper *r)
{
	pthread_mutex_lock(&r->mu);
	r->connected = 1;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->mu);
}

void dlock_reaper_abandon(dlock_reaper *r)
{
	reap_item *it;

	pthread_mutex_lock(&r->mu);
	while ((it = reaper_pop(r)) != NULL) {
		item_free(it);
	}
	pthread_mutex_unlock(&r->mu);
}

size_t dlock_reaper_pending(dlock_reaper *r)
{
	size_t n;

	pthread_mutex_lock(&r->mu);
	n = r->count;
	pthread_mutex_unlock(&r->mu);
	return n;
}

void dlock_reaper_stop(dlock_reaper *r)
{
	if (!r) {
		return;
	}
	pthread_mutex_lock(&r->mu);
	r->stop = 1;
	pthread_cond_signal(&r->cond);
	pthread_mutex_unlock(&r->mu);
	pthread_join(r->thread, NULL);
	dlock_reaper_abandon(r);
	pthread_cond_destroy(&r->cond);
	pthread_mutex_destroy(&r->mu);
	free(r);
}
