/* dlock_redis_admin.h: the operator's view of Redis locks (the dlock
 * command): listing by name prefix and the forced break. */
#ifndef DLOCK_REDIS_ADMIN_H
#define DLOCK_REDIS_ADMIN_H

#include <stddef.h>

#include "../dlock_backend.h"

/* Most keys one listing looks at before it gives up (DLOCK_EINVAL: the
 * caller narrows the prefix). */
#define DLOCK_REDIS_ADMIN_MAX_KEYS 100000

/* The locks on t whose names start with prefix[0..len) ("" for all), sorted
 * by name, into *out (dlock_lock_entries_free): keys held now in dlock's
 * layouts or Redisson's or symfony/lock's, or with live dlock waiters (kind
 * "unknown" when only waiters show). SCAN walks the database in batches
 * (each call bounded by connect_timeout), so a key written during the walk
 * may or may not be listed. Returns DLOCK_OK or, with err set, DLOCK_EINVAL
 * (a prefix no name can have, or more than DLOCK_REDIS_ADMIN_MAX_KEYS keys
 * under it), DLOCK_ECONNECT, DLOCK_ECONNLOSS, DLOCK_EINTR, DLOCK_ESERVER or
 * DLOCK_ENOMEM. */
int dlock_redis_admin_list(const dlock_target *t, const char *prefix, size_t len,
                           const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                           dlock_err *err);

/* Ends every current hold of the lock `path` (deletes its key in one
 * script, which also wakes the waiters that may go next and keeps the token
 * counter, so the next grant's token is higher). *broken is the number of
 * holds ended (0: not held). Returns DLOCK_OK or the codes of
 * dlock_redis_admin_list. */
int dlock_redis_admin_break(const dlock_target *t, const char *path, size_t len,
                            const dlock_interrupt *intr, int *broken, dlock_err *err);

#endif
