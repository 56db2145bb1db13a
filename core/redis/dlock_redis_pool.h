/* dlock_redis_pool.h: this process's identity on Redis (a random UUID,
 * renewed after fork) and its connections, one per server and credentials,
 * used by the PHP thread only and kept across requests. */
#ifndef DLOCK_REDIS_POOL_H
#define DLOCK_REDIS_POOL_H

#include "dlock_redis_conn.h"

/* The connection to t's server, opened by the first call made on it. The
 * pool owns it; it stays valid until dlock_redis_pool_shutdown. Returns
 * DLOCK_OK or DLOCK_ENOMEM. */
int dlock_redis_pool_get(const dlock_target *t, dlock_redis_conn **out, dlock_err *err);

/* This process's UUID (36 characters), new in every fork child. */
const char *dlock_redis_process_id(void);

/* Connections open (for phpinfo). */
unsigned dlock_redis_pool_size(void);

/* Closes and frees every pooled connection. */
void dlock_redis_pool_shutdown(void);

#endif
