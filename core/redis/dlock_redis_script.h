/* dlock_redis_script.h: dlock's Lua scripts on Redis (the lock, unlock,
 * leave-the-queue, renew and list operations, each atomic on the server),
 * called by SHA with a fall-back to loading them again after a restart. The
 * key layout is Redisson's RLock layout plus dlock's waiter queue; see
 * dlock_redis_lock.c for what each key holds. */
#ifndef DLOCK_REDIS_SCRIPT_H
#define DLOCK_REDIS_SCRIPT_H

#include "dlock_redis_conn.h"

typedef enum dlock_redis_script_id {
	DLOCK_RS_LOCK = 0, /* take or re-enter the lock, or queue and heartbeat a waiter */
	DLOCK_RS_UNLOCK,   /* drop holds (latched, so a retry is idempotent), wake one waiter */
	DLOCK_RS_LEAVE,    /* a waiter gives up: leave the queue, pass on a wake-up */
	DLOCK_RS_RENEW,    /* extend the leases of held locks; report the ones gone */
	DLOCK_RS_LIST,     /* holders and live waiters */
	DLOCK_RS_PEEK,     /* what a key is: lock family, holders, waiters (listLocks) */
	DLOCK_RS_BREAK,    /* the operator's forced break: delete a held lock, wake waiters */
	DLOCK_RS_COUNT
} dlock_redis_script_id;

/* Runs script id with nkeys keys then nargs arguments (kv[0..nkeys+nargs),
 * NUL-terminated strings) on c, with dlock_redis_conn_call's deadline,
 * interrupt and codes. A server error reply is turned into DLOCK_ESERVER
 * (reply freed, *reply NULL). */
int dlock_redis_script_call(dlock_redis_conn *c, dlock_redis_script_id id, int nkeys, int nargs,
                            const char **kv, int64_t deadline, const dlock_interrupt *intr,
                            redisReply **reply, dlock_err *err);

#endif
