/* dlock_sql_lock.c: the lock object of the SQL backends (see
 * dlock_sql_lock.h): which session takes a hold, nested holds, a hold lost
 * with its session, and the fork rule (a child holds nothing). */
#include "dlock_sql_lock.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_sql_pool.h"

typedef struct sl_lock {
	dlock_handle *h;
	const dlock_sql_driver *drv;
	dlock_sql_entry *entry;    /* the session of the hold, while holds > 0 */
	uint64_t gen;              /* entry->gen when the hold was taken */
	unsigned holds;            /* nested holds of this object */
	int64_t token;             /* fencing token of the hold */
	int64_t confirmed;         /* when the last proof of the hold was asked for */
	pid_t pid;                 /* the process that took the hold */
	int lost;                  /* the server said the hold is gone */
	struct sl_lock *next_held; /* this process's held SQL locks */
} sl_lock;

static sl_lock *sl_held;

const dlock_sql_driver *dlock_sql_driver_of(const dlock_target *t)
{
	switch (t->backend) {
	case DLOCK_BACKEND_POSTGRES:
		return &dlock_pg_driver;
	case DLOCK_BACKEND_MYSQL:
		return &dlock_my_driver;
	default:
		return NULL;
	}
}

int dlock_sql_name_validate(const char *name, size_t len, dlock_err *err)
{
	if (len == 0 || len > DLOCK_SQL_NAME_MAX || memchr(name, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "lock name must be 1 to %d bytes without NUL on a SQL server",
		                     DLOCK_SQL_NAME_MAX);
	}
	return DLOCK_OK;
}

static int sl_shared(const dlock_handle *h)
{
	return h->kind == DLOCK_KIND_READ;
}

/* Drops the local hold (the server's is already gone or released). */
static void sl_forget(sl_lock *l)
{
	sl_lock **p;

	if (l->holds > 0 && l->pid == getpid() && l->entry && l->entry->users > 0) {
		l->entry->users--; /* a fork child's entry pointer is the parent's: not touched */
	}
	for (p = &sl_held; *p; p = &(*p)->next_held) {
		if (*p == l) {
			*p = l->next_held;
			break;
		}
	}
	l->next_held = NULL;
	l->holds = 0;
	l->entry = NULL;
	l->token = 0;
	l->lost = 0;
}

/* Non-zero while l's session is the one its hold was taken in and its
 * socket shows no end; a dead session is dropped (gen bumped). */
static int sl_alive(sl_lock *l)
{
	dlock_sql_entry *e = l->entry;

	if (l->pid != getpid() || l->lost || !e || e->gen != l->gen || !e->conn) {
		return 0;
	}
	if (!l->drv->alive(e->conn)) {
		dlock_sql_pool_drop(e);
		return 0;
	}
	return 1;
}

