/* dlock_zk_queue.h: read-only view of a lock's queue (who holds, who waits), for
 * operators and tests. */
#ifndef DLOCK_ZK_QUEUE_H
#define DLOCK_ZK_QUEUE_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_err.h"
#include "../dlock_participant.h"
#include "dlock_zk_rule.h"
#include "dlock_zk_session.h"

/* Lists the nodes of kind's family under `path` in queue order (holders
 * marked by the kind's rule; max_leases for semaphores) into a new array *out of
 * *count entries, freed with dlock_queue_free. A missing path is an empty
 * queue. Nodes that vanish while being read are skipped. The whole listing
 * (with a reconnect it needs) takes at most timeout_ms (the caller's
 * connect_timeout); intr is called between wait slices. Returns DLOCK_OK or,
 * with err set, the failing call's code: DLOCK_ECONNLOSS when the server did
 * not answer in time, DLOCK_EINTR when intr asked to stop, DLOCK_ESESSION,
 * DLOCK_ENOMEM, ... */
int dlock_queue_list(dlock_session *s, dlock_kind kind, int max_leases, const char *path,
                     int64_t timeout_ms, const dlock_interrupt *intr, dlock_participant **out,
                     size_t *count, dlock_err *err);

/* Same as dlock_participants_free. */
void dlock_queue_free(dlock_participant *p, size_t count);

#endif
