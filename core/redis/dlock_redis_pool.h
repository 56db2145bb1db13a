/* dlock_redis_pool.h: this process's identity on Redis (a random UUID,
 * renewed after fork) and its connections, one per server and credentials,
 * used by the PHP thread only and kept across requests. */
#ifndef DLOCK_REDIS_POOL_H
#define DLOCK_REDIS_POOL_H

#include "dlock_redis_conn.h"

/* Lends the caller a connection to t's server that no other call is using
 * (opened by the first command sent on it), until dlock_redis_pool_put. A
 * call interrupted by a signal handler keeps its connection; the handler's
 * own calls are lent another one, so no two calls ever share a socket (one
 * would read the other's reply). The pool owns the connection. Returns
 * DLOCK_OK or DLOCK_ENOMEM. */
int dlock_redis_pool_get(const dlock_target *t, dlock_redis_conn **out, dlock_err *err);

/* Gives back a connection lent by dlock_redis_pool_get; c must not be used
 * afterwards. A spare connection (another one to the same server is idle)
 * is closed. */
void dlock_redis_pool_put(dlock_redis_conn *c);

/* For a connection to a Sentinel target (any other: DLOCK_OK at once): asks
 * the sentinels for the master (as dlock_redis_sentinel_master, answer in
 * host and *port) and closes c's socket when it is not to that master or no
 * sentinel answered, so that nothing more is sent to a demoted master; the
 * next call on c reconnects through the sentinels. Returns as
 * dlock_redis_sentinel_master. */
int dlock_redis_sentinel_follow(dlock_redis_conn *c, int64_t limit, char *host, size_t size,
                                int *port, dlock_err *err);

/* This process's UUID (36 characters), new in every fork child. */
const char *dlock_redis_process_id(void);

/* Connections open (for phpinfo). */
unsigned dlock_redis_pool_size(void);

/* Closes and frees every pooled connection. */
void dlock_redis_pool_shutdown(void);

#endif
