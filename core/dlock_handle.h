/* dlock_handle.h: what the glue calls to use a lock, whatever its backend. */
#ifndef DLOCK_HANDLE_H
#define DLOCK_HANDLE_H

#include "dlock_backend.h"
#include "dlock_backends.h"

/* Makes an unheld lock of `kind` named path[0..len) on target t (copied) in
 * *out, owned by the caller (dlock_handle_free). max_leases matters for
 * semaphores only. Validates the name the backend's way; nothing touches the
 * server. Returns DLOCK_OK, DLOCK_EINVAL (msg says why), DLOCK_EUNSUPPORTED
 * (the backend does not offer kind) or DLOCK_ENOMEM. */
int dlock_handle_new(const dlock_target *t, dlock_kind kind, int max_leases, const char *path,
                     size_t len, dlock_handle **out, dlock_err *err);

/* Frees h; a hold it still has is released first (errors ignored). */
void dlock_handle_free(dlock_handle *h);

/* Whether a second acquire() of a held h counts one more hold (on, the
 * default) or is refused (DLOCK_EDEADLK: it would wait for itself). */
void dlock_handle_set_reentrant(dlock_handle *h, int on);

/* Makes h's holds revocable: each hold gets a revocation cell the backend
 * raises when a revocation request reaches it (dlock_backend_request_revocation,
 * or another client's equivalent). Returns DLOCK_OK, or DLOCK_EUNSUPPORTED
 * when h's backend cannot deliver one without polling (MySQL). */
int dlock_handle_set_revocable(dlock_handle *h, dlock_err *err);
int dlock_handle_revocable(const dlock_handle *h);

/* Non-zero when this process's current hold of h was asked to be revoked
 * (false without a hold: the mark is per hold, gone at release). */
int dlock_handle_revocation_requested(const dlock_handle *h);

/* Non-zero exactly once per revoked hold of this process: the caller (the
 * glue's safe-point dispatcher) runs the listener then. */
int dlock_handle_revocation_take(dlock_handle *h);

/* Makes read and write the two parts of one read-write lock (same target,
 * path): the write part refuses an upgrade, the read part is granted beside
 * this process's write hold (a downgrade). Unpaired when either is freed. */
void dlock_handle_pair(dlock_handle *read, dlock_handle *write);

/* Acquires (see dlock_lock_acquire for the codes; every backend keeps them).
 * The acquire policy is decided here, before the backend sees the request:
 * refused with DLOCK_EDEADLK are an acquire of h while h's own acquire() is
 * under way (a signal handler run inside its wait), a second acquire of a
 * held h that is not reentrant, an upgrade (the write part while this
 * process's read part holds), and, with req->no_self_wait, a first acquire
 * that would wait for another hold of this process (dlock_held.h). A read
 * part's acquire while its write part holds is a downgrade, granted beside
 * the write hold where the backend can do so safely. A held h's acquire
 * checks the hold and counts one more; a fork parent's hold is forgotten
 * first. req->grant_from is set here. */
int dlock_handle_acquire(dlock_handle *h, dlock_acquire_req *req, dlock_err *err);

/* Non-zero while h's acquire() is under way on this thread (h's calls from a
 * signal handler run inside that acquire see it). */
int dlock_handle_acquiring(const dlock_handle *h);

/* Drops one hold (all: every hold) and, with the last, the server-side hold;
 * wait != 0 waits for the server's reply. See dlock_lock_release. */
int dlock_handle_release(dlock_handle *h, int wait, dlock_err *err);
int dlock_handle_release_all(dlock_handle *h, int wait, dlock_err *err);

/* Non-zero only while h certainly holds (a local answer, or a round trip
 * when the hold has not been confirmed recently). */
int dlock_handle_held(dlock_handle *h);

/* Asks the server. DLOCK_OK (held), DLOCK_ENOTHELD, DLOCK_EFORKED,
 * DLOCK_ELOST or DLOCK_ECONNLOSS (cannot tell now). */
int dlock_handle_verify(dlock_handle *h, dlock_err *err);

unsigned dlock_handle_holds(const dlock_handle *h);
int64_t dlock_handle_token(const dlock_handle *h);

/* The fencing token of h's hold in *out, fetched from the server first when
 * the backend gives tokens on demand and this hold has none yet. Returns
 * DLOCK_OK, DLOCK_ENOTHELD, DLOCK_EFORKED, DLOCK_ELOST (the hold is gone)
 * or a connection error. */
int dlock_handle_fencing_token(dlock_handle *h, int64_t *out, dlock_err *err);
dlock_kind dlock_handle_kind(const dlock_handle *h);
int dlock_handle_max_leases(const dlock_handle *h);
const char *dlock_handle_path(const dlock_handle *h);
const dlock_target *dlock_handle_target(const dlock_handle *h);

#endif
