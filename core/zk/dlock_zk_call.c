/* dlock_zk_call.c: asynchronous ZooKeeper requests waited for with a deadline.
 * Completions run on the client's completion thread: they copy the result,
 * mark the call done and wake the session's waiters, or free a call its
 * caller has given up on. Nothing else happens on that thread. */
#include "dlock_zk_call.h"

#include <stdlib.h>
#include <string.h>

static dlock_call *call_new(dlock_session *s)
{
	dlock_call *c = calloc(1, sizeof(*c));

	if (c) {
		c->s = s;
	}
	return c;
}

static void call_free(dlock_call *c)
{
	free(c->created);
	free(c->data);
	deallocate_String_vector(&c->kids);
	free(c);
}

/* The tail every completion shares: returns 1 when the caller gave up (the
 * completion must free c after unlocking). */
static int call_complete(dlock_call *c, int rc)
{
	int abandoned;

	dlock_session_lock(c->s);
	abandoned = c->abandoned;
	if (!abandoned) {
		c->rc = rc;
		c->done = 1;
		dlock_session_broadcast(c->s);
	}
	dlock_session_unlock(c->s);
	return abandoned;
}

/* A request the client did not accept: done at once, no completion comes. */
static dlock_call *call_refused(dlock_call *c, int zrc)
{
	c->rc = zrc;
	c->done = 1;
	return c;
}

/* The end of every request starter: NULL when c could not be allocated, c
 * when the request is on its way, else c refused with zrc. */
static dlock_call *call_sent(dlock_call *c, int zrc)
{
	if (!c) {
		return NULL;
	}
	return zrc == ZOK ? c : call_refused(c, zrc);
}

static void on_void(int rc, const void *data)
{
	dlock_call *c = (dlock_call *)data;

	if (call_complete(c, rc)) {
		call_free(c);
	}
}

static void on_string(int rc, const char *value, const void *data)
{
	(void)value;
	on_void(rc, data);
}

static void on_stat(int rc, const struct Stat *stat, const void *data)
{
	dlock_call *c = (dlock_call *)data;

	if (rc == ZOK && stat) {
		c->stat = *stat; /* written before done is published under the mutex */
	}
	if (call_complete(c, rc)) {
		call_free(c);
	}
}

static void on_got(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
	dlock_call *c = (dlock_call *)data;
	size_t n = rc == ZOK && value && len > 0 ? (size_t)len : 0;

	if (rc == ZOK) {
		if ((c->data = malloc(n + 1))) {
			memcpy(c->data, value ? value : "", n);
			c->data[n] = '\0';
			c->data_len = n;
		} else {
			rc = ZSYSTEMERROR;
		}
	}
	on_stat(rc, stat, data);
}

static void on_created(int rc, const char *value, const struct Stat *stat, const void *data)
{
	dlock_call *c = (dlock_call *)data;

	if (rc == ZOK) {
		c->created = value ? strdup(value) : NULL;
		if (!c->created) {
			rc = ZCONNECTIONLOSS; /* out of memory: the node exists but we cannot name
			                         it; "fate unknown" makes the caller recover it */
		}
		if (stat) {
			c->stat = *stat;
		}
	}
	if (call_complete(c, rc)) {
		call_free(c);
	}
}

static void on_children(int rc, const struct String_vector *strings, const void *data)
{
	dlock_call *c = (dlock_call *)data;
	int i;

	if (rc == ZOK && strings) {
		c->kids.data = calloc((size_t)strings->count + 1, sizeof(char *));
		for (i = 0; c->kids.data && i < strings->count; i++) {
			if (!(c->kids.data[i] = strdup(strings->data[i]))) {
				break;
			}
			c->kids.count = i + 1;
		}
		if (!c->kids.data || c->kids.count != strings->count) {
			rc = ZSYSTEMERROR;
		}
	}
	if (call_complete(c, rc)) {
		call_free(c);
	}
}

dlock_call *dlock_call_create(dlock_session *s, const char *path, const char *data, size_t len,
                              int flags)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_acreate2(zh, path, data, data ? (int)len : -1,
	                                           dlock_session_acl(s), flags, on_created, c)
	                            : ZINVALIDSTATE);
}

dlock_call *dlock_call_children(dlock_session *s, const char *path)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_aget_children(zh, path, 0, on_children, c) : ZINVALIDSTATE);
}

dlock_call *dlock_call_exists(dlock_session *s, const char *path)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_aexists(zh, path, 0, on_stat, c) : ZINVALIDSTATE);
}

dlock_call *dlock_call_delete(dlock_session *s, const char *path)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_adelete(zh, path, -1, on_void, c) : ZINVALIDSTATE);
}

/* The arming request's reply: the watch learns whether the client now holds
 * a watcher for it, then the call completes as any other. */
static void on_watch(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
	dlock_call *c = (dlock_call *)data;

	dlock_session_watch_replied(c->s, c->watch, rc);
	on_got(rc, value, len, stat, data); /* the data names whom we wait for */
}

