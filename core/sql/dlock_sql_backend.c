/* dlock_sql_backend.c: the SQL backends' side of the seam: one operations
 * table per server kind (PostgreSQL, MySQL/MariaDB) over the shared lock
 * object, participants(), and the process-wide connections. */
#include "../dlock_build.h"
#include "../dlock_backend.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_sql_lock.h"
#include "dlock_sql_pool.h"

/* A semaphore's holders are its slots' holders; its waiters queue on the gate. */
static int dlock_sql_sem_participants(const dlock_sql_driver *drv, dlock_sql_conn *c, int leases,
                                      const char *path, size_t len, int64_t deadline,
                                      dlock_participant **out, size_t *count, dlock_err *err)
{
	dlock_participant *all = NULL, *part;
	size_t n = 0, k, j;
	int i, rc = DLOCK_OK;

	for (i = -1; i < leases && rc == DLOCK_OK; i++) {
		size_t nlen;
		char *name = dlock_sql_sem_name(path, len, i < 0 ? "gate" : "slot", i, &nlen);
		dlock_participant *grown;

		if (!name) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			break;
		}
		rc = drv->participants(c, name, nlen, deadline, &part, &k, err);
		free(name);
		if (rc != DLOCK_OK) {
			break;
		}
		if (!(grown = realloc(all, (n + k + 1) * sizeof(*all)))) {
			dlock_participants_free(part, k);
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			break;
		}
		all = grown;
		for (j = 0; j < k; j++) {
			if (i < 0) {
				part[j].holder = 0; /* the gate's holder is the head waiter */
			} else if (!part[j].holder) {
				free(part[j].name);
				free(part[j].data);
				free(part[j].session);
				continue; /* a slot is only ever tried, never waited for */
			}
			part[j].token = 0;
			all[n++] = part[j];
		}
		free(part);
	}
	if (rc != DLOCK_OK) {
		dlock_participants_free(all, n);
		return rc;
	}
	/* holders first, then the gate's queue */
	for (j = 0; j < n; j++) {
		if (!all[j].holder) {
			continue;
		}
		for (k = j; k > 0 && !all[k - 1].holder; k--) {
			dlock_participant t = all[k - 1];

			all[k - 1] = all[k];
			all[k] = t;
		}
	}
	*out = all;
	*count = n;
	return DLOCK_OK;
}

static int dlock_sql_participants(const dlock_target *t, dlock_kind kind, int max_leases,
                                  const char *path, size_t len, const dlock_interrupt *intr,
                                  dlock_participant **out, size_t *count, dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(t);
	int64_t deadline = dlock_now_ms() + t->connect_timeout_ms;
	dlock_sql_entry *e;
	int rc;

	if ((rc = dlock_sql_name_validate(path, len, err)) != DLOCK_OK ||
	    (rc = dlock_sql_target_validate(drv, t, err)) != DLOCK_OK) {
		return rc;
	}
	if (kind == DLOCK_KIND_SEMAPHORE && !drv->wait_event) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "semaphores are not offered on %s",
		                     drv->name);
	}
	if ((rc = dlock_sql_pool_get(drv, t, NULL, 0, intr, &e, err)) != DLOCK_OK) {
		return rc;
	}
	rc = kind == DLOCK_KIND_SEMAPHORE
	         ? dlock_sql_sem_participants(drv, e->conn, max_leases, path, len, deadline, out, count,
	                                      err)
	         : drv->participants(e->conn, path, len, deadline, out, count, err);
	if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(e);
	}
	return rc;
}

static int dlock_sql_list_locks(const dlock_target *t, const char *prefix, size_t len,
                                const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                                dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(t);
	int64_t deadline = dlock_now_ms() + t->connect_timeout_ms;
	dlock_sql_entry *e;
	int rc;

	if (len > DLOCK_SQL_NAME_MAX || memchr(prefix, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must be at most %d bytes without NUL",
		                     DLOCK_SQL_NAME_MAX);
	}
	if ((rc = dlock_sql_target_validate(drv, t, err)) != DLOCK_OK) {
		return rc;
	}
	if (!drv->list) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "%s cannot list its locks by name",
		                     drv->name);
	}
	if ((rc = dlock_sql_pool_get(drv, t, NULL, 0, intr, &e, err)) != DLOCK_OK) {
		return rc;
	}
	rc = drv->list(e->conn, prefix, len, deadline, out, count, err);
	if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(e);
	}
	return rc;
}

