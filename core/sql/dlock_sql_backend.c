/* dlock_sql_backend.c: the SQL backends' side of the seam: one operations
 * table per server kind (PostgreSQL, MySQL/MariaDB) over the shared lock
 * object, participants(), and the process-wide connections. */
#include "../dlock_backend.h"

#include "dlock_sql_lock.h"
#include "dlock_sql_pool.h"

static int dlock_sql_participants(const dlock_target *t, dlock_kind kind, int max_leases,
                                  const char *path, size_t len, const dlock_interrupt *intr,
                                  dlock_participant **out, size_t *count, dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(t);
	dlock_sql_entry *e;
	int rc;

	(void)kind;
	(void)max_leases;
	if ((rc = dlock_sql_name_validate(path, len, err)) != DLOCK_OK ||
	    (rc = dlock_sql_pool_get(drv, t, NULL, 0, intr, &e, err)) != DLOCK_OK) {
		return rc;
	}
	rc = drv->participants(e->conn, path, len, dlock_now_ms() + t->connect_timeout_ms, out, count,
	                       err);
	if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(e);
	}
	return rc;
}

static unsigned dlock_pg_connections(void)
{
	return dlock_sql_pool_size(&dlock_pg_driver);
}

static unsigned dlock_my_connections(void)
{
	return dlock_sql_pool_size(&dlock_my_driver);
}

static void dlock_pg_shutdown(int final)
{
	dlock_sql_pool_shutdown(&dlock_pg_driver, final);
}

static void dlock_my_shutdown(int final)
{
	dlock_sql_pool_shutdown(&dlock_my_driver, final);
}

const dlock_backend_ops dlock_pg_backend = {
    "postgres",
    dlock_sql_lock_new,
    dlock_sql_lock_free,
    dlock_sql_lock_acquire,
    dlock_sql_lock_release,
    dlock_sql_lock_held,
    dlock_sql_lock_verify,
    dlock_sql_lock_holds,
    dlock_sql_lock_token,
    dlock_sql_lock_self_conflict,
    dlock_sql_participants,
    dlock_pg_connections,
    dlock_pg_shutdown,
};

const dlock_backend_ops dlock_my_backend = {
    "mysql",
    dlock_sql_lock_new,
    dlock_sql_lock_free,
    dlock_sql_lock_acquire,
    dlock_sql_lock_release,
    dlock_sql_lock_held,
    dlock_sql_lock_verify,
    dlock_sql_lock_holds,
    dlock_sql_lock_token,
    dlock_sql_lock_self_conflict,
    dlock_sql_participants,
    dlock_my_connections,
    dlock_my_shutdown,
};
