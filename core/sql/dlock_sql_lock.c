/* dlock_sql_lock.c: the lock object of the SQL backends (see
 * dlock_sql_lock.h): which session takes a hold, a hold lost with its
 * session, a session a fork child inherited never used. Nested holds and the
 * fork rule for holds are the handle's (dlock_handle.c). */
#include "dlock_sql_lock.h"

#include "../dlock_build.h"
#include "../dlock_held.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_sql_pool.h"
#include "dlock_sql_sem.h"

typedef struct sl_lock {
	dlock_handle *h;
	const dlock_sql_driver *drv;
	dlock_sql_entry *entry; /* the session of the hold, while held */
	uint64_t gen;           /* entry->gen when the hold was taken */
	int held;               /* the server hold is ours (nested holds are the handle's) */
	int64_t token;          /* fencing token of the hold */
	pid_t pid;              /* the process that took the hold */
	int lost;               /* the server said the hold is gone */
	int acquiring;          /* inside dlock_sql_lock_acquire (a signal handler may run
	                           inside its wait) */
	struct sl_lock *next_acquiring;
	char *sname;    /* the hold's name on the server (owned): the lock's
	                   name, or a semaphore's slot */
	size_t slen;    /* bytes of sname */
	dlock_held reg; /* in the registry of held locks while held */
	char *space;    /* the name's lock space (owned) */
} sl_lock;

static const char sl_family = 's'; /* marks SQL entries in the registry of held locks */
static sl_lock *sl_acquiring;      /* objects inside acquire(), innermost first */

const dlock_sql_driver *dlock_sql_driver_of(const dlock_target *t)
{
	switch (t->backend) {
#ifdef DLOCK_WITH_POSTGRES
	case DLOCK_BACKEND_POSTGRES:
		return &dlock_pg_driver;
#endif
#ifdef DLOCK_WITH_MYSQL
	case DLOCK_BACKEND_MYSQL:
		return &dlock_my_driver;
#endif
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

int dlock_sql_target_validate(const dlock_sql_driver *drv, const dlock_target *t, dlock_err *err)
{
	if (drv->needs_dbname && (!t->dbname || !t->dbname[0])) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "a %s DSN must name a database (%s://user:password@host:port/dbname): "
		                     "dlock's locks and its fencing-token table live in that database",
		                     drv->name, drv->name);
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
	if (l->held && l->pid == getpid() && l->entry && l->entry->users > 0) {
		l->entry->users--; /* a fork child's entry pointer is the parent's: not touched */
	}
	dlock_held_remove(&l->reg);
	free(l->sname);
	l->sname = NULL;
	l->slen = 0;
	l->held = 0;
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

/* Non-zero when l's session is in the middle of a statement that the caller
 * (a signal handler run inside that wait) interrupted: nothing may be sent
 * on it, and what its socket holds is the pending statement's answer. */
static int sl_in_wait(const sl_lock *l)
{
	return l->held && l->pid == getpid() && l->entry && l->entry->busy;
}

static int sl_in_wait_err(const dlock_handle *h, dlock_err *err)
{
	return dlock_err_set(err, DLOCK_EDEADLK, 0,
	                     "lock %s: its server session is busy with the wait this call interrupted "
	                     "(a signal handler?); try again after that wait",
	                     h->path);
}

int dlock_sql_lock_new(dlock_handle *h, dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(&h->target);
	sl_lock *l;
	char space[1100];
	int rc;

	if ((rc = dlock_sql_name_validate(h->path, h->path_len, err)) != DLOCK_OK ||
	    (rc = dlock_sql_target_validate(drv, &h->target, err)) != DLOCK_OK) {
		return rc;
	}
	if (h->kind == DLOCK_KIND_SEMAPHORE && !drv->wait_event) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0,
		                     "semaphores are not offered on %s (it has neither a server-side wait "
		                     "for any of N slots nor notifications); use PostgreSQL, ZooKeeper or "
		                     "Redis",
		                     drv->name);
	}
	if (h->kind == DLOCK_KIND_SEMAPHORE && h->max_leases > DLOCK_SQL_SEM_MAX) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "a semaphore on %s allows at most %d leases (each is a lock of its "
		                     "own, tried in turn)",
		                     drv->name, DLOCK_SQL_SEM_MAX);
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
	dlock_target_lock_space(&h->target, space, sizeof(space));
	if (!(l->space = strdup(space))) {
		free(l);
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
	if (l->held && l->pid == getpid() && sl_in_wait(l)) {
		/* destroyed in a signal handler while its session waits for another
		 * lock: the unlock is sent when that wait ends */
		dlock_sql_pool_defer(l->entry, l->sname, l->slen, sl_shared(h));
	} else if (l->held && l->pid == getpid()) {
		dlock_sql_lock_release(h, 1, NULL);
	}
	sl_forget(l);
	free(l->space);
	free(l);
	h->impl = NULL;
}

