/* dlock_redis_lock.c: acquiring, holding and releasing a Redis mutex (see
 * the header for the keys). Every server call has a deadline; a connection
 * loss is ridden out for connect_timeout, with calls that are idempotent on
 * retry (the lock script recognises our own field, the unlock is latched). */
#include "dlock_redis_lock.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../dlock_dsn.h"
#include "dlock_redis_pool.h"
#include "dlock_redis_script.h"
#include "dlock_redis_watchdog.h"

#define RL_GRACE_MS   500 /* how far past a timed acquire's timeout a call may run */
#define RL_BACKOFF_MS 100 /* between reconnect attempts */
#define RL_LATCH_EXTRA_MS                                                                          \
	1000 /* a latch outlives the retry window (two connect_timeouts: the                           \
	        first call's and the retries') by this */

typedef struct rl_lock {
	char *k_queue, *k_token, *k_channel; /* keys (owned) */
	char *p_wait, *p_wake, *p_latch;     /* key prefixes (owned) */
	char fmt[16];                        /* how holds look: "r", "s", "l" or "z<leases>" */
	uint64_t owner;                      /* this object's owner id in the field */
	uint64_t seq;                        /* attempts and releases, for unique ids */
	unsigned holds;                      /* nested holds; > 0 only while held */
	int64_t token;                       /* fencing token of the hold */
	pid_t pid;                           /* process that holds */
	dlock_redis_lease lease;             /* registered with the watchdog while held */
	struct rl_lock *next_held;           /* this process's held locks */
	dlock_handle *h;                     /* back pointer (for the held list) */
	int busy;                            /* an acquire() of this object is under way: a signal
	                                        handler run inside it must not use this object */
} rl_lock;

static rl_lock *rl_held;       /* held Redis locks of this process (PHP thread only) */
static uint64_t rl_next_owner; /* owner ids */

char *dlock_redis_key(const char *prefix, const char *name, const char *suffix)
{
	int braced = strchr(name, '{') == NULL; /* Redisson's prefixName() */
	size_t n = strlen(prefix) + strlen(name) + strlen(suffix) + 3;
	char *k = malloc(n);

	if (k) {
		snprintf(k, n, "%s%s%s%s%s", prefix, braced ? "{" : "", name, braced ? "}" : "", suffix);
	}
	return k;
}

char *dlock_redis_own_key(const char *prefix, const char *name, const char *suffix)
{
	size_t n = strlen(prefix) + strlen(name) + strlen(suffix) + 3;
	char *k = malloc(n);

	if (k) {
		snprintf(k, n, "%s{%s}%s", prefix, name, suffix);
	}
	return k;
}

