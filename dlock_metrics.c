/* dlock_metrics.c: the lock numbers and the slow-lock log as PHP sees them:
 * dlock_stats(), dlock_stats_reset(), the phpinfo() table, and the hook that
 * writes one slow-lock line (to dlock.log_file, else PHP's error log). The
 * numbers themselves are core/dlock_stats.c's, recorded by the generic lock
 * object. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdio.h>
#include <sys/time.h>
#include <time.h>

#include "php.h"
#include "php_main.h"
#include "ext/standard/info.h"

#include "php_dlock.h"
#include "php_dlock_int.h"
#include "core/dlock_stats.h"

static const char *const metrics_kinds[DLOCK_STATS_KINDS] = {"mutex", "read", "write", "semaphore"};
static const char *const metrics_results[DLOCK_STAT_RESULTS] = {"ok", "timeout", "refused",
                                                                "error"};

/* A histogram as ['buckets' => [le => cumulative count, ..., '+Inf' => count],
 * 'sum' => seconds, 'count' => n]. */
static void metrics_histogram(zval *out, const dlock_histogram *h)
{
	uint64_t cum[DLOCK_STATS_BOUNDS + 1];
	zval buckets;
	char le[32];
	size_t i;

	dlock_stats_cumulative(h, cum);
	array_init_size(&buckets, DLOCK_STATS_BOUNDS + 1);
	for (i = 0; i < DLOCK_STATS_BOUNDS; i++) {
		snprintf(le, sizeof(le), "%.4g", (double)dlock_stats_bounds_us[i] / 1e6);
		add_assoc_long(&buckets, le, (zend_long)cum[i]);
	}
	add_assoc_long(&buckets, "+Inf", (zend_long)cum[DLOCK_STATS_BOUNDS]);
	array_init_size(out, 3);
	add_assoc_zval(out, "buckets", &buckets);
	add_assoc_double(out, "sum", (double)h->sum_us / 1e6);
	add_assoc_long(out, "count", (zend_long)h->count);
}

static void metrics_row(zval *out, const dlock_stats_row *r)
{
	zval acq, hist;
	size_t i;

	array_init_size(out, 6);
	array_init_size(&acq, DLOCK_STAT_RESULTS);
	for (i = 0; i < DLOCK_STAT_RESULTS; i++) {
		add_assoc_long(&acq, metrics_results[i], (zend_long)r->acquire[i]);
	}
	add_assoc_zval(out, "acquire", &acq);
	add_assoc_long(out, "released", (zend_long)r->released);
	add_assoc_long(out, "lost", (zend_long)r->lost);
	add_assoc_long(out, "held", (zend_long)r->held);
	metrics_histogram(&hist, &r->wait);
	add_assoc_zval(out, "wait_seconds", &hist);
	metrics_histogram(&hist, &r->hold);
	add_assoc_zval(out, "hold_seconds", &hist);
}

PHP_FUNCTION(dlock_stats)
{
	size_t b, k;

	ZEND_PARSE_PARAMETERS_NONE();
	array_init(return_value);
	for (b = 0; b < DLOCK_BACKENDS && b < DLOCK_STATS_BACKENDS; b++) {
		zval kinds, row;

		if (!dlock_backend_table[b]) {
			continue;
		}
		array_init_size(&kinds, DLOCK_STATS_KINDS);
		for (k = 0; k < DLOCK_STATS_KINDS; k++) {
			metrics_row(&row, dlock_stats_get((int)b, (int)k));
			add_assoc_zval(&kinds, metrics_kinds[k], &row);
		}
		add_assoc_zval(return_value, dlock_backend_names[b].scheme, &kinds);
	}
}

PHP_FUNCTION(dlock_stats_reset)
{
	ZEND_PARSE_PARAMETERS_NONE();
	dlock_stats_reset();
}

