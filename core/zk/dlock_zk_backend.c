/* dlock_zk_backend.c: the ZooKeeper backend's side of the seam: adapts the
 * queue recipe (dlock_lock, dlock_pool, dlock_queue) to dlock_backend_ops. */
#include "../dlock_backend.h"

#include "dlock_zk_admin.h"
#include "dlock_zk_create.h"
#include "dlock_zk_lock.h"
#include "dlock_zk_log.h"
#include "dlock_zk_path.h"
#include "dlock_zk_pool.h"
#include "dlock_zk_queue.h"
#include "dlock_zk_revoke.h"

static void zkb_cfg(const dlock_target *t, dlock_session_cfg *cfg)
{
	cfg->hosts = t->hosts;
	cfg->session_timeout_ms = t->session_timeout_ms;
	cfg->connect_timeout_ms = t->connect_timeout_ms;
	cfg->auth = t->auth;
}

static int zkb_new(dlock_handle *h, dlock_err *err)
{
	return dlock_lock_new(h->kind, h->max_leases, h->path, h->path_len, (dlock_lock **)&h->impl,
	                      err);
}

static void zkb_free(dlock_handle *h)
{
	dlock_lock_free(h->impl);
	h->impl = NULL;
}

/* The recipe's options for req on h. */
static void zkb_opts(dlock_handle *h, const dlock_acquire_req *req, dlock_session_cfg *cfg,
                     dlock_acquire_opts *o)
{
	zkb_cfg(&h->target, cfg);
	o->cfg = cfg;
	o->data = req->data;
	o->data_len = req->data_len;
	o->timeout_ms = req->timeout_ms;
	o->intr = req->intr;
	o->grant_node = req->grant_from ? dlock_lock_node(req->grant_from->impl) : NULL;
	o->no_self_wait = req->no_self_wait;
	o->revoke = req->revoke;
	o->holder = req->holder;
	o->holder_size = req->holder_size;
}

static int zkb_acquire(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	dlock_session_cfg cfg;
	dlock_acquire_opts o;

	zkb_opts(h, req, &cfg, &o);
	return dlock_lock_acquire(h->impl, &o, err);
}

static int zkb_reenter(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err)
{
	dlock_session_cfg cfg;
	dlock_acquire_opts o;

	zkb_opts(h, req, &cfg, &o);
	return dlock_lock_reenter(h->impl, &o, err);
}

static int zkb_release(dlock_handle *h, int wait, dlock_err *err)
{
	return dlock_lock_release(h->impl, wait, err);
}

static void zkb_forget(dlock_handle *h)
{
	dlock_lock_forget(h->impl);
}

static int zkb_holding(const dlock_handle *h)
{
	return dlock_lock_holding(h->impl);
}

static int zkb_held(dlock_handle *h)
{
	return dlock_lock_held(h->impl);
}

static int zkb_verify(dlock_handle *h, dlock_err *err)
{
	return dlock_lock_verify(h->impl, err);
}

static int64_t zkb_token(const dlock_handle *h)
{
	return dlock_lock_token(h->impl);
}

static int zkb_self_conflict(const dlock_handle *h)
{
	return dlock_lock_self_conflict(h->impl, h->target.hosts);
}

/* A pooled session on t's ensemble for an operation on the lock at
 * path[0..len) (validated first), in *s (dlock_session_unref after). */
static int zkb_session_for(const dlock_target *t, const char *path, size_t len,
                           const dlock_interrupt *intr, dlock_session **s, dlock_err *err)
{
	dlock_session_cfg cfg;
	int rc;

	*s = NULL;
	if ((rc = dlock_path_validate(path, len, err)) != DLOCK_OK) {
		return rc;
	}
	zkb_cfg(t, &cfg);
	return dlock_pool_get(&cfg, intr, s, err);
}

static int zkb_participants(const dlock_target *t, dlock_kind kind, int max_leases,
                            const char *path, size_t len, const dlock_interrupt *intr,
                            dlock_participant **out, size_t *count, dlock_err *err)
{
	dlock_session *s = NULL;
	int rc;

	if ((rc = zkb_session_for(t, path, len, intr, &s, err)) != DLOCK_OK) {
		return rc;
	}
	rc = dlock_queue_list(s, kind, max_leases, path, t->connect_timeout_ms, intr, out, count, err);
	dlock_session_unref(s);
	return rc;
}

