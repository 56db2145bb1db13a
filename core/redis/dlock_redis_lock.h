/* dlock_redis_lock.h: an exclusive lock on Redis in Redisson's RLock layout,
 * with dlock's fair waiter queue and a watchdog-renewed lease. Keys for a
 * lock named N ({N} is N in braces unless N already has a brace):
 *   N                               HASH "<process uuid>:<owner id>" => 1, PEXPIRE lease
 *   redisson_lock_token:{N}         fencing counter, INCR per acquire (kept for ever)
 *   redisson_lock__channel:{N}      Redisson's unlock message "0" is published here
 *   redisson_unlock_latch:{N}:<id>  an unlock's answer for its retry, short-lived
 *   dlock_queue:{N}                 LIST of waiter ids in arrival order ({N}: always braced)
 *   dlock_wait:{N}:<waiter>         a waiter's heartbeat ("waiting" or "woken"), short TTL
 *   dlock_wake:{N}:<waiter>         LIST a waiter blocks on with BLPOP; one LPUSH wakes it
 * Nested holds are counted by the handle (dlock_handle.c; the server's count
 * stays 1). */
#ifndef DLOCK_REDIS_LOCK_H
#define DLOCK_REDIS_LOCK_H

#include "../dlock_backend.h"

/* How often a blocked waiter refreshes its place (ms), and how long a place
 * outlives its last refresh: a dead waiter delays the others by at most
 * about DLOCK_REDIS_WAIT_TTL_MS. */
#define DLOCK_REDIS_HEARTBEAT_MS 1000
#define DLOCK_REDIS_WAIT_TTL_MS  2500

/* The operations of dlock_backend_ops for a Redis mutex; contracts as in
 * dlock_handle.h. */
int dlock_redis_lock_new(dlock_handle *h, dlock_err *err);
void dlock_redis_lock_free(dlock_handle *h);
int dlock_redis_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
int dlock_redis_lock_reenter(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
int dlock_redis_lock_release(dlock_handle *h, int wait, dlock_err *err);
void dlock_redis_lock_forget(dlock_handle *h);
int dlock_redis_lock_holding(const dlock_handle *h);
int dlock_redis_lock_held(dlock_handle *h);
int dlock_redis_lock_verify(dlock_handle *h, dlock_err *err);
int64_t dlock_redis_lock_token(const dlock_handle *h);
int dlock_redis_lock_self_conflict(const dlock_handle *h);

/* Key names of lock `name` (see above), malloc()ed; NULL when out of memory.
 * dlock_redis_key follows Redisson's prefixName() (a name with a brace is
 * used as it is) for the keys Redisson shares; dlock_redis_own_key always
 * braces the name, so no two names share dlock's own keys. */
char *dlock_redis_key(const char *prefix, const char *name, const char *suffix);
char *dlock_redis_own_key(const char *prefix, const char *name, const char *suffix);

/* Checks a Redis lock name: 1 to DLOCK_REDIS_NAME_MAX bytes, no NUL, not
 * one of the key prefixes the backend keeps its own keys under. Returns
 * DLOCK_OK or DLOCK_EINVAL. */
#define DLOCK_REDIS_NAME_MAX 1024
int dlock_redis_name_validate(const char *name, size_t len, dlock_err *err);

#endif
