/* dlock_zk_rule.h: the pure part of every queue recipe: which child nodes belong
 * to a lock family, their queue order, and whether a contender holds or whom
 * it must watch. No I/O; unit-tested in core/tests. */
#ifndef DLOCK_ZK_RULE_H
#define DLOCK_ZK_RULE_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_kind.h"

/* A child node of the lock path, as seen in one listing. */
typedef struct dlock_entry {
	const char *name; /* child name (borrowed from the listing) */
	int32_t seq;      /* parsed sequence number */
	const char *key;  /* its text in name: the sort key (see dlock_seq_cmp) */
	int writer;       /* excludes everyone (mutex, write, semaphore lease counts) */
} dlock_entry;

/* The marker of a kind's own nodes. */
const char *dlock_kind_marker(dlock_kind kind);

/* Parses `name` as a node of kind's family (read and write share a family).
 * Returns 1 and fills *e, or 0 when the child is not one of the family. */
int dlock_rule_parse(dlock_kind kind, const char *name, dlock_entry *e);

/* Non-zero when `name` is a queue node of another family than kind's (a
 * mutex's node under a semaphore's path, say). Kinds on one path exclude each
 * other by refusing: a contender that sees such a node does not hold. */
int dlock_rule_foreign(dlock_kind kind, const char *name);

/* Sorts entries into queue order: Curator's order (see dlock_seq_cmp), ties
 * (only possible after the counter wrapped) by full name. */
void dlock_rule_sort(dlock_entry *entries, size_t n);

/* The verdict for the entry at index `mine` of a sorted queue. */
typedef struct dlock_verdict {
	int holds;     /* 1: mine holds the lock now */
	size_t watch;  /* when !holds: index of the first entry to watch */
	size_t nwatch; /* when !holds: how many entries to watch, from `watch` on */
	int sure;      /* when !holds: the deletion of any watched entry alone makes mine
	                  hold (no other entry can come ahead: sequence numbers only grow) */
} dlock_verdict;

/* Decides for `mine`: mutex and write hold at the head of the queue and watch
 * the entry just ahead; read holds when no writer is ahead and watches the
 * last writer ahead; semaphore holds among the first max_leases; the first
 * waiter behind them (the head) watches every holder, any later waiter the
 * waiter just ahead of it (see dlock_lock.c for why that is enough). */
dlock_verdict dlock_rule_decide(dlock_kind kind, int max_leases, const dlock_entry *q, size_t n,
                                size_t mine);

/* Non-zero when the entry at `i` of a sorted queue currently holds (for
 * participants()): same rule as dlock_rule_decide, seen from that entry. */
int dlock_rule_holds(dlock_kind kind, int max_leases, const dlock_entry *q, size_t n, size_t i);

#endif