static int dlock_sql_force_break(const dlock_target *t, const char *path, size_t len,
                                 const dlock_interrupt *intr, int *broken, dlock_err *err)
{
	const dlock_sql_driver *drv = dlock_sql_driver_of(t);
	int64_t deadline = dlock_now_ms() + t->connect_timeout_ms;
	dlock_sql_entry *e;
	int rc;

	if ((rc = dlock_sql_name_validate(path, len, err)) != DLOCK_OK ||
	    (rc = dlock_sql_target_validate(drv, t, err)) != DLOCK_OK) {
		return rc;
	}
	if (!drv->terminate) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "%s cannot break a lock", drv->name);
	}
	if ((rc = dlock_sql_pool_get(drv, t, NULL, 0, intr, &e, err)) != DLOCK_OK) {
		return rc;
	}
	rc = drv->terminate(e->conn, path, len, DLOCK_SQL_SEM_MAX, deadline, broken, err);
	if (rc == DLOCK_ECONNLOSS) {
		dlock_sql_pool_drop(e);
	}
	return rc;
}

/* The two tables differ only in their name and their own connections. */
#define DLOCK_SQL_OPS(connections_fn, shutdown_fn, library_fn, no_revoke_why)                      \
	{                                                                                              \
		.lock_new = dlock_sql_lock_new, .lock_free = dlock_sql_lock_free,                          \
		.acquire = dlock_sql_lock_acquire, .reenter = dlock_sql_lock_reenter,                      \
		.release = dlock_sql_lock_release, .forget = dlock_sql_lock_forget,                        \
		.holding = dlock_sql_lock_holding, .held = dlock_sql_lock_held,                            \
		.verify = dlock_sql_lock_verify, .token = dlock_sql_lock_token,                            \
		.self_conflict = dlock_sql_lock_self_conflict, .participants = dlock_sql_participants,     \
		.connections = connections_fn, .shutdown = shutdown_fn,                                    \
		.token_fetch = dlock_sql_lock_token_fetch, .list_locks = dlock_sql_list_locks,             \
		.force_break = dlock_sql_force_break, .library = library_fn, .log_configure = NULL,        \
		.no_revoke = no_revoke_why,                                                                \
	}

#ifdef DLOCK_WITH_POSTGRES
static unsigned dlock_pg_connections(void)
{
	return dlock_sql_pool_size(&dlock_pg_driver);
}

static void dlock_pg_shutdown(int final)
{
	dlock_sql_pool_shutdown(&dlock_pg_driver, final);
}

static const char *dlock_pg_library(void)
{
	return dlock_pg_driver.library();
}

const dlock_backend_ops dlock_pg_backend =
    DLOCK_SQL_OPS(dlock_pg_connections, dlock_pg_shutdown, dlock_pg_library,
                  "not offered on PostgreSQL yet: LISTEN/NOTIFY could push it, but that needs a "
                  "listening connection per server read by a thread of its own, which this "
                  "version does not have (and dlock does not poll)");
#endif

#ifdef DLOCK_WITH_MYSQL
static unsigned dlock_my_connections(void)
{
	return dlock_sql_pool_size(&dlock_my_driver);
}

static void dlock_my_shutdown(int final)
{
	dlock_sql_pool_shutdown(&dlock_my_driver, final);
	if (final && dlock_sql_pool_size(&dlock_my_driver) == 0 && dlock_my_driver.library_end) {
		dlock_my_driver.library_end(); /* module shutdown: nothing connects after it */
	}
}

static const char *dlock_my_library(void)
{
	return dlock_my_driver.library();
}

const dlock_backend_ops dlock_my_backend =
    DLOCK_SQL_OPS(dlock_my_connections, dlock_my_shutdown, dlock_my_library,
                  "not offered on MySQL/MariaDB: the server has no push (no LISTEN/NOTIFY, no "
                  "publish/subscribe), so a holder could learn of a request only by polling, "
                  "which dlock does not do");
#endif
