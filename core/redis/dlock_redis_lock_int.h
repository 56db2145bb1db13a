/* dlock_redis_lock_int.h: a Redis lock object's state and the hold half's
 * functions, shared by dlock_redis_lock.c (getting a hold) and
 * dlock_redis_hold.c (having one: release, checks); nothing else includes it. */
#ifndef DLOCK_REDIS_LOCK_INT_H
#define DLOCK_REDIS_LOCK_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "../dlock_held.h"
#include "dlock_redis_conn.h"
#include "dlock_redis_lock.h"
#include "dlock_redis_watchdog.h"

#define RL_BACKOFF_MS 100 /* between reconnect attempts */

typedef struct dlock_redis_lock_state {
	char *k_queue, *k_token, *k_channel; /* keys (owned) */
	char *p_wait, *p_wake, *p_latch;     /* key prefixes (owned) */
	char fmt[16];                        /* how holds look: "r", "s", "l" or "z<leases>" */
	uint64_t owner;                      /* this object's owner id in the field */
	uint64_t seq;                        /* attempts and releases, for unique ids */
	int held;                /* the server hold is ours (nested holds are the handle's) */
	int64_t token;           /* fencing token of the hold */
	dlock_redis_lease lease; /* registered with the watchdog while held */
	dlock_held reg;          /* in the registry of held locks while held */
	char *space;             /* the name's lock space (owned) */
	dlock_handle *h;         /* back pointer (for the held list) */
	int busy;                /* an acquire() of this object is under way: a signal
	                            handler run inside it must not use this object */
} dlock_redis_lock_state;

/* The format of h's holds, as the scripts take it. */
const char *dlock_redis_hold_fmt(const dlock_handle *h);

/* DLOCK_EDEADLK: a call on an object whose acquire() a signal handler
 * interrupted (the handler is the caller). */
int dlock_redis_hold_busy_err(const dlock_handle *h, dlock_err *err);

/* Forgets l's hold without a word to the server (off the watchdog and the
 * held list). */
void dlock_redis_hold_forget(dlock_redis_lock_state *l);

/* Waits ms in interruptible slices; non-zero when interrupted. */
int dlock_redis_hold_backoff(int64_t ms, const dlock_interrupt *intr);

/* Runs the unlock script for our field on c with `latch` until deadline; *v
 * is its answer (1 released, -1 not ours, -2 an unexpected reply). */
int dlock_redis_hold_unlock(dlock_handle *h, dlock_redis_conn *c, const char *latch,
                            int64_t deadline, long long *v, dlock_err *err);

/* A new unlock latch key for l's field (malloc()ed; NULL when out of memory). */
char *dlock_redis_hold_latch(dlock_redis_lock_state *l);

/* Drops h's hold on the server over c (lent to the call): forgotten when the
 * server no longer has it or could not be reached while it was certain;
 * after another failure a hold the server confirms is kept, renewed. */
int dlock_redis_hold_drop(dlock_handle *h, dlock_redis_conn *c, dlock_err *err);

#endif
