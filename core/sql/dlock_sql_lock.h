/* dlock_sql_lock.h: a lock object on a SQL server: an exclusive (or, where
 * the driver offers them, read-write or semaphore) lock held by one server session of this
 * process (dlock_sql_pool.h) through a driver (dlock_sql_driver.h). The hold
 * lives exactly as long as that session: nested holds of one object are
 * counted here, and isAcquired() asks the session itself every time (the
 * server may end a session at any moment and say so late). Fencing tokens
 * are handed out on demand: the first getFencingToken() of a hold bumps the
 * name's row in one statement that checks the hold, so an acquire costs the
 * lock alone and tokens still follow the order of the holds. */
#ifndef DLOCK_SQL_LOCK_H
#define DLOCK_SQL_LOCK_H

#include "../dlock_backend.h"
#include "dlock_sql_driver.h"
#include "dlock_sql_sem.h"

/* The driver of a SQL target (NULL for another backend). */
const dlock_sql_driver *dlock_sql_driver_of(const dlock_target *t);

/* The operations of dlock_backend_ops; contracts as in dlock_handle.h. */
int dlock_sql_lock_new(dlock_handle *h, dlock_err *err);
void dlock_sql_lock_free(dlock_handle *h);
int dlock_sql_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
int dlock_sql_lock_reenter(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
int dlock_sql_lock_release(dlock_handle *h, int wait, dlock_err *err);
void dlock_sql_lock_forget(dlock_handle *h);
int dlock_sql_lock_holding(const dlock_handle *h);
int dlock_sql_lock_held(dlock_handle *h);
int dlock_sql_lock_verify(dlock_handle *h, dlock_err *err);
int64_t dlock_sql_lock_token(const dlock_handle *h);
int dlock_sql_lock_token_fetch(dlock_handle *h, dlock_err *err);
int dlock_sql_lock_self_conflict(const dlock_handle *h);

/* Checks a SQL lock name: 1 to DLOCK_SQL_NAME_MAX bytes, no NUL. */
int dlock_sql_name_validate(const char *name, size_t len, dlock_err *err);

/* Checks that t gives drv what it needs (a database where drv->needs_dbname):
 * DLOCK_OK or DLOCK_EINVAL saying what is missing. */
int dlock_sql_target_validate(const dlock_sql_driver *drv, const dlock_target *t, dlock_err *err);

#endif
