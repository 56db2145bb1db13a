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

/* A semaphore's head waiter asks for a free lease again at least this often
 * (ms) when no release has notified it: a holder whose session ended (a
 * killed process) sends no notification. */
#define DLOCK_SQL_SEM_RECHECK_MS 1000

/* Most leases of a semaphore on a SQL server (each is a lock of its own). */
#define DLOCK_SQL_SEM_MAX 1000

/* The driver of a SQL target (NULL for another backend). */
const dlock_sql_driver *dlock_sql_driver_of(const dlock_target *t);

/* The operations of dlock_backend_ops; contracts as in dlock_handle.h. */
int dlock_sql_lock_new(dlock_handle *h, dlock_err *err);
void dlock_sql_lock_free(dlock_handle *h);
int dlock_sql_lock_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
int dlock_sql_lock_release(dlock_handle *h, int wait, int all, dlock_err *err);
int dlock_sql_lock_held(dlock_handle *h);
int dlock_sql_lock_verify(dlock_handle *h, dlock_err *err);
unsigned dlock_sql_lock_holds(const dlock_handle *h);
int64_t dlock_sql_lock_token(const dlock_handle *h);
int dlock_sql_lock_token_fetch(dlock_handle *h, dlock_err *err);
int dlock_sql_lock_self_conflict(const dlock_handle *h);

/* The server-side name of a semaphore's part `what` ("gate", "wake", or
 * "slot" with i >= 0) for the semaphore named path[0..path_len):
 * path NUL what[i] (a NUL no lock name has), malloc()ed with its length in
 * *len; NULL when out of memory. */
char *dlock_sql_sem_name(const char *path, size_t path_len, const char *what, int i, size_t *len);

/* Checks a SQL lock name: 1 to DLOCK_SQL_NAME_MAX bytes, no NUL. */
int dlock_sql_name_validate(const char *name, size_t len, dlock_err *err);

/* Checks that t gives drv what it needs (a database where drv->needs_dbname):
 * DLOCK_OK or DLOCK_EINVAL saying what is missing. */
int dlock_sql_target_validate(const dlock_sql_driver *drv, const dlock_target *t, dlock_err *err);

#endif
