/* dlock_sql_pool.c: this process's SQL connections (see dlock_sql_pool.h),
 * and the fork rule for them: at fork() the child's copies of every socket
 * are pointed at /dev/null (pthread_atfork), so a child never keeps its
 * parent's sessions alive, and the entries stay the parent's (e->pid): never
 * used, sent on, read or cancelled by the child, freed without a word to the
 * server once no frame of the child uses them any more. */
#include "dlock_sql_pool.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static dlock_sql_entry *dlock_sql_pool_head;
static pthread_once_t dlock_sql_pool_once = PTHREAD_ONCE_INIT;

static void dlock_sql_pool_forget_deferred(dlock_sql_entry *e);

static int dlock_sql_pool_str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* In a fork child, at fork time: the child's descriptors of every pooled
 * session now refer to /dev/null. The sockets stay open in the parent only,
 * so a parent killed at once frees its locks at once, whatever its children
 * do; nothing the child does can reach those sessions. Only open, dup2 and
 * close: no allocation (async-signal-safe, a fork may come from a signal
 * handler inside any of this file's calls). */
static void dlock_sql_pool_atfork_child(void)
{
	dlock_sql_entry *e;
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	for (e = dlock_sql_pool_head; e; e = e->next) {
		int fd = e->conn ? e->drv->socket(e->conn) : -1;

		if (fd < 0) {
			continue;
		}
		if (null < 0 || dup2(null, fd) < 0) {
			close(fd); /* then at least the child's copy is gone */
		}
	}
	if (null >= 0) {
		close(null);
	}
}

static void dlock_sql_pool_init(void)
{
	pthread_atfork(NULL, NULL, dlock_sql_pool_atfork_child);
}

/* Frees entries a fork parent opened, without a word to their server; an
 * entry still busy in a frame of this process's stack (a fork from a signal
 * handler run inside a wait on it) stays until that frame is done with it. */
static void dlock_sql_pool_forget_parent(void)
{
	dlock_sql_entry **p = &dlock_sql_pool_head, *e;
	pid_t me = getpid();

	while ((e = *p)) {
		if (e->pid == me || e->busy) {
			p = &e->next;
			continue;
		}
		*p = e->next;
		dlock_sql_pool_forget_deferred(e);
		e->drv->abandon(e->conn);
		dlock_target_clear(&e->target);
		free(e);
	}
}

int dlock_sql_pool_get(const dlock_sql_driver *drv, const dlock_target *t,
                       dlock_sql_entry *const *avoid, size_t navoid, const dlock_interrupt *intr,
                       dlock_sql_entry **out, dlock_err *err)
{
	dlock_sql_entry *e, *pick = NULL;
	pid_t me = getpid();
	int rc;

	pthread_once(&dlock_sql_pool_once, dlock_sql_pool_init);
	dlock_sql_pool_forget_parent();
	for (e = dlock_sql_pool_head; e; e = e->next) {
		size_t i;

		if (e->pid != me || e->drv != drv || !dlock_target_same_server(&e->target, t) ||
		    !dlock_sql_pool_str_eq(e->target.password, t->password) || e->busy) {
			continue; /* busy: a handler inside that entry's wait opens its own */
		}
		for (i = 0; i < navoid && avoid[i] != e; i++) {
		}
		if (i < navoid) {
			continue;
		}
		if (e->conn) {
			*out = e;
			return DLOCK_OK;
		}
		if (!pick) {
			pick = e;
		}
	}
	if (!pick) {
		if (!(pick = calloc(1, sizeof(*pick)))) {
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		if ((rc = dlock_target_copy(&pick->target, t, err)) != DLOCK_OK) {
			free(pick);
			return rc;
		}
		pick->drv = drv;
		pick->pid = getpid();
		pick->next = dlock_sql_pool_head;
		dlock_sql_pool_head = pick;
	}
	pick->busy++;
	rc =
	    drv->connect(&pick->target, dlock_now_ms() + t->connect_timeout_ms, intr, &pick->conn, err);
	pick->busy--;
	if (rc != DLOCK_OK) {
		return rc;
	}
	*out = pick;
	return DLOCK_OK;
}

static void dlock_sql_pool_forget_deferred(dlock_sql_entry *e)
{
	while (e->deferred) {
		dlock_sql_deferred *d = e->deferred;

		e->deferred = d->next;
		free(d->name);
		free(d);
	}
}

void dlock_sql_pool_defer(dlock_sql_entry *e, const char *name, size_t len, int shared)
{
	dlock_sql_deferred *d = calloc(1, sizeof(*d));

	if (!d || !(d->name = malloc(len ? len : 1))) {
		free(d);
		e->lost_deferred = 1;
		return;
	}
	memcpy(d->name, name, len);
	d->len = len;
	d->shared = shared;
	d->next = e->deferred;
	e->deferred = d;
}

void dlock_sql_pool_settle(dlock_sql_entry *e)
{
	if (e->pid != getpid()) {
		dlock_sql_pool_forget_deferred(e); /* the parent's session: not ours to unlock */
		e->lost_deferred = 0;
		return;
	}
	if (e->busy || (!e->deferred && !e->lost_deferred)) {
		return;
	}
	if (e->lost_deferred || !e->conn) {
		e->lost_deferred = 0;
		dlock_sql_pool_drop(e);
		return;
	}
	while (e->deferred && e->conn) {
		dlock_sql_deferred *d = e->deferred;
		int rc = e->drv->unlock(e->conn, d->name, d->len, d->shared,
		                        dlock_now_ms() + e->target.connect_timeout_ms, NULL);

		e->deferred = d->next;
		free(d->name);
		free(d);
		if (rc != DLOCK_OK && rc != DLOCK_ENOTHELD) {
			dlock_sql_pool_drop(e); /* ending the session frees what is owed */
		}
	}
}

void dlock_sql_pool_drop(dlock_sql_entry *e)
{
	dlock_sql_pool_forget_deferred(e);
	if (e->conn && e->pid != getpid()) {
		e->drv->abandon(e->conn); /* a fork parent's session: it lives on there */
	} else if (e->conn) {
		e->drv->close(e->conn);
	}
	e->conn = NULL;
	e->gen++;
}

unsigned dlock_sql_pool_size(const dlock_sql_driver *drv)
{
	dlock_sql_entry *e;
	unsigned n = 0;

	for (e = dlock_sql_pool_head; e; e = e->next) {
		n += e->drv == drv && e->conn && e->pid == getpid();
	}
	return n;
}

void dlock_sql_pool_shutdown(const dlock_sql_driver *drv, int final)
{
	dlock_sql_entry **p = &dlock_sql_pool_head, *e;

	dlock_sql_pool_forget_parent();
	while ((e = *p)) {
		if (e->drv != drv || (e->users > 0 && !final) || e->busy) {
			p = &e->next;
			continue;
		}
		*p = e->next;
		dlock_sql_pool_drop(e);
		dlock_target_clear(&e->target);
		free(e);
	}
}
