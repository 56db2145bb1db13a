/* dlock_zk_registry.h: the locks this process holds, so an acquire can tell
 * when it would wait for a hold of its own (self-deadlock guard). Entries
 * borrow their strings from the lock that owns them. NTS only (one thread),
 * but guarded by a mutex all the same. */
#ifndef DLOCK_ZK_REGISTRY_H
#define DLOCK_ZK_REGISTRY_H

#include "dlock_zk_rule.h"

/* One held lock; embedded in the lock, linked while it holds. */
typedef struct dlock_reg {
	dlock_kind kind;         /* the holder's kind */
	const char *path;        /* lock path (borrowed) */
	const char *node;        /* the held node's full path (borrowed) */
	const char *hosts;       /* the ensemble, dlock_zk_hosts_space() (borrowed) */
	long pid;                /* the process that linked it: a fork child holds nothing */
	struct dlock_reg *next;  /* next entry */
	struct dlock_reg **prev; /* where this entry is linked from; NULL while unlinked */
} dlock_reg;

/* Links / unlinks e (each idempotent). The borrowed strings must stay valid
 * while e is linked. */
void dlock_registry_add(dlock_reg *e);
void dlock_registry_remove(dlock_reg *e);

/* Non-zero when an entry other than `self` holds child `name` of `path` on
 * `hosts`. */
int dlock_registry_owns(const dlock_reg *self, const char *path, const char *hosts,
                        const char *name);

/* Non-zero when entries other than `self` hold `path` on `hosts` in a way that
 * excludes a `kind` contender: any hold of another kind on the path (kinds on
 * one path exclude each other), any hold for a mutex or write, a write for a
 * read, max_leases leases for a semaphore. */
int dlock_registry_conflict(const dlock_reg *self, dlock_kind kind, int max_leases,
                            const char *path, const char *hosts);

#endif
