/* dlock_handle.c: the generic lock object, once for every backend: target
 * and name; nested holds (a nested acquire() re-checks the hold through the
 * backend, a nested release() only counts down); the fork rule (a child
 * forgets its parent's holds before anything else, never uses or releases
 * them); the refusal of a second acquire() of one object from a signal
 * handler; the lock numbers (dlock_stats.h: every acquire() timed, every
 * hold from its first acquire to its end) and the slow-lock log's
 * thresholds checked. What touches the server is dispatched to the backend's
 * row of the backend table (dlock_backends.c). */
#include "dlock_handle.h"

#include "dlock_stats.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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
	h->reentrant = 1;
	if (!(h->ops = dlock_backend_ops_of(t->backend))) {
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

/* The lock numbers: h's hold ended (how); a released one that lasted past
 * the slow-hold threshold goes to the slow-lock log. Nothing when h's hold
 * was not counted. */
static void handle_hold_end(dlock_handle *h, dlock_stat_end how)
{
	dlock_slow_event e;

	if (!h->held_since_us) {
		return;
	}
	memset(&e, 0, sizeof(e));
	e.us = dlock_now_us() - h->held_since_us;
	h->held_since_us = 0;
	dlock_stats_hold_end((int)h->target.backend, (int)h->kind, how, e.us);
	if (how == DLOCK_STAT_RELEASED) {
		e.hold = 1;
		e.backend = (int)h->target.backend;
		e.kind = (int)h->kind;
		e.path = h->path;
		e.holder = "";
		dlock_stats_slow_check(&e);
	}
}

/* Forgets h's hold without a word to the server. */
static void handle_forget(dlock_handle *h)
{
	if (h->ops->holding(h)) {
		h->ops->forget(h);
	}
	h->holds = 0;
	handle_hold_end(h, DLOCK_STAT_FORGOTTEN);
}

/* The fork rule: a hold another process took (this is its fork child) is
 * forgotten before h is used: the hold, its session or connection and its
 * renewals are the parent's. Non-zero when it was. */
static int handle_forked(dlock_handle *h)
{
	if (h->holds > 0 && h->pid != (long)getpid()) {
		handle_forget(h);
		return 1;
	}
	return 0;
}

/* After a backend call: a hold the backend no longer has is no hold. */
static void handle_sync(dlock_handle *h)
{
	if (h->holds > 0 && !h->ops->holding(h)) {
		h->holds = 0;
		handle_hold_end(h, DLOCK_STAT_LOST);
	}
}

void dlock_handle_free(dlock_handle *h)
{
	if (!h) {
		return;
	}
	handle_forked(h);
	if (h->sibling) {
		h->sibling->sibling = NULL;
	}
	h->ops->lock_free(h); /* releases a hold h still has */
	dlock_revoke_put(h->revoke);
	handle_hold_end(h, DLOCK_STAT_RELEASED);
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

void dlock_handle_set_reentrant(dlock_handle *h, int on)
{
	h->reentrant = on != 0;
}

int dlock_handle_set_revocable(dlock_handle *h, dlock_err *err)
{
	if (!h->ops->revoke_request) {
		return dlock_backend_no_revoke(h->ops, h->target.backend, err);
	}
	h->revocable = 1;
	return DLOCK_OK;
}

int dlock_handle_revocable(const dlock_handle *h)
{
	return h->revocable;
}

/* The cell of h's hold when this process has one, else NULL. */
static dlock_revoke *handle_cell(const dlock_handle *h)
{
	return h->holds > 0 && h->pid == (long)getpid() ? h->revoke : NULL;
}

int dlock_handle_revocation_requested(const dlock_handle *h)
{
	return dlock_revoke_requested(handle_cell(h));
}

int dlock_handle_revocation_take(dlock_handle *h)
{
	return dlock_revoke_take(handle_cell(h));
}

void dlock_handle_pair(dlock_handle *read, dlock_handle *write)
{
	read->sibling = write;
	write->sibling = read;
}

/* The acquire policy (see dlock_handle_acquire): DLOCK_OK to go on, with
 * req->grant_from set for a downgrade, or the refusal. */
static int handle_policy(dlock_handle *h, dlock_acquire_req *req, dlock_err *err)
{
	dlock_handle *sib = h->sibling;

	req->grant_from = NULL;
	if (dlock_handle_holds(h) > 0) {
		/* held or only uncertain (a blip): never a second hold; a lost one
		 * is cleared by release(), which says so */
		return h->reentrant ? DLOCK_OK
		                    : dlock_err_set(err, DLOCK_EDEADLK, 0,
		                                    "already held by this object, which is not reentrant");
	}
	if (h->kind == DLOCK_KIND_WRITE && sib && dlock_handle_holds(sib) > 0) {
		return dlock_err_set(err, DLOCK_EDEADLK, 0,
		                     "cannot upgrade a read lock to a write lock (it would wait for "
		                     "itself); release the read lock first");
	}
	if (h->kind == DLOCK_KIND_READ && sib && dlock_handle_held(sib)) {
		req->grant_from = sib; /* a downgrade: the read is granted beside our write */
		return DLOCK_OK;
	}
	if (req->no_self_wait && h->ops->self_conflict(h)) {
		return dlock_err_set(err, DLOCK_EDEADLK, 0,
		                     "this process already holds it through another object; waiting "
		                     "without a timeout would wait for itself");
	}
	return DLOCK_OK;
}

/* An acquire() status as the lock numbers count it. */
static dlock_stat_result handle_result(int rc)
{
	switch (rc) {
	case DLOCK_OK:
		return DLOCK_STAT_OK;
	case DLOCK_ETIMEDOUT:
		return DLOCK_STAT_TIMEOUT;
	case DLOCK_EDEADLK:
	case DLOCK_EINVAL:
	case DLOCK_EUNSUPPORTED:
	case DLOCK_EAUTH:
		return DLOCK_STAT_REFUSED;
	default:
		return DLOCK_STAT_ERROR;
	}
}

/* The lock numbers of one acquire() that began at t0 and ended with rc; a
 * wait past the slow-wait threshold goes to the slow-lock log with the
 * holder the backend named in req->holder. */
static void handle_acquired(dlock_handle *h, dlock_acquire_req *req, int rc, int64_t t0)
{
	dlock_slow_event e;

	memset(&e, 0, sizeof(e));
	e.us = dlock_now_us() - t0;
	dlock_stats_acquire((int)h->target.backend, (int)h->kind, handle_result(rc), e.us);
	e.backend = (int)h->target.backend;
	e.kind = (int)h->kind;
	e.path = h->path;
	e.status = rc;
	e.holder = req->holder ? req->holder : "";
	dlock_stats_slow_check(&e);
	req->holder = NULL; /* it was on dlock_handle_acquire's stack */
	req->holder_size = 0;
}

/* Runs the acquire (see dlock_handle_acquire) once the caller timed it. */
static int handle_acquire(dlock_handle *h, dlock_acquire_req *req, dlock_err *err)
{
	handle_busy self;
	int rc;

	if (dlock_handle_acquiring(h)) {
		return dlock_err_set(err, DLOCK_EDEADLK, 0,
		                     "lock %.128s: this object's acquire() is already under way (called "
		                     "again from a signal handler that interrupted it?); use another "
		                     "object, or try again after that acquire() returned",
		                     h->path);
	}
	handle_forked(h);
	if ((rc = handle_policy(h, req, err)) != DLOCK_OK) {
		return rc;
	}
	self.h = h;
	self.next = handles_busy;
	handles_busy = &self;
	if (h->holds > 0) {
		rc = h->ops->reenter(h, req, err);
		if (rc == DLOCK_OK) {
			h->holds++;
		}
	} else {
		/* a fresh hold, a fresh cell: isRevocationRequested() is per hold */
		dlock_revoke_put(h->revoke);
		h->revoke = NULL;
		req->revoke = NULL;
		if (h->revocable && !(req->revoke = dlock_revoke_new())) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		} else {
			rc = h->ops->acquire(h, req, err);
		}
		if (rc == DLOCK_OK) {
			h->holds = 1;
			h->pid = (long)getpid();
			h->revoke = req->revoke;
			h->held_since_us = dlock_now_us() | 1; /* never 0: 0 is "not counted" */
			dlock_stats_hold_begin((int)h->target.backend, (int)h->kind);
		} else {
			dlock_revoke_put(req->revoke);
		}
		req->revoke = NULL;
	}
	handles_busy = self.next; /* nested acquires unlink themselves before returning */
	handle_sync(h);
	return rc;
}

int dlock_handle_acquire(dlock_handle *h, dlock_acquire_req *req, dlock_err *err)
{
	int64_t t0 = dlock_now_us();
	char holder[128];
	int rc;

	dlock_err_clear(err);
	holder[0] = '\0';
	req->holder = holder;
	req->holder_size = sizeof(holder);
	rc = handle_acquire(h, req, err);
	handle_acquired(h, req, rc, t0);
	return rc;
}

/* Drops one hold (all: every hold of h); the last one is the server's. */
static int handle_release(dlock_handle *h, int wait, int all, dlock_err *err)
{
	int rc;

	dlock_err_clear(err);
	if (handle_forked(h)) {
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process (before fork()); the "
		                     "child forgot it and leaves it to the parent",
		                     h->path);
	}
	if (h->holds == 0) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held by this object",
		                     h->path);
	}
	if (h->holds > 1 && !all) {
		h->holds--; /* an outer hold remains: counted here only, the server is not touched */
		return DLOCK_OK;
	}
	rc = h->ops->release(h, wait, err);
	if (!h->ops->holding(h)) {
		h->holds = 0;
		dlock_revoke_put(h->revoke); /* a request for the released hold is no more */
		h->revoke = NULL;
		handle_hold_end(h, rc == DLOCK_ELOST ? DLOCK_STAT_LOST : DLOCK_STAT_RELEASED);
	}
	return rc;
}

