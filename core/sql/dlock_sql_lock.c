/* dlock_sql_lock.c: getting a hold on a SQL backend (see dlock_sql_lock.h):
 * the object's lifetime, which session takes a hold (never one this process
 * already holds the name in, never one a fork child inherited), the wait,
 * and the self-wait check. Having a hold is dlock_sql_hold.c's. Nested holds
 * and the fork rule for holds are the handle's (dlock_handle.c). */
#include "dlock_sql_lock_int.h"

#include "../dlock_build.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_sql_pool.h"
#include "dlock_sql_sem.h"

static const char sl_family = 's';         /* marks SQL entries in the registry of held locks */
static dlock_sql_lock_state *sl_acquiring; /* objects inside acquire(), innermost first */

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

int dlock_sql_lock_new(dlock_handle *h, dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(&h->target);
	dlock_sql_lock_state *l;
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
	dlock_sql_lock_state *l = h->impl;

	if (!l) {
		return;
	}
	if (l->held && l->pid == getpid() && dlock_sql_hold_in_wait(l)) {
		/* destroyed in a signal handler while its session waits for another
		 * lock: the unlock is sent when that wait ends */
		dlock_sql_pool_defer(l->entry, l->sname, l->slen, dlock_sql_hold_shared(h));
	} else if (l->held && l->pid == getpid()) {
		dlock_sql_lock_release(h, 1, NULL);
	}
	dlock_sql_hold_forget(l);
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
	const dlock_sql_lock_state *l = h->impl;
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
		const dlock_sql_lock_state *other = o->owner;

		if (other->entry) {
			(*avoid)[(*n)++] = other->entry;
		}
	}
	return DLOCK_OK;
}

/* dlock_sql_pool_get for l's target, avoiding avoid[0..navoid), which it frees. */
static int sl_pool_get(dlock_sql_lock_state *l, dlock_sql_entry **avoid, size_t navoid,
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
	dlock_sql_lock_state *l = h->impl;
	/* dl: the caller's deadline, in us (dlock_left_ms: never a wait shorter than asked) */
	int64_t dl = req->timeout_ms < 0 ? -1 : dlock_now_us() + req->timeout_ms * 1000, loss_since = 0;

	for (;;) {
		dlock_sql_entry **avoid = NULL, *e;
		int64_t sent, wait, now;
		char *sname = NULL;
		size_t slen = 0, navoid = 0;
		int rc;

		if (req->grant_from) {
			/* a downgrade: the read joins the write's own session, where the
			 * server grants it beside the write at once */
			dlock_sql_lock_state *w = req->grant_from->impl;

			if (dlock_sql_hold_in_wait(w)) {
				return dlock_sql_hold_busy_err(h, err);
			}
			if (!dlock_sql_hold_alive(w)) {
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
			    now - loss_since >= h->target.connect_timeout_ms ||
			    (dl >= 0 && !dlock_left_ms(dl))) {
				return rc;
			}
			poll(NULL, 0, DLOCK_WAIT_SLICE_MS);
			if (dlock_interrupted(req->intr)) {
				return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
			}
			continue;
		}
		sent = dlock_now_ms();
		wait = dl < 0 ? -1 : dlock_left_ms(dl);
		e->busy++;
		if (h->kind == DLOCK_KIND_SEMAPHORE) {
			rc = dlock_sql_sem_take(l->drv, h, e->conn, wait, req->intr, &sname, &slen, err);
		} else if (!(sname = malloc(h->path_len + 1))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		} else {
			memcpy(sname, h->path, h->path_len + 1);
			slen = h->path_len;
			rc =
			    l->drv->lock(e->conn, sname, slen, dlock_sql_hold_shared(h), wait,
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
			dlock_held_add(&l->reg, &sl_family, l, h->kind, h->path, l->space, NULL);
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
		    (dl >= 0 && !dlock_left_ms(dl))) {
			return rc;
		}
		if (dlock_interrupted(req->intr)) {
			return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
		}
	}
}

int dlock_sql_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	dlock_sql_lock_state *l = h->impl, **p;
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

/* Non-zero when o (another object, holding or inside acquire()) excludes
 * h on the same name and server. */
static int sl_excludes(const dlock_sql_lock_state *o, const dlock_handle *h)
{
	return o->h != h && o->h->path_len == h->path_len &&
	       memcmp(o->h->path, h->path, h->path_len) == 0 &&
	       dlock_target_same_locks(&o->h->target, &h->target) &&
	       (o->h->kind == DLOCK_KIND_SEMAPHORE) == (h->kind == DLOCK_KIND_SEMAPHORE) &&
	       !(dlock_sql_hold_shared(h) && dlock_sql_hold_shared(o->h));
}

int dlock_sql_lock_self_conflict(const dlock_handle *h)
{
	const dlock_sql_lock_state *o;

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
	return dlock_held_conflict(
	    &((const dlock_sql_lock_state *)h->impl)->reg, h->kind, h->max_leases, h->path,
	    ((const dlock_sql_lock_state *)h->impl)->space, DLOCK_HELD_MIX_SEMAPHORE_APART);
}
