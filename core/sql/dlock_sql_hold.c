/* dlock_sql_hold.c: having a SQL hold: release (unlock, or the session
 * closed), the questions behind isAcquired(), checkHeld() and
 * getFencingToken() asked of the holding session (asked again when an
 * administrator cancelled the statement), and the helpers dlock_sql_lock.c
 * uses. Below dlock_sql_lock.c, which gets holds. */
#include "dlock_sql_lock_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_sql_sem.h"

/* How many times a question about a hold (ping, check, token) is asked
 * again when the server cancelled its statement (KILL QUERY,
 * pg_cancel_backend() from an administrator: the session and its locks stay)
 * before the caller is told that the question could not be answered. */
#define SL_ASK_TRIES 4

int dlock_sql_hold_shared(const dlock_handle *h)
{
	return h->kind == DLOCK_KIND_READ;
}

/* Drops the local hold (the server's is already gone or released). */
void dlock_sql_hold_forget(dlock_sql_lock_state *l)
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
int dlock_sql_hold_alive(dlock_sql_lock_state *l)
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
int dlock_sql_hold_in_wait(const dlock_sql_lock_state *l)
{
	return l->held && l->pid == getpid() && l->entry && l->entry->busy;
}

int dlock_sql_hold_busy_err(const dlock_handle *h, dlock_err *err)
{
	return dlock_err_set(err, DLOCK_EDEADLK, 0,
	                     "lock %s: its server session is busy with the wait this call interrupted "
	                     "(a signal handler?); try again after that wait",
	                     h->path);
}

int dlock_sql_lock_reenter(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	dlock_sql_lock_state *l = h->impl;

	(void)req;
	if (dlock_sql_hold_in_wait(l)) {
		return dlock_sql_hold_busy_err(h, err);
	}
	if (!dlock_sql_hold_alive(l)) {
		dlock_sql_hold_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "the lock was lost (its server session ended); it is not held now");
	}
	return DLOCK_OK;
}

void dlock_sql_lock_forget(dlock_handle *h)
{
	dlock_sql_hold_forget(h->impl);
}

int dlock_sql_lock_holding(const dlock_handle *h)
{
	return ((const dlock_sql_lock_state *)h->impl)->held;
}

int dlock_sql_lock_release(dlock_handle *h, int wait, dlock_err *err)
{
	dlock_sql_lock_state *l = h->impl;
	int rc;

	(void)wait; /* the unlock's answer is always awaited: one round trip */
	if (!l->held) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (dlock_sql_hold_in_wait(l)) {
		return dlock_sql_hold_busy_err(h, err);
	}
	if (!dlock_sql_hold_alive(l)) {
		dlock_sql_hold_forget(l);
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
		rc = l->drv->unlock(l->entry->conn, l->sname, l->slen, dlock_sql_hold_shared(h),
		                    dlock_now_ms() + h->target.connect_timeout_ms, err);
	}
	if (rc == DLOCK_ENOTHELD) {
		dlock_sql_hold_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "lock %s was lost before release() (the server no longer had it)",
		                     h->path);
	}
	if (rc != DLOCK_OK) {
		/* closing the session is a release too: the server frees its holds */
		dlock_sql_pool_drop(l->entry);
		dlock_err_clear(err);
	}
	dlock_sql_hold_forget(l);
	return DLOCK_OK;
}

/* Non-zero when rc, the answer of a question that was given no interrupt,
 * is a statement cancelled or refused by the server on a session that is
 * still there: asking again is safe (a cancelled token statement was rolled
 * back; at worst one token is skipped). */
static int sl_ask_again(const dlock_sql_lock_state *l, int rc)
{
	return (rc == DLOCK_EINTR || rc == DLOCK_ESERVER) && l->entry && l->entry->conn &&
	       l->drv->alive(l->entry->conn);
}

/* The error of a question about l's hold that the server kept cancelling:
 * true (the hold is not known to be lost) and distinct from "not held". */
static int sl_ask_failed(const dlock_sql_lock_state *l, const char *what, dlock_err *err)
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
	dlock_sql_lock_state *l = h->impl;
	int64_t sent;
	int rc, i;

	if (!l->held || dlock_sql_hold_in_wait(l) || !dlock_sql_hold_alive(l)) {
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
static int sl_askable(dlock_sql_lock_state *l, dlock_err *err)
{
	const dlock_handle *h = l->h;

	if (!l->held) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->pid != getpid()) {
		return dlock_err_set(err, DLOCK_EFORKED, 0, "lock %s is held by the parent process",
		                     h->path);
	}
	if (dlock_sql_hold_in_wait(l)) {
		return dlock_sql_hold_busy_err(h, err);
	}
	if (!dlock_sql_hold_alive(l)) {
		return dlock_err_set(err, DLOCK_ELOST, 0, "lock %s was lost (its server session ended)",
		                     h->path);
	}
	return DLOCK_OK;
}

int dlock_sql_lock_verify(dlock_handle *h, dlock_err *err)
{
	dlock_sql_lock_state *l = h->impl;
	int64_t sent;
	int rc, i;

	if ((rc = sl_askable(l, err)) != DLOCK_OK) {
		return rc;
	}
	sent = dlock_now_ms();
	for (i = 0; i < SL_ASK_TRIES; i++) {
		rc = l->drv->check(l->entry->conn, l->sname, l->slen, dlock_sql_hold_shared(h),
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

int dlock_sql_lock_token_fetch(dlock_handle *h, dlock_err *err)
{
	dlock_sql_lock_state *l = h->impl;
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
		rc = l->drv->token(l->entry->conn, h->path, h->path_len, l->sname, l->slen,
		                   dlock_sql_hold_shared(h), sent + h->target.connect_timeout_ms, &token,
		                   err);
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
	const dlock_sql_lock_state *l = h->impl;

	return l->held ? l->token : 0;
}
