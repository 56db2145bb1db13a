/* recipe.c: the plain synchronous ZooKeeper lock recipe as a benchmark
 * contender, on libzookeeper_mt directly: create EPHEMERAL_SEQUENTIAL, list,
 * watch the predecessor with exists(), delete, each call waited for. With
 * POLL_MS > 0 the waiter does not block on the watch but sleeps in
 * `while (!notified) usleep(POLL_MS * 1000)`, as the userland PHP recipe on
 * the old `zookeeper` PECL extension does (that extension is not packaged for
 * Debian 12, so this C model of it stands in, with the same calls and sleep).
 * Usage: recipe HOSTS PATH CYCLES COUNTER_FILE EVENTS_FILE POLL_MS
 * Protocol: prints "ready", waits for a line on stdin, runs, writes one
 * "t_request t_acquired t_released" line (epoch seconds) per cycle to
 * EVENTS_FILE, prints "done". */
#define THREADED
#include <zookeeper/zookeeper.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static volatile int connected, notified;

static void session_watcher(zhandle_t *zh, int type, int state, const char *p, void *ctx)
{
	(void)zh, (void)p, (void)ctx;
	if (type == ZOO_SESSION_EVENT && state == ZOO_CONNECTED_STATE) {
		pthread_mutex_lock(&mu);
		connected = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
}

static void pred_watcher(zhandle_t *zh, int type, int state, const char *p, void *ctx)
{
	(void)zh, (void)state, (void)p, (void)ctx;
	if (type != ZOO_SESSION_EVENT) {
		pthread_mutex_lock(&mu);
		notified = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static long seq_of(const char *name)
{
	const char *p = strstr(name, "lock-");

	return p ? atol(p + 5) : -1;
}

int main(int argc, char **argv)
{
	const char *hosts = argv[1], *path = argv[2], *counter = argv[4], *events = argv[5];
	int cycles = atoi(argv[3]), poll_ms = atoi(argv[6]), i;
	char prefix[512], mine[512], pred[512], line[16];
	double *t = calloc((size_t)cycles * 3, sizeof(double));
	zhandle_t *zh;
	FILE *f;

	zoo_set_debug_level((ZooLogLevel)0);
	zh = zookeeper_init(hosts, session_watcher, 10000, NULL, NULL, 0);
	pthread_mutex_lock(&mu);
	while (!connected) {
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	zoo_create(zh, "/bench", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	zoo_create(zh, path, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	snprintf(prefix, sizeof(prefix), "%s/_c_%d-lock-", path, (int)getpid());
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin)) {
		return 1;
	}
	for (i = 0; i < cycles; i++) {
		long my;

		t[3 * i] = now_s();
		zoo_create(zh, prefix, "x", 1, &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL, mine,
		           sizeof(mine));
		my = seq_of(mine);
		for (;;) {
			struct String_vector kids;
			long best = -1;
			int k;

			zoo_get_children(zh, path, 0, &kids);
			for (k = 0; k < kids.count; k++) {
				long s = seq_of(kids.data[k]);

				if (s >= 0 && s < my && s > best) {
					best = s;
					snprintf(pred, sizeof(pred), "%s/%s", path, kids.data[k]);
				}
			}
			deallocate_String_vector(&kids);
			if (best < 0) {
				break;
			}
			notified = 0;
			if (zoo_wexists(zh, pred, pred_watcher, NULL, NULL) == ZNONODE) {
				continue;
			}
			if (poll_ms > 0) {
				while (!notified) {
					usleep((useconds_t)poll_ms * 1000);
				}
			} else {
				pthread_mutex_lock(&mu);
				while (!notified) {
					pthread_cond_wait(&cv, &mu);
				}
				pthread_mutex_unlock(&mu);
			}
		}
		t[3 * i + 1] = now_s();
		f = fopen(counter, "r+");
		if (f) {
			long v = 0;

			if (fscanf(f, "%ld", &v) != 1) {
				v = 0;
			}
			rewind(f);
			fprintf(f, "%ld", v + 1);
			fclose(f);
		}
		zoo_delete(zh, mine, -1);
		t[3 * i + 2] = now_s();
	}
	f = fopen(events, "w");
	for (i = 0; f && i < cycles; i++) {
		fprintf(f, "%.6f %.6f %.6f\n", t[3 * i], t[3 * i + 1], t[3 * i + 2]);
	}
	if (f) {
		fclose(f);
	}
	zookeeper_close(zh);
	printf("done\n");
	return 0;
}