int dlock_redis_lock_new(dlock_handle *h, dlock_err *err)
{
	rl_lock *l;

	if (h->kind != DLOCK_KIND_MUTEX && h->target.format != 'r' && h->target.format != 0) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "option \"format\" applies to DistributedLock only, not to %s",
		                     h->kind == DLOCK_KIND_SEMAPHORE ? "semaphores" : "read-write locks");
	}
	if (dlock_redis_name_validate(h->path, h->path_len, err) != DLOCK_OK) {
		return DLOCK_EINVAL;
	}
	if (!(l = calloc(1, sizeof(*l)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	l->k_queue = dlock_redis_own_key("dlock_queue:", h->path, "");
	l->k_token = dlock_redis_key("redisson_lock_token:", h->path, "");
	l->k_channel = dlock_redis_key("redisson_lock__channel:", h->path, "");
	l->p_wait = dlock_redis_own_key("dlock_wait:", h->path, ":");
	l->p_wake = dlock_redis_own_key("dlock_wake:", h->path, ":");
	l->p_latch = dlock_redis_key("redisson_unlock_latch:", h->path, ":");
	l->owner = ++rl_next_owner;
	l->h = h;
	if (h->kind == DLOCK_KIND_SEMAPHORE) {
		snprintf(l->fmt, sizeof(l->fmt), "z%d", h->max_leases);
	} else if (h->kind == DLOCK_KIND_READ || h->kind == DLOCK_KIND_WRITE) {
		snprintf(l->fmt, sizeof(l->fmt), "%s", h->kind == DLOCK_KIND_READ ? "wr" : "ww");
	} else {
		l->fmt[0] = h->target.format == 's' || h->target.format == 'l' ? h->target.format : 'r';
	}
	h->impl = l;
	if (!l->k_queue || !l->k_token || !l->k_channel || !l->p_wait || !l->p_wake || !l->p_latch) {
		dlock_redis_lock_free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	return DLOCK_OK;
}

/* The format of h's holds, as the scripts take it. */
static const char *rl_fmt(const dlock_handle *h)
{
	return ((const rl_lock *)h->impl)->fmt;
}

/* The refusal of a call on an object whose acquire() a signal handler
 * interrupted (the handler is this call's caller). */
static int rl_busy_err(const dlock_handle *h, dlock_err *err)
{
	return dlock_err_set(err, DLOCK_EDEADLK, 0,
	                     "lock %s: this object's acquire() is under way (a signal handler "
	                     "interrupted it); use another object, or try again after that acquire",
	                     h->path);
}

/* Forgets the hold without a word to the server. */
static void rl_forget(rl_lock *l)
{
	rl_lock **p;

	dlock_redis_watchdog_unregister(&l->lease);
	for (p = &rl_held; *p; p = &(*p)->next_held) {
		if (*p == l) {
			*p = l->next_held;
			break;
		}
	}
	l->next_held = NULL;
	l->holds = 0;
	l->token = 0;
}

void dlock_redis_lock_free(dlock_handle *h)
{
	rl_lock *l = h->impl;

	if (!l) {
		return;
	}
	if (l->holds > 0) {
		dlock_redis_lock_release(h, 1, 1, NULL);
		rl_forget(l);
	}
	free(l->k_queue);
	free(l->k_token);
	free(l->k_channel);
	free(l->p_wait);
	free(l->p_wake);
	free(l->p_latch);
	free(l);
	h->impl = NULL;
}

/* Waits ms (in interruptible slices) before a reconnect attempt. Returns
 * non-zero when interrupted. */
static int rl_backoff(int64_t ms, const dlock_interrupt *intr)
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

/* The deadline of one call: connect_timeout from now, and for a timed
 * acquire no later than its deadline plus grace. */
static int64_t rl_call_deadline(const dlock_handle *h, int64_t dl)
{
	int64_t d = dlock_now_ms() + h->target.connect_timeout_ms;

	return dl >= 0 && dl + RL_GRACE_MS < d ? dl + RL_GRACE_MS : d;
}

/* Runs the lock script; out = {status, count or pttl, token}. */
static int rl_lock_call(dlock_handle *h, dlock_redis_conn *c, const char *waiter, const char *grant,
                        int64_t deadline, const dlock_interrupt *intr, long long out[3],
                        dlock_err *err)
{
	rl_lock *l = h->impl;
	char lease[24], ttl[24];
	const char *kv[11] = {h->path, l->k_queue, l->k_token, lease,     l->lease.field, rl_fmt(h),
	                      waiter,  ttl,        l->p_wait,  l->p_wake, grant};
	redisReply *r = NULL;
	size_t i;
	int rc;

	snprintf(lease, sizeof(lease), "%lld", (long long)h->target.lease_ms);
	snprintf(ttl, sizeof(ttl), "%d", DLOCK_REDIS_WAIT_TTL_MS);
	if ((rc = dlock_redis_script_call(c, DLOCK_RS_LOCK, 3, 8, kv, deadline, intr, &r, err)) !=
	    DLOCK_OK) {
		return rc;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3) {
		freeReplyObject(r);
		return dlock_err_set(err, DLOCK_ESERVER, 0, "%s: unexpected reply to the lock script",
		                     c->where);
	}
	for (i = 0; i < 3; i++) {
		out[i] = r->element[i]->type == REDIS_REPLY_INTEGER ? r->element[i]->integer : 0;
	}
	freeReplyObject(r);
	return DLOCK_OK;
}

/* Takes our waiter out of the queue (passing on a wake-up it may have
 * consumed); a failure is left to the heartbeat's expiry. */
static void rl_leave(dlock_handle *h, dlock_redis_conn *c, const char *waiter)
{
	rl_lock *l = h->impl;
	char ttl[24];
	const char *kv[7] = {h->path, l->k_queue, waiter, l->p_wait, l->p_wake, ttl, rl_fmt(h)};
	redisReply *r = NULL;

	if (!waiter[0]) {
		return;
	}
	snprintf(ttl, sizeof(ttl), "%d", DLOCK_REDIS_WAIT_TTL_MS);
	if (dlock_redis_script_call(c, DLOCK_RS_LEAVE, 2, 5, kv,
	                            dlock_now_ms() + h->target.connect_timeout_ms, NULL, &r,
	                            NULL) == DLOCK_OK) {
		freeReplyObject(r);
	}
}

/* Blocks on our wake list for at most wait_ms; any outcome but an error
 * means "run the lock script again". */
static int rl_block(dlock_handle *h, dlock_redis_conn *c, const char *waiter, int64_t wait_ms,
                    int64_t dl, const dlock_interrupt *intr, dlock_err *err)
{
	int64_t deadline = dlock_now_ms() + wait_ms + h->target.connect_timeout_ms;
	rl_lock *l = h->impl;
	char *key = malloc(strlen(l->p_wake) + strlen(waiter) + 1), secs[32];
	const char *argv[3] = {"BLPOP", key, secs};
	redisReply *r = NULL;
	int rc;

	if (!key) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	strcpy(key, l->p_wake);
	strcat(key, waiter);
	snprintf(secs, sizeof(secs), "%.3f", (double)(wait_ms < 10 ? 10 : wait_ms) / 1000.0);
	if (dl >= 0 && dl + RL_GRACE_MS < deadline) {
		deadline = dl + RL_GRACE_MS; /* a stalled server: no later than a timed acquire's grace */
	}
	rc = dlock_redis_conn_call(c, 3, argv, NULL, deadline, intr, &r, err);
	if (rc == DLOCK_OK) {
		if (r->type == REDIS_REPLY_ERROR) {
			rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: BLPOP failed: %.160s", c->where, r->str);
		}
		freeReplyObject(r);
	}
	free(key);
	return rc;
}

/* Records a new hold granted by a call sent at sent. */
static int rl_granted(dlock_handle *h, long long count, long long token, int64_t sent,
                      dlock_err *err)
{
	rl_lock *l = h->impl;
	int rc;

	l->lease.target = &h->target;
	l->lease.key = h->path;
	l->lease.lease_ms = h->target.lease_ms;
	snprintf(l->lease.format, sizeof(l->lease.format), "%s", rl_fmt(h));
	l->lease.max_until = h->target.max_hold_ms > 0 ? sent + h->target.max_hold_ms : -1;
	if ((rc = dlock_redis_watchdog_register(&l->lease, sent, err)) != DLOCK_OK) {
		return rc; /* the lease runs out on its own */
	}
	(void)count; /* nested holds are counted here: the server says 1 */
	l->holds = 1;
	l->token = token;
	l->pid = getpid();
	l->next_held = rl_held;
	rl_held = l;
	return DLOCK_OK;
}

/* WAIT until target.wait_replicas replicas have every write of c so far
 * (our grant and its token), at most connect_timeout. */
static int rl_wait_replicas(dlock_handle *h, dlock_redis_conn *c, int64_t dl, dlock_err *err)
{
	char n[16], ms[24];
	const char *argv[3] = {"WAIT", n, ms};
	redisReply *r = NULL;
	long long acked;
	int64_t wait = h->target.connect_timeout_ms, now = dlock_now_ms();
	int rc;

	if (dl >= 0 && dl + RL_GRACE_MS - now < wait) {
		wait =
		    dl + RL_GRACE_MS - now > 1 ? dl + RL_GRACE_MS - now : 1; /* a timed acquire's bound */
	}
	snprintf(n, sizeof(n), "%d", h->target.wait_replicas);
	snprintf(ms, sizeof(ms), "%lld", (long long)wait);
	rc = dlock_redis_conn_call(c, 3, argv, NULL, now + wait + RL_GRACE_MS, NULL, &r, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	acked = r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
	freeReplyObject(r);
	if (acked < h->target.wait_replicas) {
		return dlock_err_set(
		    err, DLOCK_ESERVER, 0,
		    "%s: acquired on the master, but only %lld of %d replicas acknowledged "
		    "it within %lld ms (wait_replicas); released",
		    c->where, acked < 0 ? 0 : acked, h->target.wait_replicas, (long long)wait);
	}
	return DLOCK_OK;
}

/* Runs the unlock script for our field on c with a new latch until
 * deadline; *v is its answer (1 released, -1 not ours). */
static int rl_unlock_call(dlock_handle *h, dlock_redis_conn *c, const char *latch, int64_t deadline,
                          long long *v, dlock_err *err)
{
	rl_lock *l = h->impl;
	char ttl[24], latch_ttl[24];
	const char *kv[10] = {h->path,   l->k_channel, latch,     l->k_queue, l->lease.field,
	                      rl_fmt(h), latch_ttl,    l->p_wait, l->p_wake,  ttl};
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
static char *rl_latch(rl_lock *l)
{
	char *latch = malloc(strlen(l->p_latch) + DLOCK_REDIS_FIELD_MAX + 24);

	if (latch) {
		sprintf(latch, "%s%s:%llu", l->p_latch, l->lease.field, (unsigned long long)++l->seq);
	}
	return latch;
}

/* An acquire gave up (a signal handler stopped it, or it failed) after a
 * lock script whose reply it never read: the script may have granted. The
 * lock script is idempotent by field, so dropping our field now, on a sound
 * connection, undoes exactly that grant (and wakes the next waiter). A
 * failure leaves the grant to its lease. */
static void rl_undo(dlock_handle *h, dlock_redis_conn *c)
{
	char *latch = rl_latch(h->impl);
	long long v;

	if (latch) {
		rl_unlock_call(h, c, latch, dlock_now_ms() + h->target.connect_timeout_ms, &v, NULL);
		free(latch);
	}
}

static int rl_release(dlock_handle *h, dlock_redis_conn *c, dlock_err *err);

/* Acquires over c (lent to this call; see dlock_redis_lock_acquire). */
static int rl_acquire(dlock_handle *h, dlock_redis_conn *c, const dlock_acquire_req *req,
                      dlock_err *err)
{
	rl_lock *l = h->impl;
	char waiter[DLOCK_REDIS_FIELD_MAX + 48] = "";
	const char *grant = "";
	int64_t dl = req->timeout_ms < 0 ? -1 : dlock_now_ms() + req->timeout_ms, loss_since = 0;
	long long out[3];
	int rc, late = 0, unread = 0; /* unread: a lock script's reply was lost (it may have granted) */
	pid_t me = getpid();          /* a signal handler may fork: the child leaves our wait alone */

	/* read-write members say which part they are: "r:" or "w:" */
	snprintf(l->lease.field, sizeof(l->lease.field), "%s%s:%llu",
	         h->kind == DLOCK_KIND_READ    ? "r:"
	         : h->kind == DLOCK_KIND_WRITE ? "w:"
	                                       : "",
	         dlock_redis_process_id(), (unsigned long long)l->owner);
	if (req->grant_from) {
		grant = ((rl_lock *)req->grant_from->impl)->lease.field;
	}
	if (req->timeout_ms != 0) {
		/* ":<seq>.<format>": the scripts see what each waiter waits for */
		snprintf(waiter, sizeof(waiter), "%s:%llu.%s", l->lease.field, (unsigned long long)++l->seq,
		         rl_fmt(h));
	}
	for (;;) {
		int64_t sent = dlock_now_ms(), now, call = sent; /* call: when the failing call began */

		rc = rl_lock_call(h, c, waiter, grant, rl_call_deadline(h, dl), req->intr, out, err);
		unread = rc == DLOCK_EINTR || rc == DLOCK_ECONNLOSS;
		if (rc == DLOCK_EFORKED) {
			return rc;
		}
		if (rc == DLOCK_OK) {
			loss_since = 0;
			if (out[0] == 1) {
				if ((rc = rl_granted(h, out[1], out[2], sent, err)) == DLOCK_OK &&
				    h->target.wait_replicas > 0 &&
				    (rc = rl_wait_replicas(h, c, dl, err)) != DLOCK_OK) {
					rl_release(h, c, NULL); /* not durable: not held */
					rl_forget(l);
				}
				if (rc != DLOCK_OK || dlock_redis_watchdog_until(&l->lease) - dlock_now_ms() >=
				                          h->target.lease_ms / 3) {
					return rc;
				}
				/* the grant's reply came so late (a paused process, a stalled
				 * server) that most of the lease may be gone, or all of it and
				 * the lock with it: ask again, dated now. The lock script knows
				 * our field if we still hold; else we queue again. */
				rl_forget(l);
				if (++late >= 3) {
					return dlock_err_set(err, DLOCK_ECONNLOSS, 0,
					                     "%s: the server's replies come later than two thirds of "
					                     "the lease; the lock is not held",
					                     c->where);
				}
				continue;
			}
			if (out[0] == -3) {
				return dlock_err_set(err, DLOCK_EDEADLK, 0,
				                     "cannot take the read lock beside this process's write lock: "
				                     "a writer (or a mutex or semaphore on the same name) is "
				                     "queued behind it and would be overtaken");
			}
			if (out[0] == -2) {
				return dlock_err_set(err, DLOCK_ELOST, 0,
				                     "the write lock this read was to be granted beside is gone");
			}
			if (out[0] != 0) {
				rl_leave(h, c, waiter);
				return dlock_err_set(err, DLOCK_ESERVER, 0, "%s: unexpected lock script reply",
				                     c->where);
			}
			if (req->timeout_ms == 0) {
				return DLOCK_ETIMEDOUT;
			}
			now = dlock_now_ms();
			if (dl >= 0 && now >= dl) {
				rl_leave(h, c, waiter);
				return DLOCK_ETIMEDOUT;
			}
			call = now;
			rc = rl_block(h, c, waiter,
			              dl >= 0 && dl - now < DLOCK_REDIS_HEARTBEAT_MS ? dl - now
			                                                             : DLOCK_REDIS_HEARTBEAT_MS,
			              dl, req->intr, err);
			if (rc == DLOCK_OK) {
				continue; /* woken, or a heartbeat is due: the lock script again */
			}
			if (rc == DLOCK_EFORKED) {
				return rc;
			}
		}
		if (rc == DLOCK_ECONNLOSS || rc == DLOCK_ECONNECT) {
			now = dlock_now_ms();
			if (!loss_since) {
				loss_since = call; /* the connection is given connect_timeout in all */
			}
			if (now - loss_since < h->target.connect_timeout_ms && (dl < 0 || now < dl)) {
				int stopped = rl_backoff(c->ctx ? 0 : RL_BACKOFF_MS, req->intr);

				if (getpid() != me) {
					return dlock_err_set(err, DLOCK_EFORKED, 0,
					                     "the process forked during acquire() (in a signal "
					                     "handler?); the wait is the parent's");
				}
				if (!stopped) {
					continue; /* the lock script is safe to repeat: it knows our field */
				}
				rc = dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
			}
		}
		/* gave up: do not leave a hold or a queue place behind (after a lost
		 * connection that did not come back, both end with their leases) */
		if (rc != DLOCK_ECONNLOSS && rc != DLOCK_ECONNECT) {
			if (unread) {
				rl_undo(h, c); /* a handler stopped us while the lock script ran */
			}
			rl_leave(h, c, waiter);
		}
		return rc;
	}
}

int dlock_redis_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	rl_lock *l = h->impl;
	dlock_redis_conn *c;
	int rc;

	if (l->busy) {
		return rl_busy_err(h, err);
	}
	if (l->holds > 0 && l->pid != getpid()) {
		rl_forget(l); /* a fork parent's hold: not ours */
	}
	if (l->holds > 0) {
		if (!dlock_redis_watchdog_valid(&l->lease)) {
			rl_forget(l);
			return dlock_err_set(err, DLOCK_ELOST, 0,
			                     "the lock was lost (lease not renewed in time, or its key is "
			                     "gone); it is not held now");
		}
		l->holds++;
		return DLOCK_OK;
	}
	if ((rc = dlock_redis_pool_get(&h->target, &c, err)) != DLOCK_OK) {
		return rc;
	}
	l->busy = 1;
	rc = rl_acquire(h, c, req, err);
	l->busy = 0;
	dlock_redis_pool_put(c);
	return rc;
}

int dlock_redis_lock_release(dlock_handle *h, int wait, int all, dlock_err *err)
{
	rl_lock *l = h->impl;
	dlock_redis_conn *c;
	int rc;

	(void)wait; /* the unlock's reply is always awaited: one round trip */
	if (l->holds == 0) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->pid != getpid()) {
		rl_forget(l);
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %s is held by the parent process (before fork()); the child "
		                     "forgot it",
		                     h->path);
	}
	if (l->holds > 1 && !all) {
		l->holds--; /* nested: counted here only, the server is not touched */
		return DLOCK_OK;
	}
	if (l->busy) {
		return rl_busy_err(h, err);
	}
	if ((rc = dlock_redis_pool_get(&h->target, &c, err)) != DLOCK_OK) {
		return rc; /* out of memory: the hold stays, as certain as it was */
	}
	rc = rl_release(h, c, err);
	dlock_redis_pool_put(c);
	return rc;
}

/* Asks the server (without renewing) whether our field is there: 1 yes, 0
 * no, -1 no answer. */
static int rl_look(dlock_handle *h, dlock_redis_conn *c)
{
	rl_lock *l = h->impl;
	const char *kv[4] = {h->path, "", l->lease.field, rl_fmt(h)};
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
static int rl_release(dlock_handle *h, dlock_redis_conn *c, dlock_err *err)
{
	rl_lock *l = h->impl;
	char *latch;
	int64_t loss_since = 0, until;
	int rc;

	if (!(latch = rl_latch(l))) {
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
		rc = rl_unlock_call(h, c, latch, deadline, &v, err);
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
				rl_backoff(c->ctx ? 0 : RL_BACKOFF_MS, NULL);
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
	rl_forget(l);
	return rc;
}

int dlock_redis_lock_held(dlock_handle *h)
{
	rl_lock *l = h->impl;

	return l->holds > 0 && l->pid == getpid() && dlock_redis_watchdog_valid(&l->lease);
}

int dlock_redis_lock_verify(dlock_handle *h, dlock_err *err)
{
	rl_lock *l = h->impl;
	dlock_redis_conn *c;
	char lease[24] = ""; /* empty: only look (see the renew script) */
	const char *kv[4] = {h->path, lease, l->lease.field, rl_fmt(h)};
	redisReply *r = NULL;
	int64_t sent;
	int rc, held, capped;

	if (l->holds == 0) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %s is not held by this object", h->path);
	}
	if (l->pid != getpid()) {
		return dlock_err_set(err, DLOCK_EFORKED, 0, "lock %s is held by the parent process",
		                     h->path);
	}
	if (!dlock_redis_watchdog_valid(&l->lease)) {
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "lock %s was lost (lease not renewed in time, or its key is gone)",
		                     h->path);
	}
	if (l->busy) {
		return rl_busy_err(h, err);
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
	if (!held || !capped) {
		dlock_redis_watchdog_confirm(&l->lease, sent, held);
	}
	if (!held) {
		return dlock_err_set(err, DLOCK_ELOST, 0, "lock %s is gone from the server", h->path);
	}
	return DLOCK_OK;
}

unsigned dlock_redis_lock_holds(const dlock_handle *h)
{
	const rl_lock *l = h->impl;

	return l->holds;
}

int64_t dlock_redis_lock_token(const dlock_handle *h)
{
	const rl_lock *l = h->impl;

	return l->holds > 0 ? l->token : 0;
}

int dlock_redis_lock_self_conflict(const dlock_handle *h)
{
	const rl_lock *o;
	int mine = 0;

	for (o = rl_held; o; o = o->next_held) {
		const dlock_target *t = &o->h->target;

		int rw_o = o->h->kind == DLOCK_KIND_READ || o->h->kind == DLOCK_KIND_WRITE;
		int rw_h = h->kind == DLOCK_KIND_READ || h->kind == DLOCK_KIND_WRITE;

		if (o->h == h || o->holds == 0 || o->pid != getpid() || strcmp(o->h->path, h->path) != 0 ||
		    !dlock_target_same_locks(t, &h->target)) {
			continue;
		}
		if (rw_o != rw_h || (!rw_h && o->h->kind != h->kind)) {
			return 1; /* a hold of another kind on this name excludes every other kind */
		}
		/* a reader waits only for writers; everything else for any holder */
		if (h->kind != DLOCK_KIND_READ || o->h->kind == DLOCK_KIND_WRITE) {
			mine++;
		}
	}
	/* a semaphore waits for itself only when this process has every lease */
	return h->kind == DLOCK_KIND_SEMAPHORE ? mine >= h->max_leases : mine > 0;
}
