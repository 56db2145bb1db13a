/* dlock_revoke.h: one hold's revocation cell, shared by every backend. A
 * holder that opted in owns a cell per hold; the backend's client thread
 * (ZooKeeper's completion thread, the Redis watchdog's subscriber) raises it
 * when a revocation request reaches that hold; the PHP glue learns of raised
 * cells through a process-wide pending flag and a "kick" it installs (which
 * makes the engine run its interrupt function at the next safe point). A
 * leaf: no other core header is needed to use it. */
#ifndef DLOCK_REVOKE_H
#define DLOCK_REVOKE_H

/* The bytes a revocation request writes into a holder's node (ZooKeeper) or
 * publishes (Redis): Curator's LockInternals.REVOKE_MESSAGE. */
#define DLOCK_REVOKE_MESSAGE     "__REVOKE__"
#define DLOCK_REVOKE_MESSAGE_LEN (sizeof(DLOCK_REVOKE_MESSAGE) - 1)

typedef struct dlock_revoke dlock_revoke;

/* A fresh, unraised cell owned by this process with one reference, or NULL
 * when out of memory. */
dlock_revoke *dlock_revoke_new(void);

/* One more reference (any thread). */
void dlock_revoke_ref(dlock_revoke *r);

/* Drops a reference (any thread); the last frees the cell. NULL is ignored. */
void dlock_revoke_put(dlock_revoke *r);

/* Records that a revocation request reached r's hold. Safe on any thread and
 * async-signal-safe (atomics only, no lock, no allocation): a cell of another
 * process (a fork parent's) is only marked; a cell of this process also sets
 * the pending flag and calls the kick. */
void dlock_revoke_raise(dlock_revoke *r);

/* Non-zero once r was raised (NULL: 0). */
int dlock_revoke_requested(const dlock_revoke *r);

/* Non-zero exactly once per raised cell (the caller delivers it then), on the
 * thread that owns the hold. */
int dlock_revoke_take(dlock_revoke *r);

/* Installs the kick, called on a client thread after a cell of this process
 * is raised; it must be async-signal-safe and must not touch the engine
 * beyond an atomic store (NULL: none). Also installs, once, the fork
 * handler that clears the pending flag in a child. */
void dlock_revoke_set_kick(void (*kick)(void));

/* Non-zero when some cell was raised since the last call (and clears it). */
int dlock_revoke_take_pending(void);

#endif
