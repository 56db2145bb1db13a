/* herd.c: herd-freedom and hand-over latency of the dlock core, for the
 * benchmark. W waiters (each its own session, in its own thread) queue behind
 * one holder; then every holder releases in turn. For each release it counts
 * the watch notifications delivered to all sessions (a herd-free recipe
 * delivers exactly 1) and the hand-over latency (release returned -> next
 * acquire returned). Usage: herd HOSTS WAITERS
 * Prints "notifications_per_release X", "handover_p50_ms X", "handover_p99_ms X". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../core/dlock_core.h"
#include "../core/zk/dlock_zk_lock.h"
#include "../core/zk/dlock_zk_log.h"
#include "../core/zk/dlock_zk_path.h"
#include "../core/zk/dlock_zk_pool.h"
#include "../core/zk/dlock_zk_queue.h"
#include "../core/zk/dlock_zk_rule.h"
#include "../core/zk/dlock_zk_session.h"

typedef struct waiter {
	int idx;               /* queue position (1-based) */
	dlock_session_cfg cfg; /* distinct session per waiter */
	dlock_lock *lock;      /* this waiter's contender */
	double got_at;         /* when acquire returned, ms */
} waiter;

static const char *hosts;
static const char *path = "/bench/herd";
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int turn; /* index of the waiter allowed to release */
static double released_at[1024];

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int queue_len(void)
{
	dlock_session_cfg c = {hosts, 10000, 5000, NULL};
	dlock_session *s = NULL;
	struct String_vector v = {0, NULL};
	int n = 0;

	if (dlock_pool_get(&c, NULL, &s, NULL) != DLOCK_OK) {
		return -1;
	}
	if (zoo_get_children(dlock_session_zh(s), path, 0, &v) == ZOK) {
		n = v.count;
		deallocate_String_vector(&v);
	}
	dlock_session_unref(s);
	return n;
}

static void *run(void *arg)
{
	waiter *w = arg;
	dlock_acquire_opts o = {&w->cfg, "w", 1, -1, NULL, 0};
	dlock_err e;

	if (dlock_lock_acquire(w->lock, &o, &e) != DLOCK_OK) {
		fprintf(stderr, "waiter %d: %s\n", w->idx, e.msg);
		exit(1);
	}
	w->got_at = now_ms();
	pthread_mutex_lock(&mu);
	while (turn != w->idx) {
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	dlock_lock_release(w->lock, 0, &e);
	pthread_mutex_lock(&mu);
	released_at[w->idx] = now_ms();
	turn = w->idx + 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	return NULL;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 8, rounds = argc > 3 ? atoi(argv[3]) : 1, i, r, waiters;
	waiter *w = calloc((size_t)n + 1, sizeof(*w));
	pthread_t *th = calloc((size_t)n + 1, sizeof(*th));
	dlock_session **sess = calloc((size_t)n + 1, sizeof(*sess));
	double *hand;
	uint64_t before = 0, after = 0;
	dlock_err e;

	hosts = argc > 1 ? argv[1] : "127.0.0.1:2181";
	if (n < 1 || n > 1000 || rounds < 1 || rounds > 1000) {
		return 2;
	}
	hand = calloc((size_t)n * (size_t)rounds, sizeof(double));
	waiters = n;
	dlock_zklog_configure(NULL, NULL);
	for (i = 0; i <= n; i++) {
		w[i].idx = i;
		w[i].cfg.hosts = hosts;
		w[i].cfg.session_timeout_ms = 20000 + i; /* distinct pooled session each */
		w[i].cfg.connect_timeout_ms = 10000;
		dlock_lock_new(DLOCK_KIND_MUTEX, 1, path, strlen(path), &w[i].lock, &e);
		dlock_pool_get(&w[i].cfg, NULL, &sess[i], &e);
	}
	for (r = 0; r < rounds; r++) {
		dlock_acquire_opts o = {&w[0].cfg, "h", 1, -1, NULL, 0};

		dlock_lock_acquire(w[0].lock, &o, &e);
		pthread_mutex_lock(&mu);
		turn = -1; /* nobody releases until everyone queued */
		pthread_mutex_unlock(&mu);
		for (i = 1; i <= n; i++) {
			pthread_create(&th[i], NULL, run, &w[i]);
			while (queue_len() < i + 1) {
				usleep(500);
			}
		}
		usleep(200000); /* let the last waiter arm its watch: observable only on the server */
		for (i = 0; i <= n; i++) {
			before += dlock_session_notifications(sess[i]);
		}
		dlock_lock_release(w[0].lock, 0, &e);
		released_at[0] = now_ms();
		pthread_mutex_lock(&mu);
		turn = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
		for (i = 1; i <= n; i++) {
			pthread_join(th[i], NULL);
		}
		for (i = 0; i <= n; i++) {
			after += dlock_session_notifications(sess[i]);
		}
		for (i = 1; i <= n; i++) {
			hand[r * n + i - 1] = w[i].got_at - released_at[i - 1];
		}
		while (queue_len() > 0) {
			usleep(500); /* the last release is on its way */
		}
	}
	n *= rounds;
	qsort(hand, (size_t)n, sizeof(double), cmp);
	printf("waiters %d\nrounds %d\n", waiters, rounds);
	printf("notifications_per_release %.3f\n", (double)(after - before) / n);
	printf("handover_p50_ms %.3f\n", hand[n / 2]);
	printf("handover_p99_ms %.3f\n", hand[(int)(0.99 * (n - 1))]);
	for (i = 0; i <= waiters; i++) {
		dlock_lock_free(w[i].lock);
		dlock_session_unref(sess[i]);
	}
	dlock_pool_shutdown();
	return 0;
}