void php_dlock_metrics_info(void)
{
	size_t b, k, i;

	php_info_print_table_start();
	php_info_print_table_colspan_header(
	    6, "Lock numbers of this process since it started (dlock_stats())");
	php_info_print_table_header(6, "Backend", "Acquires ok / timeout / refused / error",
	                            "Released / lost", "Held now", "Mean wait (ms)", "Mean hold (ms)");
	for (b = 0; b < DLOCK_BACKENDS && b < DLOCK_STATS_BACKENDS; b++) {
		uint64_t acq[DLOCK_STAT_RESULTS] = {0}, rel = 0, lost = 0, wn = 0, ws = 0, hn = 0, hs = 0;
		int64_t held = 0;
		char c1[128], c2[64], c3[32], c4[32], c5[32];

		if (!dlock_backend_table[b]) {
			continue;
		}
		for (k = 0; k < DLOCK_STATS_KINDS; k++) {
			const dlock_stats_row *r = dlock_stats_get((int)b, (int)k);

			for (i = 0; i < DLOCK_STAT_RESULTS; i++) {
				acq[i] += r->acquire[i];
			}
			rel += r->released;
			lost += r->lost;
			held += r->held;
			wn += r->wait.count;
			ws += r->wait.sum_us;
			hn += r->hold.count;
			hs += r->hold.sum_us;
		}
		snprintf(c1, sizeof(c1), "%llu / %llu / %llu / %llu", (unsigned long long)acq[0],
		         (unsigned long long)acq[1], (unsigned long long)acq[2],
		         (unsigned long long)acq[3]);
		snprintf(c2, sizeof(c2), "%llu / %llu", (unsigned long long)rel, (unsigned long long)lost);
		snprintf(c3, sizeof(c3), "%lld", (long long)held);
		snprintf(c4, sizeof(c4), "%.3f", wn ? (double)ws / (double)wn / 1000.0 : 0.0);
		snprintf(c5, sizeof(c5), "%.3f", hn ? (double)hs / (double)hn / 1000.0 : 0.0);
		php_info_print_table_row(6, dlock_backend_names[b].scheme, c1, c2, c3, c4, c5);
	}
	php_info_print_table_end();
}

/* One slow-lock line, e.g.
 * 2026-11-26T08:00:00.123Z dlock slow wait: lock "/jobs/a" backend zookeeper kind mutex
 * waited 1503 ms (acquired) holder "web1:4242"
 * Never a DSN or credential: the name, the backend's scheme, and the data the
 * holder stored with its hold (which participants() shows to anyone who can
 * see the lock). */
static void php_dlock_slow_log(const dlock_slow_event *e)
{
	char line[768], path[256], when[40];
	struct timeval tv;
	struct tm tm;
	const char *scheme =
	    (unsigned)e->backend < DLOCK_BACKENDS ? dlock_backend_names[e->backend].scheme : "?";
	const char *kind = (unsigned)e->kind < DLOCK_STATS_KINDS ? metrics_kinds[e->kind] : "?";
	long long ms = (long long)(e->us / 1000);

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	dlock_stats_holder_copy(path, sizeof(path), e->path, strlen(e->path));
	if (e->hold) {
		snprintf(line, sizeof(line),
		         "%s.%03dZ dlock slow hold: lock \"%s\" backend %s kind %s held %lld ms", when,
		         (int)(tv.tv_usec / 1000), path, scheme, kind, ms);
	} else {
		snprintf(line, sizeof(line),
		         "%s.%03dZ dlock slow wait: lock \"%s\" backend %s kind %s waited %lld ms (%s) "
		         "holder %s%s%s",
		         when, (int)(tv.tv_usec / 1000), path, scheme, kind, ms,
		         e->status == DLOCK_OK          ? "acquired"
		         : e->status == DLOCK_ETIMEDOUT ? "timed out"
		                                        : dlock_status_name(e->status),
		         *e->holder ? "\"" : "", *e->holder ? e->holder : "unknown",
		         *e->holder ? "\"" : "");
	}
	if (DLOCK_G(log_file) && *DLOCK_G(log_file)) {
		FILE *f = fopen(DLOCK_G(log_file), "a");

		if (f) {
			fprintf(f, "%s\n", line);
			fclose(f);
			return;
		}
	}
	php_log_err_with_severity(line, LOG_NOTICE);
}

void php_dlock_metrics_init(void)
{
	dlock_stats_slow_hook(php_dlock_slow_log);
}

void php_dlock_metrics_shutdown(void)
{
	dlock_stats_slow_hook(NULL);
}
