/* test_stats.c: checks of the lock numbers and the slow-lock thresholds
 * (dlock_stats.c): bucket edges, cumulative buckets, reset, the slow hook's
 * threshold, holder data made one printable line; and of the wait clock's
 * time left (dlock_wait.c), which the timed waits and so the wait times
 * counted here depend on. Pure: no server. */
#include <string.h>

#include "test_core.h"
#include "../dlock_stats.h"
#include "../dlock_wait.h"

static int slow_calls;
static int64_t slow_us;

static void on_slow(const dlock_slow_event *e)
{
	slow_calls++;
	slow_us = e->us;
}

void test_stats(void)
{
	uint64_t cum[DLOCK_STATS_BOUNDS + 1];
	const dlock_stats_row *r;
	dlock_slow_event e;
	char buf[8];
	size_t i;

	for (i = 1; i < DLOCK_STATS_BOUNDS; i++) {
		CHECK(dlock_stats_bounds_us[i] > dlock_stats_bounds_us[i - 1], "bounds not ascending");
	}
	dlock_stats_reset();
	dlock_stats_acquire(1, 2, DLOCK_STAT_OK, 1000);         /* le 0.001: on the bound */
	dlock_stats_acquire(1, 2, DLOCK_STAT_TIMEOUT, 1001);    /* le 0.0025 */
	dlock_stats_acquire(1, 2, DLOCK_STAT_ERROR, 400000000); /* +Inf */
	dlock_stats_acquire(1, 2, DLOCK_STAT_REFUSED, -5);      /* a clock step: counted as 0 */
	r = dlock_stats_get(1, 2);
	CHECK(r->acquire[DLOCK_STAT_OK] == 1 && r->acquire[DLOCK_STAT_TIMEOUT] == 1 &&
	          r->acquire[DLOCK_STAT_REFUSED] == 1 && r->acquire[DLOCK_STAT_ERROR] == 1,
	      "acquire counters");
	CHECK(r->wait.bucket[0] == 2 && r->wait.bucket[1] == 1 &&
	          r->wait.bucket[DLOCK_STATS_BOUNDS] == 1,
	      "bucket edges: %llu %llu %llu", (unsigned long long)r->wait.bucket[0],
	      (unsigned long long)r->wait.bucket[1],
	      (unsigned long long)r->wait.bucket[DLOCK_STATS_BOUNDS]);
	CHECK(r->wait.count == 4 && r->wait.sum_us == 1000 + 1001 + 400000000, "count and sum");
	dlock_stats_cumulative(&r->wait, cum);
	CHECK(cum[0] == 2 && cum[1] == 3 && cum[DLOCK_STATS_BOUNDS - 1] == 3 &&
	          cum[DLOCK_STATS_BOUNDS] == r->wait.count,
	      "cumulative buckets");
	CHECK(dlock_stats_get(0, 2)->wait.count == 0 && dlock_stats_get(1, 0)->wait.count == 0,
	      "another backend or kind moved");
	CHECK(dlock_stats_get(4, 0) == NULL && dlock_stats_get(0, 4) == NULL, "out of range row");

	dlock_stats_hold_begin(1, 2);
	dlock_stats_hold_begin(1, 2);
	dlock_stats_hold_end(1, 2, DLOCK_STAT_RELEASED, 20000);
	dlock_stats_hold_begin(1, 2);
	dlock_stats_hold_end(1, 2, DLOCK_STAT_LOST, 30000);
	dlock_stats_hold_end(1, 2, DLOCK_STAT_FORGOTTEN, 0);
	CHECK(r->held == 0 && r->released == 1 && r->lost == 1 && r->hold.count == 2 &&
	          r->hold.sum_us == 50000,
	      "holds: held %lld released %llu lost %llu", (long long)r->held,
	      (unsigned long long)r->released, (unsigned long long)r->lost);
	dlock_stats_hold_begin(1, 2);
	dlock_stats_reset();
	CHECK(r->held == 1 && r->wait.count == 0 && r->hold.count == 0 &&
	          r->acquire[DLOCK_STAT_OK] == 0,
	      "reset keeps held only");
	dlock_stats_hold_end(1, 2, DLOCK_STAT_FORGOTTEN, 0);

	memset(&e, 0, sizeof(e));
	e.path = "/x";
	e.holder = "";
	dlock_stats_slow_hook(on_slow);
	dlock_stats_slow_wait(0);
	e.us = 999999999;
	dlock_stats_slow_check(&e);
	CHECK(slow_calls == 0, "threshold 0 is off");
	dlock_stats_slow_wait(100);
	e.us = 99999;
	dlock_stats_slow_check(&e);
	CHECK(slow_calls == 0, "below the threshold logged");
	e.us = 100000;
	dlock_stats_slow_check(&e);
	CHECK(slow_calls == 1 && slow_us == 100000, "at the threshold not logged");
	e.hold = 1;
	dlock_stats_slow_check(&e);
	CHECK(slow_calls == 1, "the hold threshold is its own (off)");
	dlock_stats_slow_hold(50);
	dlock_stats_slow_check(&e);
	CHECK(slow_calls == 2, "hold threshold");
	dlock_stats_slow_hook(NULL);
	dlock_stats_slow_check(&e);
	CHECK(slow_calls == 2, "no hook, no call");
	dlock_stats_slow_wait(0);
	dlock_stats_slow_hold(0);

	dlock_stats_holder_copy(buf, sizeof(buf), "a\nb\x01\xc3z", 6);
	CHECK(strcmp(buf, "a?b??z") == 0, "holder not sanitized: %s", buf);
	dlock_stats_holder_copy(buf, sizeof(buf), "0123456789", 10);
	CHECK(strcmp(buf, "0123456") == 0, "holder not cut: %s", buf);
}

void test_wait_left(void)
{
	int64_t d = dlock_now_us() + 2500, before, left, after;
	int i, bad = 0;

	/* never short of the deadline, and at most 1 ms over it */
	for (i = 0; i < 100; i++) {
		before = d - dlock_now_us();
		left = dlock_left_ms(d);
		after = d - dlock_now_us();
		if (after > 0 && (left * 1000 < after || left * 1000 >= before + 1000)) {
			bad++;
		}
	}
	CHECK(bad == 0, "dlock_left_ms: %d readings short of the deadline or over by 1 ms", bad);
	CHECK(dlock_left_ms(dlock_now_us() - 1) == 0 && dlock_left_ms(-1) == 0,
	      "a passed deadline leaves 0 ms");
}
