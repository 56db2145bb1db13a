/* dlock_backends.c: the table of the backends built (one row each, NULL for
 * one left out) and the operations on a server rather than on a lock object:
 * each checks the backend is there and offers the operation, then dispatches
 * to its row. The generic lock object (dlock_handle.c) finds its backend's
 * row here. */
#include "dlock_backends.h"

#include "dlock_build.h"

/* A backend left out of the build (./configure found no client library, or
 * --without-dlock-<name>) has no row: its DSNs parse, and fail at the lock. */
const dlock_backend_ops *const dlock_backend_table[DLOCK_BACKENDS] = {
#ifdef DLOCK_WITH_ZOOKEEPER
    [DLOCK_BACKEND_ZOOKEEPER] = &dlock_zk_backend,
#endif
#ifdef DLOCK_WITH_REDIS
    [DLOCK_BACKEND_REDIS] = &dlock_redis_backend,
#endif
#ifdef DLOCK_WITH_POSTGRES
    [DLOCK_BACKEND_POSTGRES] = &dlock_pg_backend,
#endif
#ifdef DLOCK_WITH_MYSQL
    [DLOCK_BACKEND_MYSQL] = &dlock_my_backend,
#endif
};

int dlock_backend_missing(dlock_backend_id id, dlock_err *err)
{
	const dlock_backend_name *n = (unsigned)id < DLOCK_BACKENDS ? &dlock_backend_names[id] : NULL;

	return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0,
	                     "this build of dlock has no %s backend (./configure did not find its "
	                     "client library or was given --without-dlock-%s; php --ri dlock lists "
	                     "the backends built)",
	                     n ? n->scheme : "?", n ? n->build : "?");
}

const dlock_backend_ops *dlock_backend_ops_of(dlock_backend_id id)
{
	return (unsigned)id < DLOCK_BACKENDS ? dlock_backend_table[id] : NULL;
}

int dlock_backend_no_revoke(const dlock_backend_ops *ops, dlock_backend_id id, dlock_err *err)
{
	if (ops->no_revoke) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "revocation is %s", ops->no_revoke);
	}
	return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "revocation is not offered on %s",
	                     dlock_backend_names[id].display);
}

int dlock_backend_request_revocation(const dlock_target *t, dlock_kind kind, int max_leases,
                                     const char *path, size_t len, const dlock_interrupt *intr,
                                     int *count, dlock_err *err)
{
	const dlock_backend_ops *ops = dlock_backend_ops_of(t->backend);

	dlock_err_clear(err);
	*count = 0;
	if (!ops) {
		return dlock_backend_missing(t->backend, err);
	}
	if (!ops->revoke_request) {
		return dlock_backend_no_revoke(ops, t->backend, err);
	}
	return ops->revoke_request(t, kind, max_leases, path, len, intr, count, err);
}

int dlock_backend_participants(const dlock_target *t, dlock_kind kind, int max_leases,
                               const char *path, size_t len, const dlock_interrupt *intr,
                               dlock_participant **out, size_t *count, dlock_err *err)
{
	const dlock_backend_ops *b = dlock_backend_ops_of(t->backend);

	*out = NULL;
	*count = 0;
	dlock_err_clear(err);
	if (!b) {
		return dlock_backend_missing(t->backend, err);
	}
	return b->participants(t, kind, max_leases, path, len, intr, out, count, err);
}

int dlock_backend_list_locks(const dlock_target *t, const char *prefix, size_t len,
                             const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                             dlock_err *err)
{
	const dlock_backend_ops *b = dlock_backend_ops_of(t->backend);

	*out = NULL;
	*count = 0;
	dlock_err_clear(err);
	if (!b) {
		return dlock_backend_missing(t->backend, err);
	}
	if (!b->list_locks) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "%s cannot list its locks",
		                     dlock_backend_names[t->backend].display);
	}
	return b->list_locks(t, prefix, len, intr, out, count, err);
}

int dlock_backend_force_break(const dlock_target *t, const char *path, size_t len,
                              const dlock_interrupt *intr, int *broken, dlock_err *err)
{
	const dlock_backend_ops *b = dlock_backend_ops_of(t->backend);

	*broken = 0;
	dlock_err_clear(err);
	if (!b) {
		return dlock_backend_missing(t->backend, err);
	}
	if (!b->force_break) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "locks on %s cannot be broken by force",
		                     dlock_backend_names[t->backend].display);
	}
	return b->force_break(t, path, len, intr, broken, err);
}

int dlock_backend_wait_change(const dlock_target *t, const char *path, size_t len,
                              int64_t timeout_ms, const dlock_interrupt *intr, int *changed,
                              dlock_err *err)
{
	const dlock_backend_ops *b = dlock_backend_ops_of(t->backend);

	*changed = -1;
	dlock_err_clear(err);
	if (!b) {
		return dlock_backend_missing(t->backend, err);
	}
	if (!b->wait_change) {
		return DLOCK_OK;
	}
	return b->wait_change(t, path, len, timeout_ms, intr, changed, err);
}

void dlock_backends_shutdown(int final)
{
	size_t i;

	for (i = 0; i < DLOCK_BACKENDS; i++) {
		if (dlock_backend_table[i]) {
			dlock_backend_table[i]->shutdown(final);
		}
	}
}

void dlock_backends_request_end(void)
{
	size_t i;

	for (i = 0; i < DLOCK_BACKENDS; i++) {
		if (dlock_backend_table[i] && dlock_backend_table[i]->request_end) {
			dlock_backend_table[i]->request_end();
		}
	}
}

int dlock_backends_log_configure(const char *path, dlock_err *err)
{
	size_t i;
	int rc = DLOCK_OK;

	for (i = 0; i < DLOCK_BACKENDS; i++) {
		const dlock_backend_ops *b = dlock_backend_table[i];

		int r;

		if (b && b->log_configure && (r = b->log_configure(path, err)) != DLOCK_OK) {
			rc = r;
		}
	}
	return rc;
}
