/* dlock_stats.h: this process's lock numbers, per backend and kind: acquires
 * by result, holds ended (released, lost), holds now, and wait-time and
 * hold-time histograms with fixed bounds (Prometheus-style), plus the
 * thresholds of the slow-lock log and the hook that writes it. Recorded by
 * dlock_handle.c, read by the glue (dlock_stats(), phpinfo()). Plain
 * counters of one process, no atomics: every lock call runs on the thread of
 * the PHP request (never a client library's thread). A leaf: no other core
 * header is needed to use it. */
#ifndef DLOCK_STATS_H
#define DLOCK_STATS_H

#include <stddef.h>
#include <stdint.h>

/* How an acquire() ended. */
typedef enum dlock_stat_result {
	DLOCK_STAT_OK = 0,  /* held (a first hold or one more nested hold) */
	DLOCK_STAT_TIMEOUT, /* not acquired within the timeout (DLOCK_ETIMEDOUT) */
	DLOCK_STAT_REFUSED, /* refused before or instead of waiting (DLOCK_EDEADLK, EINVAL,
	                       EUNSUPPORTED, EAUTH) */
	DLOCK_STAT_ERROR,   /* anything else: connection, session, server, interrupted */
	DLOCK_STAT_RESULTS  /* how many results there are */
} dlock_stat_result;

/* How a hold ended. */
typedef enum dlock_stat_end {
	DLOCK_STAT_RELEASED = 0, /* released by this process (release(), request end, the
	                            object freed while holding) */
	DLOCK_STAT_LOST,         /* found gone (the session expired, the lease ran out) */
	DLOCK_STAT_FORGOTTEN     /* a fork child forgot its parent's hold: not counted as an
	                            end, only no longer held here */
} dlock_stat_end;

/* The histograms' upper bounds ("le"), microseconds, ascending; one more
 * bucket above the last (+Inf). */
#define DLOCK_STATS_BOUNDS 16
extern const int64_t dlock_stats_bounds_us[DLOCK_STATS_BOUNDS];

typedef struct dlock_histogram {
	uint64_t bucket[DLOCK_STATS_BOUNDS + 1]; /* observations in (bound[i-1], bound[i]]; NOT
	                                            cumulative (dlock_stats_cumulative() is) */
	uint64_t count;                          /* observations */
	uint64_t sum_us;                         /* their sum, microseconds */
} dlock_histogram;

/* The numbers of one backend and kind. */
typedef struct dlock_stats_row {
	uint64_t acquire[DLOCK_STAT_RESULTS]; /* acquire() calls by result */
	uint64_t released;                    /* holds ended by a release */
	uint64_t lost;                        /* holds found gone */
	int64_t held;                         /* holds now (first holds; nested ones count once) */
	dlock_histogram wait;                 /* every acquire() call's duration, whatever its result:
	                                         count == the sum of acquire[] */
	dlock_histogram hold;                 /* first hold to its end (released or lost): count ==
	                                         released + lost */
} dlock_stats_row;

/* Rows are indexed by backend id and kind (dlock_backend_id, dlock_kind). */
#define DLOCK_STATS_BACKENDS 4
#define DLOCK_STATS_KINDS    4

/* Records one acquire() call that ended with `result` after wait_us. */
void dlock_stats_acquire(int backend, int kind, dlock_stat_result result, int64_t wait_us);

/* Records that a first hold was taken (held + 1). */
void dlock_stats_hold_begin(int backend, int kind);

/* Records that a hold taken hold_us ago ended (held - 1; a forgotten hold
 * changes nothing else). */
void dlock_stats_hold_end(int backend, int kind, dlock_stat_end how, int64_t hold_us);

/* The row of backend and kind, or NULL out of range. */
const dlock_stats_row *dlock_stats_get(int backend, int kind);

/* Zeroes every counter and histogram; `held` is kept (holds that exist). */
void dlock_stats_reset(void);

/* h's buckets made cumulative into out (out[i]: observations <= bound[i];
 * out[DLOCK_STATS_BOUNDS]: all, == h->count). */
void dlock_stats_cumulative(const dlock_histogram *h, uint64_t out[DLOCK_STATS_BOUNDS + 1]);

/* One crossing of a slow-lock threshold, handed to the slow hook. */
typedef struct dlock_slow_event {
	int hold;           /* 0: a slow wait (acquire() returned), 1: a slow hold (released) */
	int backend;        /* dlock_backend_id */
	int kind;           /* dlock_kind */
	const char *path;   /* the lock name */
	int64_t us;         /* how long it waited or held, microseconds */
	int status;         /* a wait: acquire()'s dlock_status */
	const char *holder; /* a wait: the data of the holder that made us wait, "" unknown */
} dlock_slow_event;

typedef void (*dlock_slow_fn)(const dlock_slow_event *e);

/* Sets the slow-lock log's thresholds (ms; 0: off) and its hook (NULL: off).
 * The hook runs on the thread that called acquire() or release(). */
void dlock_stats_slow_wait(int64_t ms);
void dlock_stats_slow_hold(int64_t ms);
void dlock_stats_slow_hook(dlock_slow_fn fn);

/* Hands e to the hook when its time crosses the threshold of its kind. */
void dlock_stats_slow_check(const dlock_slow_event *e);

/* Copies holder data src[0..len) into dst (size bytes, NUL-terminated) for
 * one log line: bytes that are not printable ASCII become '?', cut at
 * size - 1. */
void dlock_stats_holder_copy(char *dst, size_t size, const char *src, size_t len);

#endif
