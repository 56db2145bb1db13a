/* dlock_zk_lock_int.h: the contender's state, shared by the two halves of the
 * lock: dlock_lock.c (getting a hold) and dlock_hold.c (having one: release,
 * checks, lifetime). Not part of the core's public face. */
#ifndef DLOCK_ZK_LOCK_INT_H
#define DLOCK_ZK_LOCK_INT_H

#include "dlock_zk_lock.h"
#include "dlock_zk_path.h"
#include "../dlock_held.h"

struct dlock_lock {
	dlock_kind kind; /* what the node is (marker) and how it decides */
	int max_leases;  /* semaphores: holders allowed at once */
	char *path;      /* the lock path (owned) */
	char *node;      /* our node's full path while queued or held (owned) */
	char **watch;    /* the nodes to watch while waiting (owned), nwatch of them */
	size_t nwatch;   /* entries of watch */
	int touch;       /* a semaphore waiter may watch our node: touch it when
	                    granted (see dlock_lock.c) */
	char *hosts;     /* the ensemble (dlock_zk_hosts_space()) while it has a node (owned) */
	char guid[DLOCK_GUID_LEN + 1]; /* this attempt's GUID, in the node name */
	dlock_session *sess;           /* reference while node != NULL */
	int64_t token;                 /* czxid of node */
	int64_t confirmed_at;          /* when the request whose reply last showed the hold
	                                  (or queue place) good was SENT, ms */
	int held;                 /* our node holds (nested holds are the handle's); only with a node */
	int lost;                 /* a check found the held node gone or another session's: the
	                             hold is over, though not yet forgotten (release() says so) */
	dlock_held reg;           /* entry in the registry of held locks while it holds */
	struct dlock_lock *outer; /* while acquiring: the acquire this one interrupted (a
	                             signal handler), see dlock_lock.c */
};

/* Deadline for server calls made on behalf of an acquire with `deadline`
 * (< 0: none): the acquire's own plus DLOCK_CALL_GRACE_MS. */
static inline int64_t dlock_zk_call_deadline(int64_t deadline)
{
	return deadline < 0 ? -1 : deadline + DLOCK_CALL_GRACE_MS;
}

/* Puts l's node into the queue on session s (a fresh GUID, created with its
 * parents, the list of the queue sent with it) and adopts it: l->node,
 * l->token, a reference to s, l->hosts (o's ensemble as the guards compare
 * it). *first gets the listing that came with the create (the caller frees
 * it). Returns DLOCK_OK or what dlock_create_node() returns. */
int dlock_zk_enqueue(dlock_lock *l, dlock_session *s, const dlock_acquire_opts *o, int64_t deadline,
                     struct String_vector *first, dlock_err *err);

/* Frees the list of nodes to watch. */
void dlock_hold_unwatch(dlock_lock *l);

/* Forgets the node and the session reference without touching the server. */
void dlock_hold_forget(dlock_lock *l);

/* Removes a queued node after a failed or abandoned attempt (waiting for the
 * delete at most DLOCK_CALL_GRACE_MS, then leaving it to the retry thread)
 * and forgets it. */
void dlock_hold_withdraw(dlock_lock *l);

/* Asks the server whether l's node exists and belongs to its session, giving
 * up at deadline (<0: never). Codes as dlock_lock_verify. */
int dlock_hold_check(dlock_lock *l, int64_t deadline, dlock_err *err);

/* Non-zero when l's hold must be asked about before it is trusted: not
 * confirmed for a third of the session timeout (the client pings that often,
 * so a live session confirms itself; a paused process cannot know). */
int dlock_hold_stale(const dlock_lock *l);

/* Deadline for a call that is not part of a timed wait: connect_timeout. */
int64_t dlock_hold_own_deadline(dlock_session *s);

#endif
