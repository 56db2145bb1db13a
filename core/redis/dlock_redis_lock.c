/* dlock_redis_lock.c: getting a Redis hold (see the header for the keys);
 * having one (release, checks) is dlock_redis_hold.c. Every server call has a deadline; a
 * connection loss is ridden out for connect_timeout, with calls that are idempotent on retry (the
 * lock script recognises our own field, the unlock is latched). */
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

#define RL_GRACE_MS   500 /* how far past a timed acquire's timeout a call may run */
#define RL_BACKOFF_MS 100 /* between reconnect attempts */

static uint64_t rl_next_owner; /* owner ids */

int dlock_redis_name_validate(const char *name, size_t len, dlock_err *err)
{
	static const char *const reserved[] = {"redisson_lock_token:",
	                                       "redisson_lock__channel:",
	                                       "redisson_unlock_latch:",
	                                       "dlock_queue:",
	                                       "dlock_wait:",
	                                       "dlock_wake:"};
	size_t i;

	if (len == 0 || len > DLOCK_REDIS_NAME_MAX || memchr(name, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "a Redis lock name must be 1 to %d bytes without NUL bytes",
		                     DLOCK_REDIS_NAME_MAX);
	}
	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		if (len >= strlen(reserved[i]) && strncmp(name, reserved[i], strlen(reserved[i])) == 0) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "a Redis lock name must not start with \"%s\": dlock keeps its "
			                     "own keys there",
			                     reserved[i]);
		}
	}
	return DLOCK_OK;
}

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
	dlock_redis_lock_state *l;
	char space[1100];

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
	dlock_target_lock_space(&h->target, space, sizeof(space));
	l->space = strdup(space);
	if (h->kind == DLOCK_KIND_SEMAPHORE) {
		snprintf(l->fmt, sizeof(l->fmt), "z%d", h->max_leases);
	} else if (h->kind == DLOCK_KIND_READ || h->kind == DLOCK_KIND_WRITE) {
		snprintf(l->fmt, sizeof(l->fmt), "%s", h->kind == DLOCK_KIND_READ ? "wr" : "ww");
	} else {
		l->fmt[0] = h->target.format == 's' || h->target.format == 'l' ? h->target.format : 'r';
	}
	h->impl = l;
	if (!l->k_queue || !l->k_token || !l->k_channel || !l->p_wait || !l->p_wake || !l->p_latch ||
	    !l->space) {
		dlock_redis_lock_free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	return DLOCK_OK;
}

