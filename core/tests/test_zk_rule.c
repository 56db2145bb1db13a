/* test_zk_rule.c: checks of the ZooKeeper queue rules (zk/dlock_zk_rule.c):
 * who holds, who watches whom, for every kind. Pure: no server. */
#include <string.h>

#include "test_core.h"
#include "../zk/dlock_zk_rule.h"

/* the GUID part of a Curator queue node name */
#define G "_c_01234567-89ab-4cde-8f01-23456789abcd-"

void test_rules(void)
{
	dlock_entry q[6];
	const char *names[] = {G "__READ__0000000001", G "__WRIT__0000000002", G "__READ__0000000003",
	                       G "__READ__0000000004", G "__WRIT__0000000005", G "lock-0000000006"};
	dlock_verdict v;
	size_t n = 0, i;

	for (i = 0; i < 6; i++) {
		if (dlock_rule_parse(DLOCK_KIND_READ, names[i], &q[n])) {
			n++;
		}
	}
	CHECK(n == 5, "rw family has 5 nodes (%zu)", n);
	dlock_rule_sort(q, n);
	v = dlock_rule_decide(DLOCK_KIND_READ, 1, q, n, 0);
	CHECK(v.holds, "first reader holds");
	v = dlock_rule_decide(DLOCK_KIND_WRITE, 1, q, n, 1);
	CHECK(!v.holds && v.watch == 0 && v.sure, "writer behind a reader watches it");
	v = dlock_rule_decide(DLOCK_KIND_READ, 1, q, n, 3);
	CHECK(!v.holds && v.watch == 1 && v.sure, "reader behind one writer watches that writer");
	v = dlock_rule_decide(DLOCK_KIND_WRITE, 1, q, n, 4);
	CHECK(!v.holds && v.watch == 3 && !v.sure, "last writer watches its predecessor");
	CHECK(dlock_rule_holds(DLOCK_KIND_READ, 1, q, n, 0) &&
	          !dlock_rule_holds(DLOCK_KIND_READ, 1, q, n, 2),
	      "holders: only the first reader");
	n = 0;
	for (i = 0; i < 6; i++) {
		n += (size_t)dlock_rule_parse(DLOCK_KIND_SEMAPHORE, names[i], &q[n]);
	}
	CHECK(n == 0, "semaphore ignores other families");
	for (i = 0; i < 5; i++) {
		q[i].name = "x";
		q[i].seq = (int32_t)i;
		q[i].writer = 1;
	}
	v = dlock_rule_decide(DLOCK_KIND_SEMAPHORE, 3, q, 5, 2);
	CHECK(v.holds, "third of three leases holds");
	v = dlock_rule_decide(DLOCK_KIND_SEMAPHORE, 3, q, 5, 4);
	CHECK(!v.holds && v.watch == 3 && v.nwatch == 1 && !v.sure,
	      "fifth watches the waiter just ahead");
	v = dlock_rule_decide(DLOCK_KIND_SEMAPHORE, 3, q, 5, 3);
	CHECK(!v.holds && v.watch == 0 && v.nwatch == 3 && v.sure,
	      "fourth (the head) watches every holder, sure");
	v = dlock_rule_decide(DLOCK_KIND_MUTEX, 1, q, 5, 1);
	CHECK(!v.holds && v.watch == 0 && v.sure, "mutex second watches first");
}