int dlock_sql_lock_new(dlock_handle *h, dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(&h->target);
	sl_lock *l;
	int rc;

	if ((rc = dlock_sql_name_validate(h->path, h->path_len, err)) != DLOCK_OK) {
		return rc;
	}
	if (h->kind == DLOCK_KIND_SEMAPHORE) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0,
		                     "semaphores are not offered on %s (a server-side wait for any of N "
		                     "slots does not exist there); use ZooKeeper or Redis",
		                     drv->name);
	}
	if ((h->kind == DLOCK_KIND_READ || h->kind == DLOCK_KIND_WRITE) && !drv->has_shared) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0,
		                     "read-write locks are not offered on %s (GET_LOCK has no shared "
		                     "mode); use PostgreSQL, ZooKeeper or Redis",
		                     drv->name);
	}
	if (!(l = calloc(1, sizeof(*l)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	l->h = h;
	l->drv = drv;
	h->impl = l;
	return DLOCK_OK;
}

void dlock_sql_lock_free(dlock_handle *h)
{
	sl_lock *l = h->impl;

	if (!l) {
		return;
	}
	if (l->holds > 0 && l->pid == getpid()) {
		dlock_sql_lock_release(h, 1, 1, NULL);
	}
	sl_forget(l);
	free(l);
	h->impl = NULL;
}

/* Sessions this process's other objects hold h's name in: a new hold must
 * take another (the server would count it as the same holder). */
static size_t sl_busy(const dlock_handle *h, dlock_sql_entry **avoid, size_t max)
{
	const sl_lock *o;
	size_t n = 0;

	for (o = sl_held; o && n < max; o = o->next_held) {
		if (o->h != h && o->holds > 0 && o->pid == getpid() && o->entry &&
		    o->h->path_len == h->path_len && memcmp(o->h->path, h->path, h->path_len) == 0 &&
		    dlock_target_same_server(&o->h->target, &h->target)) {
			avoid[n++] = o->entry;
		}
	}
	return n;
}

int dlock_sql_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	sl_lock *l = h->impl;
	int64_t dl = req->timeout_ms < 0 ? -1 : dlock_now_ms() + req->timeout_ms, loss_since = 0;

	if (l->holds > 0 && l->pid != getpid()) {
		sl_forget(l); /* a fork parent's hold: not ours */
	}
	if (l->holds > 0) {
		if (!sl_alive(l)) {
			sl_forget(l);
			return dlock_err_set(err, DLOCK_ELOST, 0,
			                     "the lock was lost (its server session ended); it is not held "
			                     "now");
		}
		l->holds++;
		return DLOCK_OK;
	}
	for (;;) {
		dlock_sql_entry *avoid[64], *e;
		int64_t sent, wait, token = 0, now;
		int rc;

		if (req->grant_from) {
			/* a downgrade: the read joins the write's own session, where the
			 * server grants it beside the write at once */
			sl_lock *w = req->grant_from->impl;

			if (!sl_alive(w)) {
				return dlock_err_set(err, DLOCK_ELOST, 0,
				                     "the write lock this read was to be granted beside is gone");
			}
			e = w->entry;
		} else if ((rc = dlock_sql_pool_get(l->drv, &h->target, avoid,
		                                    sl_busy(h, avoid, sizeof(avoid) / sizeof(avoid[0])),
		                                    req->intr, &e, err)) != DLOCK_OK) {
			return rc;
		}
		sent = dlock_now_ms();
		wait = dl < 0 ? -1 : dl > sent ? dl - sent : 0;
		rc = l->drv->lock(e->conn, h->path, h->path_len, sl_shared(h), wait,
		                  wait < 0 ? -1 : sent + wait + h->target.connect_timeout_ms, req->intr,
		                  &token, err);
		if (rc == DLOCK_OK && !l->drv->alive(e->conn)) {
			/* granted, but the session ended since (a process paused while
			 * its connection was killed): nothing is held */
			rc = dlock_err_set(err, DLOCK_ECONNLOSS, 0, "the session ended after the grant");
		}
		if (rc == DLOCK_OK) {
			l->entry = e;
			l->gen = e->gen;
			l->holds = 1;
			l->token = token;
			l->confirmed = sent;
			l->pid = getpid();
			l->lost = 0;
			e->users++;
			l->next_held = sl_held;
			sl_held = l;
			return DLOCK_OK;
		}
		if (rc != DLOCK_ECONNLOSS) {
			return rc;
		}
		dlock_sql_pool_drop(e); /* every hold of that session went with it */
		now = dlock_now_ms();
		if (!loss_since) {
			loss_since = sent;
		}
		if (req->grant_from || now - loss_since >= h->target.connect_timeout_ms ||
		    (dl >= 0 && now >= dl)) {
			return rc;
		}
		if (dlock_interrupted(req->intr)) {
			return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
		}
	}
}

int dlock_sql_lock_release(dlock_handle *h, int wait, int all, dlock_err *err)
{
	sl_lock *l = h->impl;
	int rc;

	(void)wait; /* the unlock's answer is always awaited: one round trip */
	if (l->holds == 0) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->pid != getpid()) {
		sl_forget(l);
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %s is held by the parent process (before fork()); the child "
		                     "forgot it",
		                     h->path);
	}
	if (l->holds > 1 && !all) {
		l->holds--; /* nested: counted here only */
		return DLOCK_OK;
	}
	if (!sl_alive(l)) {
		sl_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "lock %s was lost before release() (its server session ended)",
		                     h->path);
	}
	rc = l->drv->unlock(l->entry->conn, h->path, h->path_len, sl_shared(h),
	                    dlock_now_ms() + h->target.connect_timeout_ms, err);
	if (rc == DLOCK_ENOTHELD) {
		sl_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "lock %s was lost before release() (the server no longer had it)",
		                     h->path);
	}
	if (rc != DLOCK_OK) {
		/* closing the session is a release too: the server frees its holds */
		dlock_sql_pool_drop(l->entry);
		dlock_err_clear(err);
	}
	sl_forget(l);
	return DLOCK_OK;
}

