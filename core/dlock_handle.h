/* dlock_handle.h: what the glue calls to use a lock, whatever its backend. */
#ifndef DLOCK_HANDLE_H
#define DLOCK_HANDLE_H

#include "dlock_backend.h"

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
 * raises when a revocation request reaches it (dlock_backend_request_revocation
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

/* Asks every current holder of kind's lock at path on t to give it up;
 * releases nothing. *count: how many holders were asked (0: free). Returns
 * DLOCK_OK, DLOCK_EINVAL (bad path), DLOCK_EUNSUPPORTED (a backend without
 * push: MySQL), or a connection error. */
int dlock_backend_request_revocation(const dlock_target *t, dlock_kind kind, int max_leases,
                                     const char *path, size_t len, const dlock_interrupt *intr,
                                     int *count, dlock_err *err);

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

/* The queue of kind at path on t in order, holders first, into *out (freed
 * with dlock_participants_free). */
int dlock_backend_participants(const dlock_target *t, dlock_kind kind, int max_leases,
                               const char *path, size_t len, const dlock_interrupt *intr,
                               dlock_participant **out, size_t *count, dlock_err *err);

/* The locks on t whose names start with prefix[0..len), for operators, into
 * *out (dlock_lock_entries_free) and *count: name, family, contenders. What a
 * backend can list and how is its own (ZooKeeper: a walk of the tree; Redis:
 * SCAN; SQL: the server's lock views); DLOCK_EUNSUPPORTED where it cannot. */
int dlock_backend_list_locks(const dlock_target *t, const char *prefix, size_t len,
                             const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                             dlock_err *err);

/* Ends the current holds of the lock at path on t whoever has them (deletes
 * the holders' nodes or keys, or ends their sessions): the operator's forced
 * break. *broken is the number of holds ended (0: nothing was held). The old
 * holder is not told: a resource that checks fencing tokens refuses it once
 * the next holder has written; one that does not now has two writers.
 * DLOCK_EUNSUPPORTED where the backend cannot. */
int dlock_backend_force_break(const dlock_target *t, const char *path, size_t len,
                              const dlock_interrupt *intr, int *broken, dlock_err *err);

/* Waits, blocking on the server's own event (no polling), until the queue
 * of the lock at path on t changes or timeout_ms passes: *changed 1
 * changed, 0 timed out, -1 the backend cannot wait for it (not offered, or
 * nothing there to watch yet: the caller looks again later). */
int dlock_backend_wait_change(const dlock_target *t, const char *path, size_t len,
                              int64_t timeout_ms, const dlock_interrupt *intr, int *changed,
                              dlock_err *err);

/* Closes every backend's unused sessions and connections and stops helper
 * threads that nothing needs (request end without persistence); final != 0
 * (module end) stops them whatever they still serve: the code they run is
 * about to be unloaded. */
void dlock_backends_shutdown(int final);

/* Request end with persistent connections (shutdown is not called): each
 * backend stops the helpers only the request's holds needed (a Redis
 * revocation subscriber that no revocable hold uses); its pooled sessions
 * and connections stay. */
void dlock_backends_request_end(void);

/* Sends each backend's client library log that has one (ZooKeeper's) to
 * `path`, or back to its default when path is NULL or empty. Returns DLOCK_OK,
 * or the last failure with err->msg set (the others are still configured). */
int dlock_backends_log_configure(const char *path, dlock_err *err);

#endif
