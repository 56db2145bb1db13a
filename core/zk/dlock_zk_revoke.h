/* dlock_zk_revoke.h: revocation on ZooKeeper, Curator's way: a revocable
 * holder watches its own node's data; a request sets that data to
 * "__REVOKE__" (what Curator's Revoker.attemptRevoke() writes and a
 * revocable InterProcessMutex listens for). */
#ifndef DLOCK_ZK_REVOKE_H
#define DLOCK_ZK_REVOKE_H

#include <stdint.h>

#include "../dlock_err.h"
#include "../dlock_kind.h"
#include "../dlock_revoke.h"
#include "../dlock_wait.h"
#include "dlock_zk_session.h"

/* Sets a data watch on `node` (the holder's own node, on session s) whose
 * events raise `cell` when the node's data reads "__REVOKE__"; the watch
 * takes its own reference to cell and re-arms itself after every other data
 * change. Sent asynchronously (nothing waited for): the request is ordered
 * after everything this session sent before, and a revocation written before
 * it is read by it. Ends, dropping its reference, when the node is deleted
 * or the request fails (a connection loss at the moment it is sent loses the
 * watch: that hold then learns of revocation no more). */
void dlock_zk_revoke_arm(dlock_session *s, const char *node, dlock_revoke *cell);

/* Asks every holder of kind's queue at `path` to give it up: sets the data of
 * each holding node (by the kind's rule; max_leases for semaphores) to
 * "__REVOKE__". *count gets how many nodes were set (a node gone meanwhile is
 * not counted). Everything within timeout_ms (the caller's connect_timeout);
 * intr is called between wait slices. Returns DLOCK_OK or, with err set,
 * the codes of dlock_queue_list(). */
int dlock_zk_revoke_request(dlock_session *s, dlock_kind kind, int max_leases, const char *path,
                            int64_t timeout_ms, const dlock_interrupt *intr, int *count,
                            dlock_err *err);

#endif
