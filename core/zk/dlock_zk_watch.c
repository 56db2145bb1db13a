/* dlock_zk_watch.c: the per-node watch records of a session (struct
 * dlock_watch in dlock_zk_session_int.h): found or made for a waiter, armed,
 * fired by the client's completion thread, freed when nothing refers to them. */
#include "dlock_zk_session_int.h"

#include <stdlib.h>
#include <string.h>

/* Frees w when nothing refers to it any more. Called with s->mu held. */
static void watch_maybe_free(dlock_session *s, dlock_watch *w)
{
	if (w->users || w->pending || w->registered) {
		return;
	}
	if (w->prev) {
		w->prev->next = w->next;
	} else {
		s->watches = w->next;
	}
	if (w->next) {
		w->next->prev = w->prev;
	}
	free(w);
}

void dlock_session_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	dlock_session *s = (dlock_session *)zoo_get_context(zh);
	dlock_watch *w = ctx;

	(void)state;
	(void)path;
	if (type == ZOO_SESSION_EVENT || !s || !w) {
		return; /* the default watcher handles session events; the watcher stays armed */
	}
	pthread_mutex_lock(&s->mu);
	s->notifications++;
	w->fired++;
	w->type = type;
	w->registered = 0; /* a node event removes the client's watcher */
	pthread_cond_broadcast(&s->cond);
	watch_maybe_free(s, w);
	pthread_mutex_unlock(&s->mu);
}

dlock_watch *dlock_session_watch_get(dlock_session *s, const char *path)
{
	size_t len = strlen(path);
	dlock_watch *w;

	pthread_mutex_lock(&s->mu);
	for (w = s->watches; w && strcmp(w->path, path) != 0; w = w->next) {
	}
	if (!w && (w = calloc(1, sizeof(*w) + len + 1)) != NULL) {
		memcpy(w->path, path, len + 1);
		w->next = s->watches;
		if (w->next) {
			w->next->prev = w;
		}
		s->watches = w;
	}
	if (w) {
		w->users++;
	}
	pthread_mutex_unlock(&s->mu);
	return w;
}

void dlock_session_watch_put(dlock_session *s, dlock_watch *w)
{
	if (!w) {
		return;
	}
	pthread_mutex_lock(&s->mu);
	w->users--;
	watch_maybe_free(s, w);
	pthread_mutex_unlock(&s->mu);
}

const char *dlock_watch_path(const dlock_watch *w)
{
	return w->path;
}

uint64_t dlock_session_watch_mark(dlock_session *s, dlock_watch *w)
{
	uint64_t n;

	pthread_mutex_lock(&s->mu);
	n = w->fired;
	pthread_mutex_unlock(&s->mu);
	return n;
}

void dlock_session_watch_sent(dlock_session *s, dlock_watch *w)
{
	pthread_mutex_lock(&s->mu);
	w->pending++;
	pthread_mutex_unlock(&s->mu);
}

void dlock_session_watch_replied(dlock_session *s, dlock_watch *w, int zrc)
{
	pthread_mutex_lock(&s->mu);
	w->pending--;
	if (zrc == ZOK) {
		/* the client registered the watcher when this reply arrived, after
		 * every event before it: replies and events reach us in order */
		w->registered = 1;
	}
	watch_maybe_free(s, w);
	pthread_mutex_unlock(&s->mu);
}
