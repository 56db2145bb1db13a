/* dlock_redis_hold.c: having a Redis hold: release (the latched unlock,
 * ridden over a lost connection while the hold is certain), the checks behind
 * isAcquired()/checkHeld(), the process's held list and the self-wait check.
 * Below dlock_redis_lock.c, which gets holds and calls down to these. */
#include "dlock_redis_lock_int.h"
#include "dlock_redis_revoke.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../dlock_dsn.h"
#include "dlock_redis_pool.h"
#include "dlock_redis_script.h"
#include "dlock_redis_watchdog.h"

#define RL_LATCH_EXTRA_MS                                                                          \
	1000 /* a latch outlives the retry window (two connect_timeouts: the                           \
	        first call's and the retries') by this */

/* The format of h's holds, as the scripts take it. */
const char *dlock_redis_hold_fmt(const dlock_handle *h)
{
	return ((const dlock_redis_lock_state *)h->impl)->fmt;
}

/* The refusal of a call on an object whose acquire() a signal handler
 * interrupted (the handler is this call's caller). */
int dlock_redis_hold_busy_err(const dlock_handle *h, dlock_err *err)
{
	return dlock_err_set(err, DLOCK_EDEADLK, 0,
	                     "lock %s: this object's acquire() is under way (a signal handler "
	                     "interrupted it); use another object, or try again after that acquire",
	                     h->path);
}

/* Forgets the hold without a word to the server. */
void dlock_redis_hold_forget(dlock_redis_lock_state *l)
{
	dlock_redis_watchdog_unregister(&l->lease);
	dlock_held_remove(&l->reg);
	l->held = 0;
	l->token = 0;
	if (!l->busy) { /* an acquire under way keeps its registration for its next grant */
		dlock_redis_revoke_unwatch(l);
	}
}

/* Waits ms (in interruptible slices) before a reconnect attempt. Returns
 * non-zero when interrupted. */
int dlock_redis_hold_backoff(int64_t ms, const dlock_interrupt *intr)
{
	int64_t end = dlock_now_ms() + ms;

	for (;;) {
		int64_t left = end - dlock_now_ms();

		if (left <= 0) {
			return 0;
		}
		poll(NULL, 0, (int)(left < DLOCK_WAIT_SLICE_MS ? left : DLOCK_WAIT_SLICE_MS));
		if (dlock_interrupted(intr)) {
			return 1;
		}
	}
}

/* Runs the unlock script for our field on c with a new latch until
 * deadline; *v is its answer (1 released, -1 not ours). */
int dlock_redis_hold_unlock(dlock_handle *h, dlock_redis_conn *c, const char *latch,
                            int64_t deadline, long long *v, dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;
	char ttl[24], latch_ttl[24];
	const char *kv[10] = {
	    h->path,   l->k_channel, latch,     l->k_queue, l->lease.field, dlock_redis_hold_fmt(h),
	    latch_ttl, l->p_wait,    l->p_wake, ttl};
	redisReply *r = NULL;
	int rc;

	snprintf(ttl, sizeof(ttl), "%d", DLOCK_REDIS_WAIT_TTL_MS);
	snprintf(latch_ttl, sizeof(latch_ttl), "%lld",
	         (long long)(2 * h->target.connect_timeout_ms + RL_LATCH_EXTRA_MS));
	if ((rc = dlock_redis_script_call(c, DLOCK_RS_UNLOCK, 4, 6, kv, deadline, NULL, &r, err)) !=
	    DLOCK_OK) {
		return rc;
	}
	*v = r->type == REDIS_REPLY_INTEGER ? r->integer : -2;
	freeReplyObject(r);
	return DLOCK_OK;
}

/* A new unlock latch key for our field (malloc()ed; NULL when out of
 * memory). */
char *dlock_redis_hold_latch(dlock_redis_lock_state *l)
{
	char *latch = malloc(strlen(l->p_latch) + DLOCK_REDIS_FIELD_MAX + 24);

	if (latch) {
		sprintf(latch, "%s%s:%llu", l->p_latch, l->lease.field, (unsigned long long)++l->seq);
	}
	return latch;
}

void dlock_redis_lock_forget(dlock_handle *h)
{
	dlock_redis_hold_forget(h->impl);
}

int dlock_redis_lock_holding(const dlock_handle *h)
{
	return ((const dlock_redis_lock_state *)h->impl)->held;
}

int dlock_redis_lock_release(dlock_handle *h, int wait, dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;
	dlock_redis_conn *c;
	int rc;

	(void)wait; /* the unlock's reply is always awaited: one round trip */
	if (!l->held) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->busy) {
		return dlock_redis_hold_busy_err(h, err);
	}
	if ((rc = dlock_redis_pool_get(&h->target, &c, err)) != DLOCK_OK) {
		return rc; /* out of memory: the hold stays, as certain as it was */
	}
	rc = dlock_redis_hold_drop(h, c, err);
	dlock_redis_pool_put(c);
	return rc;
}

/* Asks the server (without renewing) whether our field is there: 1 yes, 0
 * no, -1 no answer. */
static int rl_look(dlock_handle *h, dlock_redis_conn *c)
{
	dlock_redis_lock_state *l = h->impl;
	const char *kv[4] = {h->path, "", l->lease.field, dlock_redis_hold_fmt(h)};
	redisReply *r = NULL;
	int held;

	if (dlock_redis_script_call(c, DLOCK_RS_RENEW, 1, 3, kv,
	                            dlock_now_ms() + h->target.connect_timeout_ms, NULL, &r,
	                            NULL) != DLOCK_OK) {
		return -1;
	}
	held = r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
	       r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1;
	freeReplyObject(r);
	return held;
}