void dlock_redis_lock_free(dlock_handle *h)
{
	dlock_redis_lock_state *l = h->impl;

	if (!l) {
		return;
	}
	if (l->held) {
		dlock_redis_lock_release(h, 1, NULL);
		dlock_redis_hold_forget(l);
	}
	dlock_redis_revoke_unwatch(l);
	free(l->k_queue);
	free(l->k_token);
	free(l->k_channel);
	free(l->p_wait);
	free(l->p_wake);
	free(l->p_latch);
	free(l->space);
	free(l);
	h->impl = NULL;
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
	dlock_redis_lock_state *l = h->impl;
	char lease[24], ttl[24];
	const char *kv[11] = {
	    h->path, l->k_queue, l->k_token, lease,     l->lease.field, dlock_redis_hold_fmt(h),
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
	dlock_redis_lock_state *l = h->impl;
	char ttl[24];
	const char *kv[7] = {
	    h->path, l->k_queue, waiter, l->p_wait, l->p_wake, ttl, dlock_redis_hold_fmt(h)};
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
	dlock_redis_lock_state *l = h->impl;
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
	dlock_redis_lock_state *l = h->impl;
	int rc;

	l->lease.target = &h->target;
	l->lease.key = h->path;
	l->lease.lease_ms = h->target.lease_ms;
	l->lease.wait_replicas = h->target.wait_replicas;
	snprintf(l->lease.format, sizeof(l->lease.format), "%s", dlock_redis_hold_fmt(h));
	l->lease.max_until = h->target.max_hold_ms > 0 ? sent + h->target.max_hold_ms : -1;
	if ((rc = dlock_redis_watchdog_register(&l->lease, sent, err)) != DLOCK_OK) {
		return rc; /* the lease runs out on its own */
	}
	(void)count; /* nested holds are the handle's: the server says 1 */
	l->held = 1;
	l->token = token;
	dlock_held_add(&l->reg, &dlock_redis_backend, l, h->kind, h->path, l->space, NULL);
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

/* An acquire gave up (a signal handler stopped it, or it failed) after a
 * lock script whose reply it never read: the script may have granted. The
 * lock script is idempotent by field, so dropping our field now, on a sound
 * connection, undoes exactly that grant (and wakes the next waiter). A
 * failure leaves the grant to its lease. */
static void rl_undo(dlock_handle *h, dlock_redis_conn *c)
{
	char *latch = dlock_redis_hold_latch(h->impl);
	long long v;

	if (latch) {
		dlock_redis_hold_unlock(h, c, latch, dlock_now_ms() + h->target.connect_timeout_ms, &v,
		                        NULL);
		free(latch);
	}
}

/* Acquires over c (lent to this call; see dlock_redis_lock_acquire). */
static int rl_acquire(dlock_handle *h, dlock_redis_conn *c, const dlock_acquire_req *req,
                      dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;
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
	if (req->revoke && (rc = dlock_redis_revoke_watch(
	                        l, &h->target, h->path, l->lease.field, req->revoke,
	                        dlock_now_ms() + h->target.connect_timeout_ms, err)) != DLOCK_OK) {
		return rc; /* subscribed before the lock script: a request after the grant reaches us */
	}
	if (req->grant_from) {
		grant = ((dlock_redis_lock_state *)req->grant_from->impl)->lease.field;
	}
	if (req->timeout_ms != 0) {
		/* ":<seq>.<format>": the scripts see what each waiter waits for */
		snprintf(waiter, sizeof(waiter), "%s:%llu.%s", l->lease.field, (unsigned long long)++l->seq,
		         dlock_redis_hold_fmt(h));
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
					dlock_redis_hold_drop(h, c, NULL); /* not durable: not held */
					dlock_redis_hold_forget(l);
				}
				if (rc != DLOCK_OK || dlock_redis_watchdog_until(&l->lease) - dlock_now_ms() >=
				                          h->target.lease_ms / 3) {
					return rc;
				}
				/* the grant's reply came so late (a paused process, a stalled
				 * server) that most of the lease may be gone, or all of it and
				 * the lock with it: ask again, dated now. The lock script knows
				 * our field if we still hold; else we queue again. */
				dlock_redis_hold_forget(l);
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
				int stopped = dlock_redis_hold_backoff(c->ctx ? 0 : RL_BACKOFF_MS, req->intr);

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

int dlock_redis_lock_reenter(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;

	(void)req;
	if (l->busy) {
		return dlock_redis_hold_busy_err(h, err);
	}
	if (!dlock_redis_watchdog_valid(&l->lease)) {
		dlock_redis_hold_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, 0,
		                     "the lock was lost (lease not renewed in time, or its key is "
		                     "gone); it is not held now");
	}
	return DLOCK_OK;
}

int dlock_redis_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	dlock_redis_lock_state *l = h->impl;
	dlock_redis_conn *c;
	int rc;

	if (l->busy) {
		return dlock_redis_hold_busy_err(h, err);
	}
	if ((rc = dlock_redis_pool_get(&h->target, &c, err)) != DLOCK_OK) {
		return rc;
	}
	l->busy = 1;
	rc = rl_acquire(h, c, req, err);
	l->busy = 0;
	dlock_redis_pool_put(c);
	if (rc != DLOCK_OK || !l->held) {
		dlock_redis_revoke_unwatch(l);
	}
	return rc;
}