/* Sessions this process's other objects hold h's name in: a new hold must
 * take another (the server would count it as the same holder). Every such
 * session, however many: the list is malloc()ed into *avoid (NULL when
 * there is none) and its length returned in *n. Returns DLOCK_OK or
 * DLOCK_ENOMEM. */
static int sl_busy(const dlock_handle *h, dlock_sql_entry ***avoid, size_t *n, dlock_err *err)
{
	const sl_lock *l = h->impl;
	const dlock_held *o;
	size_t max = 0;

	*avoid = NULL;
	*n = 0;
	for (o = NULL; (o = dlock_held_next(o, &l->reg, &sl_family, h->path, l->space));) {
		max++;
	}
	if (max == 0) {
		return DLOCK_OK;
	}
	if (!(*avoid = malloc(max * sizeof(**avoid)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (o = NULL; (o = dlock_held_next(o, &l->reg, &sl_family, h->path, l->space)) && *n < max;) {
		const sl_lock *other = o->owner;

		if (other->entry) {
			(*avoid)[(*n)++] = other->entry;
		}
	}
	return DLOCK_OK;
}

/* dlock_sql_pool_get for l's target, avoiding avoid[0..navoid), which it frees. */
static int sl_pool_get(sl_lock *l, dlock_sql_entry **avoid, size_t navoid,
                       const dlock_interrupt *intr, dlock_sql_entry **e, dlock_err *err)
{
	int rc = dlock_sql_pool_get(l->drv, &l->h->target, avoid, navoid, intr, e, err);

	free(avoid);
	return rc;
}

/* How long after a timed wait's end its answer is awaited before the
 * server counts as stalled and the session is given up (which ends the wait
 * and any grant with it): SL_REPLY_SLACK_MS, or connect_timeout when that is
 * shorter. So a timed acquire() returns within its timeout plus 1 s once it
 * has a session, as on the other backends. */
#define SL_REPLY_SLACK_MS 1000
static int64_t sl_reply_slack(const dlock_handle *h)
{
	int64_t ct = h->target.connect_timeout_ms;

	return ct > 0 && ct < SL_REPLY_SLACK_MS ? ct : SL_REPLY_SLACK_MS;
}

static int sl_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	sl_lock *l = h->impl;
	int64_t dl = req->timeout_ms < 0 ? -1 : dlock_now_ms() + req->timeout_ms, loss_since = 0;

	for (;;) {
		dlock_sql_entry **avoid = NULL, *e;
		int64_t sent, wait, now;
		char *sname = NULL;
		size_t slen = 0, navoid = 0;
		int rc;

		if (req->grant_from) {
			/* a downgrade: the read joins the write's own session, where the
			 * server grants it beside the write at once */
			sl_lock *w = req->grant_from->impl;

			if (sl_in_wait(w)) {
				return sl_in_wait_err(h, err);
			}
			if (!sl_alive(w)) {
				return dlock_err_set(err, DLOCK_ELOST, 0,
				                     "the write lock this read was to be granted beside is gone");
			}
			e = w->entry;
			/* refused when a writer already queued behind our write lock
			 * (as on ZooKeeper and Redis: it was first in line once the
			 * write lock goes); one that queues after this question waits
			 * for the read lock too */
			if (l->drv->writer_queued &&
			    (rc = l->drv->writer_queued(e->conn, h->path, h->path_len,
			                                dlock_now_ms() + h->target.connect_timeout_ms, err)) !=
			        DLOCK_OK) {
				if (rc == DLOCK_ECONNLOSS) {
					dlock_sql_pool_drop(e); /* the write lock went with its session */
					return dlock_err_set(err, DLOCK_ELOST, 0,
					                     "the write lock this read was to be granted beside "
					                     "was lost with its connection");
				}
				return rc != DLOCK_EDEADLK
				           ? rc
				           : dlock_err_set(err, DLOCK_EDEADLK, 0,
				                           "cannot downgrade: a writer is queued behind this "
				                           "write lock and would be next once the write lock is "
				                           "released; release the write lock and acquire the read "
				                           "lock normally");
			}
		} else if ((rc = sl_busy(h, &avoid, &navoid, err)) != DLOCK_OK) {
			return rc;
		} else if ((rc = sl_pool_get(l, avoid, navoid, req->intr, &e, err)) != DLOCK_OK) {
			/* a wait whose connection was lost rides out a server restart
			 * for connect_timeout (a refused connect fails at once) */
			now = dlock_now_ms();
			if (rc != DLOCK_ECONNECT || !loss_since ||
			    now - loss_since >= h->target.connect_timeout_ms || (dl >= 0 && now >= dl)) {
				return rc;
			}
			poll(NULL, 0, DLOCK_WAIT_SLICE_MS);
			if (dlock_interrupted(req->intr)) {
				return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
			}
			continue;
		}
		sent = dlock_now_ms();
		wait = dl < 0 ? -1 : dl > sent ? dl - sent : 0;
		e->busy++;
		if (h->kind == DLOCK_KIND_SEMAPHORE) {
			rc = dlock_sql_sem_take(l->drv, h, e->conn, wait, req->intr, &sname, &slen, err);
		} else if (!(sname = malloc(h->path_len + 1))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		} else {
			memcpy(sname, h->path, h->path_len + 1);
			slen = h->path_len;
			rc =
			    l->drv->lock(e->conn, sname, slen, sl_shared(h), wait,
			                 wait < 0 ? -1 : sent + wait + sl_reply_slack(h), req->intr, NULL, err);
		}
		e->busy--;
		if (e->pid != getpid()) {
			/* this process is a child forked (by a signal handler) during
			 * the wait: the session and whatever it was granted are the
			 * parent's, which goes on waiting; nothing was sent on it here */
			free(sname);
			dlock_sql_pool_drop(e);
			return dlock_err_set(err, DLOCK_EFORKED, 0,
			                     "lock %s: this process was forked during acquire(); the wait "
			                     "was the parent's and this process does not hold the lock",
			                     h->path);
		}
		dlock_sql_pool_settle(e); /* unlocks owed since the wait began (see lock_free) */
		if (rc == DLOCK_OK && !l->drv->alive(e->conn)) {
			/* granted, but the session ended since (a process paused while
			 * its connection was killed): nothing is held */
			rc = dlock_err_set(err, DLOCK_ECONNLOSS, 0, "the session ended after the grant");
		}
		if (rc == DLOCK_OK) {
			l->sname = sname;
			l->slen = slen;
			l->entry = e;
			l->gen = e->gen;
			l->held = 1;
			l->token = 0; /* fetched on demand: dlock_sql_lock_token_fetch */
			l->pid = getpid();
			l->lost = 0;
			e->users++;
			l->reg.family = &sl_family;
			l->reg.owner = l;
			l->reg.kind = h->kind;
			l->reg.path = h->path;
			l->reg.space = l->space;
			dlock_held_add(&l->reg);
			return DLOCK_OK;
		}
		free(sname);
		if (rc != DLOCK_ECONNLOSS) {
			return rc;
		}
		dlock_sql_pool_drop(e); /* every hold of that session went with it */
		now = dlock_now_ms();
		if (!loss_since) {
			loss_since = now; /* when the loss was seen, not when the wait began */
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

int dlock_sql_lock_reenter(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	sl_lock *l = h->impl;

	(void)req;
	if (sl_in_wait(l)) {
		return sl_in_wait_err(h, err);
	}
	if (!sl_alive(l)) {
		sl_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "the lock was lost (its server session ended); it is not held now");
	}
	return DLOCK_OK;
}

void dlock_sql_lock_forget(dlock_handle *h)
{
	sl_forget(h->impl);
}

int dlock_sql_lock_holding(const dlock_handle *h)
{
	return ((const sl_lock *)h->impl)->held;
}

int dlock_sql_lock_release(dlock_handle *h, int wait, dlock_err *err)
{
	sl_lock *l = h->impl;
	int rc;

	(void)wait; /* the unlock's answer is always awaited: one round trip */
	if (!l->held) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (sl_in_wait(l)) {
		return sl_in_wait_err(h, err);
	}
	if (!sl_alive(l)) {
		sl_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "lock %s was lost before release() (its server session ended)",
		                     h->path);
	}
	if (h->kind == DLOCK_KIND_SEMAPHORE) {
		int lost;

		rc = dlock_sql_sem_give(l->drv, h, l->entry->conn, l->sname, l->slen, &lost, err);
		if (lost) {
			dlock_sql_pool_drop(l->entry); /* the slot went with the session anyway */
		}
	} else {
		rc = l->drv->unlock(l->entry->conn, l->sname, l->slen, sl_shared(h),
		                    dlock_now_ms() + h->target.connect_timeout_ms, err);
	}
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

/* How many times a question about a hold (ping, check, token) is asked
 * again when the server cancelled its statement (KILL QUERY,
 * pg_cancel_backend() from an administrator: the session and its locks stay)
 * before the caller is told that the question could not be answered. */
#define SL_ASK_TRIES 4

/* Non-zero when rc, the answer of a question that was given no interrupt,
 * is a statement cancelled or refused by the server on a session that is
 * still there: asking again is safe (a cancelled token statement was rolled
 * back; at worst one token is skipped). */
static int sl_ask_again(const sl_lock *l, int rc)
{
	return (rc == DLOCK_EINTR || rc == DLOCK_ESERVER) && l->entry && l->entry->conn &&
	       l->drv->alive(l->entry->conn);
}

/* The error of a question about l's hold that the server kept cancelling:
 * true (the hold is not known to be lost) and distinct from "not held". */
static int sl_ask_failed(const sl_lock *l, const char *what, dlock_err *err)
{
	char why[sizeof(err->msg)] = "";

	if (err) {
		memcpy(why, err->msg, sizeof(why));
	}
	return dlock_err_set(err, DLOCK_ESERVER, 0,
	                     "lock %s: the server cancelled the statement asking for its %s %d times "
	                     "(KILL QUERY or pg_cancel_backend() of its session?): %.200s; the lock "
	                     "may still be held",
	                     l->h->path, what, SL_ASK_TRIES, why);
}

int dlock_sql_lock_held(dlock_handle *h)
{
	sl_lock *l = h->impl;
	int64_t sent;
	int rc, i;

	if (!l->held || sl_in_wait(l) || !sl_alive(l)) {
		return 0; /* busy: the session cannot be asked now, so the hold is not certain */
	}
	/* a session lock has no lease: the server may end the session at any
	 * moment (pg_terminate_backend, KILL) and the notice may be slow to
	 * come, so nothing but an answer of the session itself makes the hold
	 * certain: one round trip a call */
	sent = dlock_now_ms();
	for (i = 0; i < SL_ASK_TRIES; i++) {
		rc = l->drv->ping(l->entry->conn, sent + h->target.connect_timeout_ms, NULL);
		if (!sl_ask_again(l, rc)) {
			break;
		}
	}
	if (rc == DLOCK_OK) {
		return 1;
	}
	if (rc == DLOCK_ENOTHELD) {
		l->lost = 1;
	} else if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(l->entry);
	}
	return 0;
}

/* DLOCK_OK when l's hold can be asked about now: held by this object in
 * this process, its session not mid-wait, its socket showing no end. */
static int sl_askable(sl_lock *l, dlock_err *err)
{
	const dlock_handle *h = l->h;

	if (!l->held) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->pid != getpid()) {
		return dlock_err_set(err, DLOCK_EFORKED, 0, "lock %s is held by the parent process",
		                     h->path);
	}
	if (sl_in_wait(l)) {
		return sl_in_wait_err(h, err);
	}
	if (!sl_alive(l)) {
		return dlock_err_set(err, DLOCK_ELOST, 0, "lock %s was lost (its server session ended)",
		                     h->path);
	}
	return DLOCK_OK;
}

int dlock_sql_lock_verify(dlock_handle *h, dlock_err *err)
{
	sl_lock *l = h->impl;
	int64_t sent;
	int rc, i;

	if ((rc = sl_askable(l, err)) != DLOCK_OK) {
		return rc;
	}
	sent = dlock_now_ms();
	for (i = 0; i < SL_ASK_TRIES; i++) {
		rc = l->drv->check(l->entry->conn, l->sname, l->slen, sl_shared(h),
		                   sent + h->target.connect_timeout_ms, err);
		if (!sl_ask_again(l, rc)) {
			break;
		}
	}
	if (rc == DLOCK_OK) {
	} else if (i == SL_ASK_TRIES) {
		rc = sl_ask_failed(l, "hold", err);
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

int dlock_sql_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	sl_lock *l = h->impl, **p;
	int rc;

	if (l->acquiring) {
		/* a signal handler run inside this object's own wait */
		return dlock_err_set(err, DLOCK_EDEADLK, 0,
		                     "lock %s: this object's acquire() is already waiting (called again "
		                     "from a signal handler?)",
		                     h->path);
	}
	l->acquiring = 1;
	l->next_acquiring = sl_acquiring;
	sl_acquiring = l;
	rc = sl_acquire(h, req, err);
	for (p = &sl_acquiring; *p; p = &(*p)->next_acquiring) {
		if (*p == l) {
			*p = l->next_acquiring;
			break;
		}
	}
	l->acquiring = 0;
	return rc;
}

int dlock_sql_lock_token_fetch(dlock_handle *h, dlock_err *err)
{
	sl_lock *l = h->impl;
	int64_t sent, token = 0;
	int rc, i;

	if (l->held && l->pid == getpid() && l->token) {
		return DLOCK_OK;
	}
	if ((rc = sl_askable(l, err)) != DLOCK_OK) {
		return rc;
	}
	sent = dlock_now_ms();
	for (i = 0; i < SL_ASK_TRIES; i++) {
		rc = l->drv->token(l->entry->conn, h->path, h->path_len, l->sname, l->slen, sl_shared(h),
		                   sent + h->target.connect_timeout_ms, &token, err);
		if (!sl_ask_again(l, rc)) {
			break;
		}
	}
	if (rc == DLOCK_OK) {
		l->token = token;
	} else if (i == SL_ASK_TRIES) {
		rc = sl_ask_failed(l, "fencing token", err);
	} else if (rc == DLOCK_ENOTHELD) {
		l->lost = 1;
		rc =
		    dlock_err_set(err, DLOCK_ELOST, 0, "lock %s is no longer held by its session", h->path);
	} else if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(l->entry);
		rc = dlock_err_set(err, DLOCK_ELOST, 0,
		                   "lock %s was lost with its connection while asking for its token",
		                   h->path);
	}
	return rc;
}

int64_t dlock_sql_lock_token(const dlock_handle *h)
{
	const sl_lock *l = h->impl;

	return l->held ? l->token : 0;
}

/* Non-zero when o (another object, holding or inside acquire()) excludes
 * h on the same name and server. */
static int sl_excludes(const sl_lock *o, const dlock_handle *h)
{
	return o->h != h && o->h->path_len == h->path_len &&
	       memcmp(o->h->path, h->path, h->path_len) == 0 &&
	       dlock_target_same_locks(&o->h->target, &h->target) &&
	       (o->h->kind == DLOCK_KIND_SEMAPHORE) == (h->kind == DLOCK_KIND_SEMAPHORE) &&
	       !(sl_shared(h) && sl_shared(o->h));
}

int dlock_sql_lock_self_conflict(const dlock_handle *h)
{
	const sl_lock *o;

	/* an acquire() this call interrupts (a signal handler) is queued ahead
	 * of it in the server: waiting behind it would wait for ourselves. For a
	 * semaphore too, whatever the leases: the interrupted acquire() queues on
	 * (or holds) the gate every contender passes, and cannot let go of it
	 * before the handler returns */
	for (o = sl_acquiring; o; o = o->next_acquiring) {
		if (!o->held && sl_excludes(o, h)) {
			return 1;
		}
	}
	return dlock_held_conflict(&((const sl_lock *)h->impl)->reg, h->kind, h->max_leases, h->path,
	                           ((const sl_lock *)h->impl)->space, DLOCK_HELD_MIX_SEMAPHORE_APART);
}