/* Drops the hold on the server over c (lent to this call). A hold the
 * server no longer has, or that could not be reached while the hold was
 * certain, is forgotten; after any other failure (an error reply, no
 * memory) a hold the server confirms it still has is kept, renewed and as
 * certain as before, for another release() or request end. */
int dlock_redis_hold_drop(dlock_handle *h, dlock_redis_conn *c, dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;
	char *latch;
	int64_t loss_since = 0, until;
	int rc;

	if (!(latch = dlock_redis_hold_latch(l))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	/* retrying a lost connection only pays while the hold is certain: after
	 * that the lease ends on the server by itself */
	until = dlock_redis_watchdog_until(&l->lease);
	dlock_redis_watchdog_unregister(&l->lease); /* no renewal races the unlock */
	for (;;) {
		long long v;
		int64_t call = dlock_now_ms(), deadline = call + h->target.connect_timeout_ms;

		if (loss_since && loss_since + h->target.connect_timeout_ms < deadline) {
			deadline = loss_since + h->target.connect_timeout_ms; /* connect_timeout in all */
		}
		rc = dlock_redis_hold_unlock(h, c, latch, deadline, &v, err);
		if (rc == DLOCK_OK) {
			if (v == -1) {
				rc = dlock_err_set(err, DLOCK_ELOST, 0,
				                   "lock %s was lost before release() (its lease ran out or its "
				                   "key was removed)",
				                   h->path);
			} else if (v < 0) {
				rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: unexpected unlock reply", c->where);
			}
			break;
		}
		if (rc == DLOCK_ECONNLOSS || rc == DLOCK_ECONNECT) {
			int64_t now = dlock_now_ms();

			if (!loss_since) {
				loss_since = call;
			}
			if (now - loss_since < h->target.connect_timeout_ms && now + RL_BACKOFF_MS < until) {
				dlock_redis_hold_backoff(c->ctx ? 0 : RL_BACKOFF_MS, NULL);
				continue; /* same latch: a repeated unlock answers as the first did */
			}
			dlock_err_set(err, DLOCK_ECONNLOSS, 0,
			              "%s: could not reach the server to release %s; released here, the "
			              "server frees it when its lease ends",
			              c->where, h->path);
		}
		break;
	}
	free(latch);
	if (rc != DLOCK_OK && rc != DLOCK_ELOST && rc != DLOCK_ECONNLOSS && rc != DLOCK_ECONNECT &&
	    until > dlock_now_ms() && rl_look(h, c) == 1 &&
	    dlock_redis_watchdog_register(
	        &l->lease, until - l->lease.lease_ms + DLOCK_REDIS_DRIFT(l->lease.lease_ms), NULL) ==
	        DLOCK_OK) {
		return rc; /* the unlock did not drop it: held, renewed again, as certain as before */
	}
	dlock_redis_hold_forget(l);
	return rc;
}

int dlock_redis_lock_held(dlock_handle *h)
{
	dlock_redis_lock_state *l = h->impl;

	return l->held && dlock_redis_watchdog_valid(&l->lease);
}

int dlock_redis_lock_verify(dlock_handle *h, dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;
	dlock_redis_conn *c;
	char lease[24] = ""; /* empty: only look (see the renew script) */
	const char *kv[4] = {h->path, lease, l->lease.field, dlock_redis_hold_fmt(h)};
	redisReply *r = NULL;
	int64_t sent;
	int rc, held, capped;

	if (!l->held) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (!dlock_redis_watchdog_valid(&l->lease)) {
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "lock %s was lost (lease not renewed in time, or its key is gone)",
		                     h->path);
	}
	if (l->busy) {
		return dlock_redis_hold_busy_err(h, err);
	}
	sent = dlock_now_ms(); /* before the pool asks the sentinels (Sentinel target) */
	if ((rc = dlock_redis_pool_get(&h->target, &c, err)) != DLOCK_OK) {
		return rc;
	}
	/* past max_hold only look: a renewal here would outlast the cap */
	capped = l->lease.max_until >= 0 && sent >= l->lease.max_until;
	if (!capped) {
		snprintf(lease, sizeof(lease), "%lld", (long long)h->target.lease_ms);
	}
	rc = dlock_redis_script_call(c, DLOCK_RS_RENEW, 1, 3, kv, sent + h->target.connect_timeout_ms,
	                             NULL, &r, err);
	dlock_redis_pool_put(c);
	if (rc != DLOCK_OK) {
		return rc == DLOCK_ECONNECT ? DLOCK_ECONNLOSS : rc;
	}
	held = r->type == REDIS_REPLY_ARRAY && r->elements == 1 &&
	       r->element[0]->type == REDIS_REPLY_INTEGER && r->element[0]->integer == 1;
	freeReplyObject(r);
	/* a renewal the replicas may not have is no certainty (wait_replicas) */
	if (!held || (!capped && l->lease.wait_replicas == 0)) {
		dlock_redis_watchdog_confirm(&l->lease, sent, held);
	}
	if (!held) {
		return dlock_err_set(err, DLOCK_ELOST, 0, "lock %s is gone from the server", h->path);
	}
	return DLOCK_OK;
}

int64_t dlock_redis_lock_token(const dlock_handle *h)
{
	const dlock_redis_lock_state *l = h->impl;

	return l->held ? l->token : 0;
}

int dlock_redis_lock_self_conflict(const dlock_handle *h)
{
	const dlock_redis_lock_state *l = h->impl;

	return dlock_held_conflict(&l->reg, h->kind, h->max_leases, h->path, l->space,
	                           DLOCK_HELD_MIX_REFUSED);
}
