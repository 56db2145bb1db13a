/* dlock_zk_rule.c: queue membership, order and the hold/watch decision. */
#include "dlock_zk_rule.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_zk_path.h"

#define MARK_MUTEX "lock-"
#define MARK_READ  "__READ__"
#define MARK_WRITE "__WRIT__"
#define MARK_LEASE "lease-"

const char *dlock_kind_marker(dlock_kind kind)
{
	switch (kind) {
	case DLOCK_KIND_READ:
		return MARK_READ;
	case DLOCK_KIND_WRITE:
		return MARK_WRITE;
	case DLOCK_KIND_SEMAPHORE:
		return MARK_LEASE;
	default:
		return MARK_MUTEX;
	}
}

int dlock_rule_parse(dlock_kind kind, const char *name, dlock_entry *e)
{
	e->name = name;
	switch (kind) {
	case DLOCK_KIND_READ:
	case DLOCK_KIND_WRITE:
		if (dlock_name_seq(name, MARK_WRITE, &e->seq, &e->key)) {
			e->writer = 1;
			return 1;
		}
		e->writer = 0;
		return dlock_name_seq(name, MARK_READ, &e->seq, &e->key);
	default:
		e->writer = 1;
		return dlock_name_seq(name, dlock_kind_marker(kind), &e->seq, &e->key);
	}
}

int dlock_rule_foreign(dlock_kind kind, const char *name)
{
	static const dlock_kind families[] = {DLOCK_KIND_MUTEX, DLOCK_KIND_READ, DLOCK_KIND_SEMAPHORE};
	int rw = kind == DLOCK_KIND_READ || kind == DLOCK_KIND_WRITE;
	dlock_entry e;
	size_t i;

	for (i = 0; i < sizeof(families) / sizeof(*families); i++) {
		dlock_kind f = families[i];

		if (f == kind || (rw && f == DLOCK_KIND_READ)) {
			continue; /* its own family */
		}
		if (dlock_rule_parse(f, name, &e)) {
			return 1;
		}
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const dlock_entry *x = a, *y = b;
	int c = dlock_seq_cmp(x->key, y->key);

	return c ? c : strcmp(x->name, y->name);
}

void dlock_rule_sort(dlock_entry *entries, size_t n)
{
	qsort(entries, n, sizeof(*entries), entry_cmp);
}

dlock_verdict dlock_rule_decide(dlock_kind kind, int max_leases, const dlock_entry *q, size_t n,
                                size_t mine)
{
	dlock_verdict v = {0, 0, 1, 0};
	size_t i, writers = 0, last = 0;

	(void)n;
	if (kind == DLOCK_KIND_READ) {
		for (i = 0; i < mine; i++) {
			if (q[i].writer) {
				writers++;
				last = i;
			}
		}
		if (writers == 0) {
			v.holds = 1;
		} else {
			v.watch = last;
			v.sure = writers == 1;
		}
		return v;
	}
	if (kind != DLOCK_KIND_SEMAPHORE || max_leases < 1) {
		max_leases = 1;
	}
	if (mine < (size_t)max_leases) {
		v.holds = 1;
	} else if (kind != DLOCK_KIND_SEMAPHORE) {
		v.watch = mine - 1;
		v.sure = mine == 1; /* one fewer ahead is enough */
	} else if (mine == (size_t)max_leases) {
		v.watch = 0; /* the head: any lease freed is ours */
		v.nwatch = (size_t)max_leases;
		v.sure = 1;
	} else {
		v.watch = mine - 1; /* it becomes the head when this one holds or goes */
	}
	return v;
}

int dlock_rule_holds(dlock_kind kind, int max_leases, const dlock_entry *q, size_t n, size_t i)
{
	if (kind == DLOCK_KIND_READ || kind == DLOCK_KIND_WRITE) {
		return dlock_rule_decide(q[i].writer ? DLOCK_KIND_WRITE : DLOCK_KIND_READ, 1, q, n, i)
		    .holds;
	}
	return dlock_rule_decide(kind, max_leases, q, n, i).holds;
}
