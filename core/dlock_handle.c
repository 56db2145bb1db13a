/* dlock_handle.c: the generic lock object: target and name, dispatched to
 * the backend that owns the server. */
#include "dlock_handle.h"

#include "dlock_build.h"

#include <stdlib.h>
#include <string.h>

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

/* The scheme of a backend that may be missing from the table. */
static const char *dlock_backend_scheme(dlock_backend_id id)
{
	static const char *const schemes[DLOCK_BACKENDS] = {"zookeeper", "redis", "postgres", "mysql"};

	return (unsigned)id < DLOCK_BACKENDS ? schemes[id] : "?";
}

int dlock_backend_missing(dlock_backend_id id, dlock_err *err)
{
	return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0,
	                     "this build of dlock has no %s backend (./configure did not find its "
	                     "client library or was given --without-dlock-%s; php --ri dlock lists "
	                     "the backends built)",
	                     dlock_backend_scheme(id),
	                     id == DLOCK_BACKEND_POSTGRES ? "pgsql" : dlock_backend_scheme(id));
}

static const dlock_backend_ops *dlock_handle_ops(dlock_backend_id id)
{
	return (unsigned)id < DLOCK_BACKENDS ? dlock_backend_table[id] : NULL;
}

int dlock_handle_new(const dlock_target *t, dlock_kind kind, int max_leases, const char *path,
                     size_t len, dlock_handle **out, dlock_err *err)
{
	dlock_handle *h = calloc(1, sizeof(*h));
	int rc;

	*out = NULL;
	if (!h || !(h->path = malloc(len + 1))) {
		free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	memcpy(h->path, path, len);
	h->path[len] = '\0';
	h->path_len = len;
	h->kind = kind;
	h->max_leases = max_leases;
	if (!(h->ops = dlock_handle_ops(t->backend))) {
		free(h->path);
		free(h);
		return dlock_backend_missing(t->backend, err);
	}
	if ((rc = dlock_target_copy(&h->target, t, err)) != DLOCK_OK) {
		free(h->path);
		free(h);
		return rc;
	}
	if ((rc = h->ops->lock_new(h, err)) != DLOCK_OK) {
		dlock_target_clear(&h->target);
		free(h->path);
		free(h);
		return rc;
	}
	*out = h;
	return DLOCK_OK;
}

void dlock_handle_free(dlock_handle *h)
{
	if (!h) {
		return;
	}
	h->ops->lock_free(h);
	dlock_target_clear(&h->target);
	free(h->path);
	free(h);
}

/* The acquires in progress on this thread, innermost first: a signal handler
 * that runs inside one's wait may call acquire() again, on another object
 * (fine: it nests) or on the same one, which every backend would mistake for
 * a second attempt of a fresh object (ZooKeeper took the queued node for a
 * fork parent's hold and forgot it). Entries live on the acquiring frames'
 * stacks; per thread, as a handler runs on the thread it interrupted. */
typedef struct handle_busy {
	const dlock_handle *h;    /* the handle whose acquire() is under way */
	struct handle_busy *next; /* the acquire it interrupted, or NULL */
} handle_busy;

static __thread handle_busy *handles_busy;

int dlock_handle_acquiring(const dlock_handle *h)
{
	const handle_busy *b;

	for (b = handles_busy; b; b = b->next) {
		if (b->h == h) {
			return 1;
		}
	}
	return 0;
}

int dlock_handle_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	handle_busy self;
	int rc;

	dlock_err_clear(err);
	if (dlock_handle_acquiring(h)) {
		return dlock_err_set(err, DLOCK_EDEADLK, 0,
		                     "lock %.128s: this object's acquire() is already under way (called "
		                     "again from a signal handler that interrupted it?); use another "
		                     "object, or try again after that acquire() returned",
		                     h->path);
	}
	self.h = h;
	self.next = handles_busy;
	handles_busy = &self;
	rc = h->ops->acquire(h, req, err);
	handles_busy = self.next; /* nested acquires unlink themselves before returning */
	return rc;
}

int dlock_handle_release(dlock_handle *h, int wait, dlock_err *err)
{
	dlock_err_clear(err);
	return h->ops->release(h, wait, 0, err);
}

int dlock_handle_release_all(dlock_handle *h, int wait, dlock_err *err)
{
	dlock_err_clear(err);
	return h->ops->release(h, wait, 1, err);
}

int dlock_handle_held(dlock_handle *h)
{
	return h->ops->held(h);
}

int dlock_handle_verify(dlock_handle *h, dlock_err *err)
{
	dlock_err_clear(err);
	return h->ops->verify(h, err);
}

unsigned dlock_handle_holds(const dlock_handle *h)
{
	return h->ops->holds(h);
}

int64_t dlock_handle_token(const dlock_handle *h)
{
	return h->ops->token(h);
}

int dlock_handle_fencing_token(dlock_handle *h, int64_t *out, dlock_err *err)
{
	int rc = DLOCK_OK;

	dlock_err_clear(err);
	if (h->ops->token_fetch && h->ops->token(h) == 0) {
		rc = h->ops->token_fetch(h, err);
	}
	*out = rc == DLOCK_OK ? h->ops->token(h) : 0;
	return rc;
}

dlock_kind dlock_handle_kind(const dlock_handle *h)
{
	return h->kind;
}

int dlock_handle_max_leases(const dlock_handle *h)
{
	return h->max_leases;
}

const char *dlock_handle_path(const dlock_handle *h)
{
	return h->path;
}

const dlock_target *dlock_handle_target(const dlock_handle *h)
{
	return &h->target;
}

int dlock_handle_self_conflict(const dlock_handle *h)
{
	return h->ops->self_conflict(h);
}

int dlock_backend_participants(const dlock_target *t, dlock_kind kind, int max_leases,
                               const char *path, size_t len, const dlock_interrupt *intr,
                               dlock_participant **out, size_t *count, dlock_err *err)
{
	const dlock_backend_ops *b = dlock_handle_ops(t->backend);

	*out = NULL;
	*count = 0;
	dlock_err_clear(err);
	if (!b) {
		return dlock_backend_missing(t->backend, err);
	}
	return b->participants(t, kind, max_leases, path, len, intr, out, count, err);
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
