/* dlock_stats.c: this process's lock numbers (counters and histograms per
 * backend and kind) and the slow-lock log's thresholds and hook. */
#include "dlock_stats.h"

#include <string.h>

/* 1 ms to 5 min: a free lock is taken in about one round trip (0.2-2 ms on
 * a LAN), a contended one waits for a holder's work (seconds), a hold lasts
 * as long as that work. */
const int64_t dlock_stats_bounds_us[DLOCK_STATS_BOUNDS] = {
    1000,   2500,    5000,    10000,   25000,    50000,    100000,   250000,
    500000, 1000000, 2500000, 5000000, 10000000, 30000000, 60000000, 300000000};

static dlock_stats_row stats[DLOCK_STATS_BACKENDS][DLOCK_STATS_KINDS];
static int64_t slow_wait_us, slow_hold_us; /* 0: off */
static dlock_slow_fn slow_fn;

static dlock_stats_row *stats_row(int backend, int kind)
{
	if ((unsigned)backend >= DLOCK_STATS_BACKENDS || (unsigned)kind >= DLOCK_STATS_KINDS) {
		return NULL;
	}
	return &stats[backend][kind];
}

static void stats_observe(dlock_histogram *h, int64_t us)
{
	size_t i = 0;

	if (us < 0) {
		us = 0;
	}
	while (i < DLOCK_STATS_BOUNDS && us > dlock_stats_bounds_us[i]) {
		i++;
	}
	h->bucket[i]++;
	h->count++;
	h->sum_us += (uint64_t)us;
}

void dlock_stats_acquire(int backend, int kind, dlock_stat_result result, int64_t wait_us)
{
	dlock_stats_row *r = stats_row(backend, kind);

	if (r && (unsigned)result < DLOCK_STAT_RESULTS) {
		r->acquire[result]++;
		stats_observe(&r->wait, wait_us);
	}
}

void dlock_stats_hold_begin(int backend, int kind)
{
	dlock_stats_row *r = stats_row(backend, kind);

	if (r) {
		r->held++;
	}
}

void dlock_stats_hold_end(int backend, int kind, dlock_stat_end how, int64_t hold_us)
{
	dlock_stats_row *r = stats_row(backend, kind);

	if (!r) {
		return;
	}
	r->held--;
	if (how == DLOCK_STAT_FORGOTTEN) {
		return;
	}
	if (how == DLOCK_STAT_LOST) {
		r->lost++;
	} else {
		r->released++;
	}
	stats_observe(&r->hold, hold_us);
}

const dlock_stats_row *dlock_stats_get(int backend, int kind)
{
	return stats_row(backend, kind);
}

void dlock_stats_reset(void)
{
	size_t b, k;

	for (b = 0; b < DLOCK_STATS_BACKENDS; b++) {
		for (k = 0; k < DLOCK_STATS_KINDS; k++) {
			int64_t held = stats[b][k].held;

			memset(&stats[b][k], 0, sizeof(stats[b][k]));
			stats[b][k].held = held;
		}
	}
}

void dlock_stats_cumulative(const dlock_histogram *h, uint64_t out[DLOCK_STATS_BOUNDS + 1])
{
	uint64_t sum = 0;
	size_t i;

	for (i = 0; i <= DLOCK_STATS_BOUNDS; i++) {
		sum += h->bucket[i];
		out[i] = sum;
	}
}

void dlock_stats_slow_wait(int64_t ms)
{
	slow_wait_us = ms > 0 ? ms * 1000 : 0;
}

void dlock_stats_slow_hold(int64_t ms)
{
	slow_hold_us = ms > 0 ? ms * 1000 : 0;
}

void dlock_stats_slow_hook(dlock_slow_fn fn)
{
	slow_fn = fn;
}

void dlock_stats_slow_check(const dlock_slow_event *e)
{
	int64_t limit = e->hold ? slow_hold_us : slow_wait_us;

	if (slow_fn && limit > 0 && e->us >= limit) {
		slow_fn(e);
	}
}

void dlock_stats_holder_copy(char *dst, size_t size, const char *src, size_t len)
{
	size_t i;

	if (size == 0) {
		return;
	}
	for (i = 0; i < len && i < size - 1; i++) {
		unsigned char c = (unsigned char)src[i];

		dst[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	dst[i] = '\0';
}
