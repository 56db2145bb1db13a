/* dlock_backends.h: what the glue calls on a server rather than on a lock
 * object, whatever its backend: a queue's participants, the operator's
 * listing, forced break, change watch and revocation request, and what
 * concerns every backend at once (shutdown, request end, client logs). */
#ifndef DLOCK_BACKENDS_H
#define DLOCK_BACKENDS_H

#include "dlock_backend.h"

/* The operations of backend id in this build, or NULL (left out). */
const dlock_backend_ops *dlock_backend_ops_of(dlock_backend_id id);

/* DLOCK_EUNSUPPORTED with the backend's reason (ops->no_revoke) or a general
 * one: ops (of backend id) cannot deliver revocation. */
int dlock_backend_no_revoke(const dlock_backend_ops *ops, dlock_backend_id id, dlock_err *err);

/* Asks every current holder of kind's lock at path on t to give it up;
 * releases nothing. *count: how many holders were asked (0: free). Returns
 * DLOCK_OK, DLOCK_EINVAL (bad path), DLOCK_EUNSUPPORTED (a backend without
 * push: MySQL), or a connection error. */
int dlock_backend_request_revocation(const dlock_target *t, dlock_kind kind, int max_leases,
                                     const char *path, size_t len, const dlock_interrupt *intr,
                                     int *count, dlock_err *err);

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
