/* dlock_held.h: the locks this process holds, whatever their backend: one
 * registry that every backend links a hold into when it is granted and
 * unlinks it from when the hold ends. It answers the two questions a lock
 * asks about this process's own holds: would this acquire wait for a hold of
 * our own (the self-wait guard, dlock_held_conflict), and which of our other
 * holds are on this lock (ZooKeeper: is a queued node ours; SQL: which
 * sessions already hold the name). Entries borrow their strings from the
 * lock that owns them. Used from the PHP thread; guarded by a mutex all the
 * same (the core's own tests run contenders on several threads). */
#ifndef DLOCK_HELD_H
#define DLOCK_HELD_H

#include "dlock_kind.h"

/* How a backend's lock kinds on one name relate. */
typedef enum dlock_held_mix {
	/* ZooKeeper, Redis: one name is one queue of one family (mutex, read and
	 * write, or semaphore); a hold of another family makes any acquire of
	 * the name refused, so it counts as a conflict */
	DLOCK_HELD_MIX_REFUSED = 0,
	/* SQL: a mutex and the read-write pair are one server lock (a mutex
	 * excludes readers); a semaphore's slots are other server locks */
	DLOCK_HELD_MIX_SEMAPHORE_APART
} dlock_held_mix;

/* One held lock; embedded in the backend's lock object, linked while it
 * holds. */
typedef struct dlock_held {
	const void *family;       /* the backend's marker: its own entries share it */
	void *owner;              /* the backend's lock object, for its own walks */
	dlock_kind kind;          /* the holder's kind */
	const char *path;         /* lock name (borrowed) */
	const char *space;        /* the name's lock space, e.g. dlock_target_lock_space()
	                             or dlock_zk_hosts_space() (borrowed) */
	const char *node;         /* ZooKeeper: the held node's full path (borrowed); else NULL */
	long pid;                 /* the process that linked it: a fork child holds nothing */
	struct dlock_held *next;  /* next entry */
	struct dlock_held **prev; /* where this entry is linked from; NULL while unlinked */
} dlock_held;

/* Fills e (family, owner, kind, path, space and node as in dlock_held) and
 * links it, recording the calling process; idempotent. The borrowed strings
 * must stay valid while e is linked. */
void dlock_held_add(dlock_held *e, const void *family, void *owner, dlock_kind kind,
                    const char *path, const char *space, const char *node);

/* Unlinks e (idempotent). */
void dlock_held_remove(dlock_held *e);

/* The entry after `prev` (NULL: the first) that this process linked, other
 * than `self`, of `family`, holding `path` in `space`; NULL when there is
 * none. For a backend's walk over its own holds of one lock; the registry
 * must not change during the walk. */
const dlock_held *dlock_held_next(const dlock_held *prev, const dlock_held *self,
                                  const void *family, const char *path, const char *space);

/* Non-zero when an entry other than `self` holds the node `name` (a child of
 * `path`) in `space`. */
int dlock_held_owns(const dlock_held *self, const char *path, const char *space, const char *name);

/* Non-zero when entries of this process other than `self` hold `path` in
 * `space` in a way that excludes a `kind` contender, so that waiting would
 * wait for ourselves: a hold for a mutex or write, a write for a read,
 * max_leases leases for a semaphore, and under `mix` a hold of another
 * family that excludes this one (see dlock_held_mix). */
int dlock_held_conflict(const dlock_held *self, dlock_kind kind, int max_leases, const char *path,
                        const char *space, dlock_held_mix mix);

#endif
