/* dlock_zk_admin.h: the operator's view of ZooKeeper locks (the dlock
 * command): every lock under a prefix, and the forced break of a lock (its
 * holders' nodes deleted). Read-only except for dlock_zk_admin_break. */
#ifndef DLOCK_ZK_ADMIN_H
#define DLOCK_ZK_ADMIN_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_err.h"
#include "../dlock_participant.h"
#include "dlock_zk_session.h"

/* Most znodes one listing visits before it gives up (DLOCK_EINVAL: the
 * caller narrows the prefix). */
#define DLOCK_ZK_ADMIN_MAX_NODES 20000

/* Walks the tree from the parent of `prefix` ("/" for all; /zookeeper is
 * skipped) and returns in *out (dlock_lock_entries_free) every znode whose
 * path starts with prefix as a string ("/a/pf" finds "/a/pfx/job", as on the
 * other backends) and that has queue nodes of a dlock or Curator lock family
 * as children (the prefix itself included), in tree order (parents before children, siblings
 * sorted), with its family and the number of its queue nodes. The walk takes at most timeout_ms in
 * all; intr is called between wait slices. Returns DLOCK_OK, DLOCK_EINVAL (more than
 * DLOCK_ZK_ADMIN_MAX_NODES nodes), DLOCK_ECONNLOSS (no answer in time), DLOCK_EINTR, DLOCK_EAUTH,
 * DLOCK_ESESSION or DLOCK_ENOMEM, with err set. A missing prefix is an empty listing. */
int dlock_zk_admin_list(dlock_session *s, const char *prefix, int64_t timeout_ms,
                        const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                        dlock_err *err);

/* Deletes the nodes that hold the lock at `path` now (a mutex's or
 * writer's head, or every reader at the head of a read-write queue), whoever
 * owns them: the holder's session no longer holds, and the next in the queue
 * is granted with a higher fencing token (a new node's zxid). *broken is the
 * number of nodes this call deleted (0: nothing held). Semaphores are
 * refused (DLOCK_EUNSUPPORTED: which leases hold depends on a count the
 * server does not store). Returns DLOCK_OK or, with err set, DLOCK_ECONNLOSS,
 * DLOCK_EINTR, DLOCK_EAUTH, DLOCK_ESESSION, DLOCK_EZK or DLOCK_ENOMEM. */
int dlock_zk_admin_break(dlock_session *s, const char *path, int64_t timeout_ms,
                         const dlock_interrupt *intr, int *broken, dlock_err *err);

/* Waits until the queue at `path` changes (a child node added or removed,
 * or the node deleted) or timeout_ms passes, blocking on a ZooKeeper child
 * watch (no polling); connect_timeout_ms bounds arming the watch. *changed:
 * 1 changed, 0 timed out, -1 nothing to watch (no node at path: the caller
 * looks again later). Returns DLOCK_OK or, with err set, DLOCK_ECONNLOSS,
 * DLOCK_ESESSION, DLOCK_EINTR, DLOCK_EAUTH, DLOCK_EZK or DLOCK_ENOMEM. */
int dlock_zk_admin_wait(dlock_session *s, const char *path, int64_t timeout_ms,
                        int64_t connect_timeout_ms, const dlock_interrupt *intr, int *changed,
                        dlock_err *err);

#endif
