/* floor.c: the physical floor of a ZooKeeper lock cycle on this machine, for
 * the benchmark: the plain synchronous recipe (create EPHEMERAL_SEQUENTIAL,
 * get_children, delete, each waited for) on libzookeeper_mt, and the round
 * trip of each single operation. Usage: floor HOSTS CYCLES
 * Prints one "key value" line per figure (ms or cycles/s). */
#define THREADED
#include <zookeeper/zookeeper.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int connected;

static void watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	(void)zh, (void)path, (void)ctx;
	if (type == ZOO_SESSION_EVENT && state == ZOO_CONNECTED_STATE) {
		pthread_mutex_lock(&mu);
		connected = 1;
		pthread_cond_signal(&cv);
		pthread_mutex_unlock(&mu);
	}
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double pct(double *v, int n, double p)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[(int)(p * (n - 1))];
}

int main(int argc, char **argv)
{
	const char *hosts = argc > 1 ? argv[1] : "127.0.0.1:2181";
	int n = argc > 2 ? atoi(argv[2]) : 2000, i;
	double *create = calloc((size_t)n, sizeof(double)), *list = calloc((size_t)n, sizeof(double));
	double *del = calloc((size_t)n, sizeof(double)), t0, t, total;
	char path[256];
	zhandle_t *zh;

	zoo_set_debug_level((ZooLogLevel)0);
	zh = zookeeper_init(hosts, watcher, 10000, NULL, NULL, 0);
	pthread_mutex_lock(&mu);
	while (!connected) {
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	zoo_create(zh, "/bench", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	zoo_create(zh, "/bench/floor", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	t0 = now_ms();
	for (i = 0; i < n; i++) {
		struct String_vector kids;

		t = now_ms();
		if (zoo_create(zh, "/bench/floor/_c_x-lock-", "x", 1, &ZOO_OPEN_ACL_UNSAFE,
		               ZOO_EPHEMERAL_SEQUENTIAL, path, sizeof(path)) != ZOK) {
			fprintf(stderr, "create failed\n");
			return 1;
		}
		create[i] = now_ms() - t;
		t = now_ms();
		zoo_get_children(zh, "/bench/floor", 0, &kids);
		deallocate_String_vector(&kids);
		list[i] = now_ms() - t;
		t = now_ms();
		zoo_delete(zh, path, -1);
		del[i] = now_ms() - t;
	}
	total = now_ms() - t0;
	printf("sync_recipe_cycles_per_s %.1f\n", n / (total / 1000.0));
	printf("sync_recipe_cycle_ms %.3f\n", total / n);
	printf("create_p50_ms %.3f\ncreate_p99_ms %.3f\n", pct(create, n, 0.5), pct(create, n, 0.99));
	printf("get_children_p50_ms %.3f\nget_children_p99_ms %.3f\n", pct(list, n, 0.5),
	       pct(list, n, 0.99));
	printf("delete_p50_ms %.3f\ndelete_p99_ms %.3f\n", pct(del, n, 0.5), pct(del, n, 0.99));
	zookeeper_close(zh);
	return 0;
}