int dlock_sql_lock_held(dlock_handle *h)
{
	sl_lock *l = h->impl;
	int64_t sent;
	int rc;

	if (l->holds == 0 || !sl_alive(l)) {
		return 0;
	}
	sent = dlock_now_ms();
	if (sent - l->confirmed < DLOCK_SQL_CONFIRM_MS) {
		return 1;
	}
	rc = l->drv->check(l->entry->conn, h->path, h->path_len, sl_shared(h),
	                   sent + h->target.connect_timeout_ms, NULL);
	if (rc == DLOCK_OK) {
		l->confirmed = sent;
		return 1;
	}
	if (rc == DLOCK_ENOTHELD) {
		l->lost = 1;
	} else if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(l->entry);
	}
	return 0;
}

int dlock_sql_lock_verify(dlock_handle *h, dlock_err *err)
{
	sl_lock *l = h->impl;
	int64_t sent;
	int rc;

	if (l->holds == 0) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->pid != getpid()) {
		return dlock_err_set(err, DLOCK_EFORKED, 0, "lock %s is held by the parent process",
		                     h->path);
	}
	if (!sl_alive(l)) {
		return dlock_err_set(err, DLOCK_ELOST, 0, "lock %s was lost (its server session ended)",
		                     h->path);
	}
	sent = dlock_now_ms();
	rc = l->drv->check(l->entry->conn, h->path, h->path_len, sl_shared(h),
	                   sent + h->target.connect_timeout_ms, err);
	if (rc == DLOCK_OK) {
		l->confirmed = sent;
	} else if (rc == DLOCK_ENOTHELD) {
		l->lost = 1;
		rc =
		    dlock_err_set(err, DLOCK_ELOST, 0, "lock %s is no longer held by its session", h->path);
	} else if (rc == DLOCK_ECONNLOSS) {
		/* the session is gone, or is closed now: either way the server frees the lock */
		char why[sizeof(err->msg)] = "";

		if (err) {
			memcpy(why, err->msg, sizeof(why));
		}
		dlock_sql_pool_drop(l->entry);
		rc = dlock_err_set(err, DLOCK_ELOST, 0, "lock %s was lost with its connection (%s)",
		                   h->path, why);
	}
	return rc;
}

unsigned dlock_sql_lock_holds(const dlock_handle *h)
{
	const sl_lock *l = h->impl;

	return l->holds;
}

int64_t dlock_sql_lock_token(const dlock_handle *h)
{
	const sl_lock *l = h->impl;

	return l->holds > 0 ? l->token : 0;
}

int dlock_sql_lock_self_conflict(const dlock_handle *h)
{
	const sl_lock *o;

	for (o = sl_held; o; o = o->next_held) {
		if (o->h != h && o->holds > 0 && o->pid == getpid() && o->h->path_len == h->path_len &&
		    memcmp(o->h->path, h->path, h->path_len) == 0 &&
		    dlock_target_same_server(&o->h->target, &h->target) &&
		    !(sl_shared(h) && sl_shared(o->h))) {
			return 1;
		}
	}
	return 0;
}