static int zkb_revoke_request(const dlock_target *t, dlock_kind kind, int max_leases,
                              const char *path, size_t len, const dlock_interrupt *intr, int *count,
                              dlock_err *err)
{
	dlock_session *s = NULL;
	int rc;

	*count = 0;
	if ((rc = zkb_session_for(t, path, len, intr, &s, err)) != DLOCK_OK) {
		return rc;
	}
	rc =
	    dlock_zk_revoke_request(s, kind, max_leases, path, t->connect_timeout_ms, intr, count, err);
	if (rc == DLOCK_OK && kind == DLOCK_KIND_MUTEX) {
		/* a read-write lock's holders on the same path too (another family
		 * of nodes: __READ__ and __WRIT__) */
		int more = 0;

		rc = dlock_zk_revoke_request(s, DLOCK_KIND_READ, 1, path, t->connect_timeout_ms, intr,
		                             &more, err);
		*count += more;
	}
	dlock_session_unref(s);
	return rc;
}

/* A listing prefix: "/" (or "": every lock) or a valid lock path. */
static int zkb_list_locks(const dlock_target *t, const char *prefix, size_t len,
                          const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                          dlock_err *err)
{
	dlock_session_cfg cfg;
	dlock_session *s = NULL;
	int rc;

	if (len == 0) {
		prefix = "/";
		len = 1;
	}
	if (!(len == 1 && prefix[0] == '/') &&
	    (rc = dlock_path_validate(prefix, len, err)) != DLOCK_OK) {
		return rc;
	}
	zkb_cfg(t, &cfg);
	if ((rc = dlock_pool_get(&cfg, intr, &s, err)) != DLOCK_OK) {
		return rc;
	}
	rc = dlock_zk_admin_list(s, prefix, t->connect_timeout_ms, intr, out, count, err);
	dlock_session_unref(s);
	return rc;
}

static int zkb_force_break(const dlock_target *t, const char *path, size_t len,
                           const dlock_interrupt *intr, int *broken, dlock_err *err)
{
	dlock_session *s = NULL;
	int rc;

	if ((rc = zkb_session_for(t, path, len, intr, &s, err)) != DLOCK_OK) {
		return rc;
	}
	rc = dlock_zk_admin_break(s, path, t->connect_timeout_ms, intr, broken, err);
	dlock_session_unref(s);
	return rc;
}

static int zkb_wait_change(const dlock_target *t, const char *path, size_t len, int64_t timeout_ms,
                           const dlock_interrupt *intr, int *changed, dlock_err *err)
{
	dlock_session *s = NULL;
	int rc;

	*changed = -1;
	if ((rc = zkb_session_for(t, path, len, intr, &s, err)) != DLOCK_OK) {
		return rc;
	}
	rc = dlock_zk_admin_wait(s, path, timeout_ms, t->connect_timeout_ms, intr, changed, err);
	dlock_session_unref(s);
	return rc;
}

static const char *zkb_library(void)
{
	return "ZooKeeper C client " ZOO_VERSION;
}

static void zkb_shutdown(int final)
{
	/* sessions still referenced by a lock stay open until it is freed */
	dlock_pool_shutdown();
	if (final) {
		dlock_create_forget_all();
	}
}

const dlock_backend_ops dlock_zk_backend = {
    .lock_new = zkb_new,
    .lock_free = zkb_free,
    .acquire = zkb_acquire,
    .reenter = zkb_reenter,
    .release = zkb_release,
    .forget = zkb_forget,
    .holding = zkb_holding,
    .held = zkb_held,
    .verify = zkb_verify,
    .token = zkb_token,
    .self_conflict = zkb_self_conflict,
    .participants = zkb_participants,
    .connections = dlock_pool_size,
    .shutdown = zkb_shutdown,
    .token_fetch = NULL, /* the token is the node's zxid, known from the acquire */
    .list_locks = zkb_list_locks,
    .force_break = zkb_force_break,
    .wait_change = zkb_wait_change,
    .library = zkb_library,
    .log_configure = dlock_zklog_configure,
    .revoke_request = zkb_revoke_request,
};