dlock_call *dlock_call_watch(dlock_session *s, dlock_watch *w)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);
	int zrc = ZINVALIDSTATE;

	if (c && zh) {
		c->watch = w;
		dlock_session_watch_sent(s, w);
		zrc = zoo_awget(zh, dlock_watch_path(w), dlock_session_watcher, w, on_watch, c);
		if (zrc != ZOK) { /* not sent: no reply will come */
			dlock_session_watch_replied(s, w, zrc);
		}
	}
	return call_sent(c, zrc);
}

static void on_children_watch(int rc, const struct String_vector *strings, const void *data)
{
	dlock_call *c = (dlock_call *)data;

	dlock_session_watch_replied(c->s, c->watch, rc);
	on_children(rc, strings, data);
}

dlock_call *dlock_call_watch_children(dlock_session *s, dlock_watch *w, const char *path)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);
	int zrc = ZINVALIDSTATE;

	if (c && zh) {
		c->watch = w;
		dlock_session_watch_sent(s, w);
		zrc = zoo_awget_children(zh, path, dlock_session_watcher, w, on_children_watch, c);
		if (zrc != ZOK) { /* not sent: no reply will come */
			dlock_session_watch_replied(s, w, zrc);
		}
	}
	return call_sent(c, zrc);
}

dlock_call *dlock_call_set(dlock_session *s, const char *path, const char *data, size_t len)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_aset(zh, path, data, data ? (int)len : -1, -1, on_stat, c)
	                            : ZINVALIDSTATE);
}

dlock_call *dlock_call_get(dlock_session *s, const char *path)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_aget(zh, path, 0, on_got, c) : ZINVALIDSTATE);
}

dlock_call *dlock_call_sync(dlock_session *s, const char *path)
{
	dlock_call *c = call_new(s);
	zhandle_t *zh = dlock_session_zh(s);

	return call_sent(c, c && zh ? zoo_async(zh, path, on_string, c) : ZINVALIDSTATE);
}

static int call_is_done(void *arg)
{
	return ((dlock_call *)arg)->done;
}

int dlock_call_wait(dlock_call *c, int64_t deadline_ms, const dlock_interrupt *intr)
{
	int rc;

	if (!c) {
		return DLOCK_ENOMEM;
	}
	if (c->done) {
		return DLOCK_OK;
	}
	rc = dlock_session_wait_for(c->s, call_is_done, c, deadline_ms, intr);
	if (rc == DLOCK_ESESSION) {
		/* the completion may have landed in the same instant */
		dlock_session_lock(c->s);
		rc = c->done ? DLOCK_OK : rc;
		dlock_session_unlock(c->s);
	}
	return rc;
}

void dlock_call_release(dlock_call *c)
{
	int done;

	if (!c) {
		return;
	}
	dlock_session_lock(c->s);
	done = c->done;
	c->abandoned = !done;
	dlock_session_unlock(c->s);
	if (done) {
		call_free(c);
	}
}

struct String_vector dlock_call_take_kids(dlock_call *c)
{
	struct String_vector v = c->kids;

	c->kids.count = 0;
	c->kids.data = NULL;
	return v;
}

char *dlock_call_take_created(dlock_call *c)
{
	char *p = c->created;

	c->created = NULL;
	return p;
}

int dlock_call_unknown(int zrc)
{
	return zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT;
}

int dlock_call_reconnect(dlock_session *s, int64_t deadline_ms, const dlock_interrupt *intr,
                         dlock_err *err)
{
	int rc = dlock_session_wait_connected(s, deadline_ms, intr);

	if (rc == DLOCK_ETIMEDOUT) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                     "connection to ZooKeeper lost and not back before the deadline");
	}
	if (rc == DLOCK_ESESSION) {
		return dlock_err_set(err, rc, ZSESSIONEXPIRED, "session expired");
	}
	if (rc == DLOCK_EINTR) {
		return dlock_err_set(err, rc, 0, "interrupted while waiting for a reconnect");
	}
	return rc;
}

int dlock_call_failed(int rc, const char *what, const char *path, dlock_err *err)
{
	switch (rc) {
	case DLOCK_ETIMEDOUT:
		return dlock_err_set(err, rc, ZOPERATIONTIMEOUT,
		                     "no answer from ZooKeeper to %s %.128s before the deadline", what,
		                     path);
	case DLOCK_ESESSION:
		return dlock_err_set(err, rc, ZSESSIONEXPIRED, "session expired during %s %.128s", what,
		                     path);
	case DLOCK_EINTR:
		return dlock_err_set(err, rc, 0, "interrupted during %s %.128s", what, path);
	case DLOCK_EFORKED:
		return dlock_err_set(err, rc, 0,
		                     "forked during acquire() (%s %.128s): the child holds nothing and "
		                     "leaves its parent's session and node alone",
		                     what, path);
	default:
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
}