int dlock_handle_release(dlock_handle *h, int wait, dlock_err *err)
{
	return handle_release(h, wait, 0, err);
}

int dlock_handle_release_all(dlock_handle *h, int wait, dlock_err *err)
{
	return handle_release(h, wait, 1, err);
}

int dlock_handle_held(dlock_handle *h)
{
	int held;

	if (h->holds == 0 || h->pid != (long)getpid()) {
		return 0; /* a fork parent's hold is not this process's */
	}
	held = h->ops->held(h);
	handle_sync(h);
	return held;
}

int dlock_handle_verify(dlock_handle *h, dlock_err *err)
{
	int rc;

	dlock_err_clear(err);
	if (h->holds == 0) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held by this object",
		                     h->path);
	}
	if (h->pid != (long)getpid()) {
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process (before fork()), not "
		                     "this one",
		                     h->path);
	}
	rc = h->ops->verify(h, err);
	handle_sync(h);
	return rc;
}

unsigned dlock_handle_holds(const dlock_handle *h)
{
	return h->holds > 0 && h->ops->holding(h) ? h->holds : 0;
}

int64_t dlock_handle_token(const dlock_handle *h)
{
	return h->holds > 0 ? h->ops->token(h) : 0;
}

int dlock_handle_fencing_token(dlock_handle *h, int64_t *out, dlock_err *err)
{
	int rc = DLOCK_OK;

	dlock_err_clear(err);
	if (h->holds > 0 && h->pid != (long)getpid()) {
		*out = 0;
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process (before fork()), not "
		                     "this one",
		                     h->path);
	}
	if (h->ops->token_fetch && h->holds > 0 && h->ops->token(h) == 0) {
		rc = h->ops->token_fetch(h, err);
		handle_sync(h);
	}
	*out = rc == DLOCK_OK && h->holds > 0 ? h->ops->token(h) : 0;
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
