/* dlock_zk_pool.h: the process-wide set of shared sessions, one per distinct
 * (hosts, session timeout, credentials), opened lazily, replaced when dead and
 * forgotten after fork(). */
#ifndef DLOCK_ZK_POOL_H
#define DLOCK_ZK_POOL_H

#include "dlock_zk_session.h"

/* Returns in *out a new reference to a session with cfg's settings, reusing
 * the pooled one unless it is dead or belongs to a fork parent, otherwise
 * opening one (see dlock_session_open for the codes). The caller unrefs it. */
int dlock_pool_get(const dlock_session_cfg *cfg, const dlock_interrupt *intr, dlock_session **out,
                   dlock_err *err);

/* Number of sessions currently pooled (for tests and phpinfo). */
unsigned dlock_pool_size(void);

/* Drops the pool's references (closing sessions no lock still uses). */
void dlock_pool_shutdown(void);

#endif
