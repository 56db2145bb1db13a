/* dlock_zk_lock.h: one contender of a queue lock (mutex, read, write or
 * semaphore lease), Curator-compatible: an EPHEMERAL_SEQUENTIAL node per
 * contender, the queue ordered by sequence, every waiter watching the nodes
 * chosen by dlock_rule (one, or every lease for a semaphore's first waiter),
 * blocking on its session's condition. */
#ifndef DLOCK_ZK_LOCK_H
#define DLOCK_ZK_LOCK_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_err.h"
#include "../dlock_revoke.h"
#include "dlock_zk_rule.h"
#include "dlock_zk_session.h"

typedef struct dlock_lock dlock_lock;

/* What one acquire needs besides the lock itself. */
typedef struct dlock_acquire_opts {
	const dlock_session_cfg *cfg; /* the session to use (from the pool) */
	const char *data;             /* stored in the node */
	size_t data_len;              /* bytes of data */
	int64_t timeout_ms;           /* < 0: wait for ever; 0: one try; > 0: at most that long */
	const dlock_interrupt *intr;  /* called between wait slices; may be NULL */
	const char *grant_node;       /* a downgrade: the full path of the write node this process
	                                 holds on the same path; the read holds at once, provided
	                                 no other writer is queued between the two (else
	                                 DLOCK_EDEADLK); NULL otherwise */
	int no_self_wait;             /* refuse (DLOCK_EDEADLK) a wait that depends on a node this
	                                 process holds through another lock object */
	dlock_revoke *revoke;         /* a revocable hold's cell: once held, our node's data is
	                                 watched for a revocation request; NULL otherwise */
	char *holder;                 /* NULL, or where a wait writes the data of the node it
	                                 watched (the holder or waiter ahead), holder_size bytes */
	size_t holder_size;           /* bytes of holder */
} dlock_acquire_opts;

/* Validates `path` and makes an unheld contender of `kind` for it in *out,
 * owned by the caller (dlock_lock_free). max_leases matters for semaphores
 * only (>= 1). Nothing touches the server. */
int dlock_lock_new(dlock_kind kind, int max_leases, const char *path, size_t len, dlock_lock **out,
                   dlock_err *err);

/* Frees l. A node it still has is deleted first (errors ignored; a failed
 * delete goes to the session's retry thread); a fork parent's is left alone. */
void dlock_lock_free(dlock_lock *l);

/* Acquires l. Already held (by this process): the hold is checked as
 * dlock_lock_reenter does and stays one hold (nested holds are counted by
 * the caller, dlock_handle.c). Otherwise queues a node (parents as containers) and waits for its
 * turn. A connection loss is ridden out (the create is recovered by its GUID, never duplicated); a
 * session that dies while waiting is replaced and the node re-queued while time remains. Every
 * server call obeys the timeout plus DLOCK_CALL_GRACE_MS. Returns DLOCK_OK (held), DLOCK_ETIMEDOUT
 * (not held, node removed), DLOCK_EINTR (stopped by intr; node removed), or an error with no new
 * hold: DLOCK_ECONNECT, DLOCK_ECONNLOSS (still disconnected at the deadline, or holding on a
 * session whose fate is unknown), DLOCK_ESESSION, DLOCK_ELOST, DLOCK_EDEADLK, DLOCK_EAUTH,
 * DLOCK_EZK, DLOCK_ENOMEM. */
int dlock_lock_acquire(dlock_lock *l, const dlock_acquire_opts *o, dlock_err *err);

/* How far past a timed acquire's timeout its server calls may run (a round
 * trip that was already under way), ms; a call still unanswered then is given
 * up and its effects cleaned up in the background. */
#define DLOCK_CALL_GRACE_MS 500

/* Checks a hold this process has before the caller counts one more (a
 * nested acquire), as dlock_lock_held does (a hold not confirmed for a third
 * of the session timeout is asked about; a connection that is down is waited
 * for until the timeout in o): DLOCK_OK when it stands; a hold found lost is
 * forgotten and reported as DLOCK_ELOST, never replaced by a fresh one under
 * the caller's outer hold; DLOCK_ECONNLOSS when the server could not say. */
int dlock_lock_reenter(dlock_lock *l, const dlock_acquire_opts *o, dlock_err *err);

/* Drops the hold: deletes the node (nested holds are the caller's: this is
 * the last one). With wait == 0 it sends the
 * delete without waiting for the reply (later requests of the session are
 * ordered after it; other sessions may see the node for one more round trip),
 * with wait != 0 it waits for the reply. Either way the delete is guaranteed:
 * one that meets a connection loss is retried after reconnects while the
 * session lives. Returns DLOCK_OK, DLOCK_ENOTHELD, DLOCK_EFORKED (a fork
 * parent's hold: forgotten, untouched), DLOCK_ELOST (the session died or the
 * node was gone: local state cleared), or DLOCK_ECONNLOSS (disconnected past
 * connect_timeout: released locally, the delete left to the retry thread). */
int dlock_lock_release(dlock_lock *l, int wait, dlock_err *err);

/* Forgets l's node and session reference without a word to the server (a
 * fork child: they are the parent's). */
void dlock_lock_forget(dlock_lock *l);

/* Non-zero while l holds on a session known alive and owned by this process.
 * When the hold was last confirmed longer ago than a third of the session
 * timeout (a paused process cannot know), this asks the server first. */
int dlock_lock_held(dlock_lock *l);

/* Asks the server whether l's node still exists and belongs to l's live
 * session. Returns DLOCK_OK (certainly held), DLOCK_ENOTHELD, DLOCK_EFORKED,
 * DLOCK_ELOST (gone or session dead), or DLOCK_ECONNLOSS (cannot tell now). */
int dlock_lock_verify(dlock_lock *l, dlock_err *err);

/* Non-zero while l has a node that held (certain or not), fencing token (czxid of the node; 0 when
 * not held), kind, path, and the node's full path while it has one (else NULL). */
int dlock_lock_holding(const dlock_lock *l);
int64_t dlock_lock_token(const dlock_lock *l);
dlock_kind dlock_lock_kind(const dlock_lock *l);
int dlock_lock_max_leases(const dlock_lock *l);
const char *dlock_lock_path(const dlock_lock *l);
const char *dlock_lock_node(const dlock_lock *l);

/* Non-zero when another lock of this process holds l's path on the ensemble
 * of connect string `hosts` (in any spelling dlock_zk_hosts_space() folds) in
 * a way that excludes its kind: a blocking acquire would wait for itself. */
int dlock_lock_self_conflict(const dlock_lock *l, const char *hosts);

#endif
