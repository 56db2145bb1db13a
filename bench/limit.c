/* limit.c: the hand-tuned ZooKeeper lock as a benchmark contender, on
 * libzookeeper_mt's asynchronous API: what a C client can do per cycle on
 * this machine, the ceiling dlock's rows are measured against. Same recipe
 * and critical section as recipe.c (EPHEMERAL_SEQUENTIAL node, lowest
 * sequence holds, each waiter watches the node just ahead; the shared counter
 * file is read, incremented and written while held), with four tricks (what
 * each saves: bench/README.md):
 *   1. async delete: release() sends the delete and returns;
 *   2. when nobody waits, release() does not delete at all: the next
 *      acquire() sends the old node's delete and the new node's create in one
 *      zoo_amulti (one transaction, one log write). "Nobody waits" is known
 *      from a child watch set by the listing that showed us alone; if it
 *      fires while the delete is deferred, the watcher deletes at once;
 *   3. the create (or multi) and the children listing are sent together
 *      (the server answers a session's requests in order, so the listing
 *      includes the new node): one round trip to learn our place;
 *   4. no relist when the deleted node was the only one ahead of ours.
 * Also: no host re-resolution on each I/O wake-up, and the watch on the node
 * ahead is sent from the listing's completion.
 * Usage: limit HOSTS PATH CYCLES COUNTER_FILE EVENTS_FILE
 * Protocol (shared with recipe.c and worker.php): prints "ready", waits for a
 * line on stdin, runs, writes one "t_request t_acquired t_released" line
 * (epoch seconds) per cycle to EVENTS_FILE, prints "done". LIMIT_NO_LOCK=1 in
 * the environment runs the cycles without the lock (the bookkeeping alone,
 * for bench/callgrind.sh). LIMIT_SAFE=1 runs "the safe limit": without trick 2
 * (every release deletes at once, asynchronously: what a library can do,
 * since a deferred delete leaves a released lock looking held to everyone
 * else), tricks 1, 3 and 4 kept. Any server error
 * ends the run with exit status 2 (a contender, not a library). */
#define THREADED
#include <zookeeper/zookeeper.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static zhandle_t *zh;
static const char *lock_path;
static int connected;

/* One acquire's replies, filled on the completion thread under mu. */
static struct {
	int create_rc, list_rc, listed;
	char mine[512]; /* our node's full path */
	long my;        /* its sequence number */
	long ahead;     /* nodes listed ahead of ours */
	long behind;    /* nodes listed behind ours */
	char pred[512]; /* the node just ahead, when ahead > 0 */
	int exists_rc;  /* the watch on pred: ZOK armed, ZNONODE gone already */
} q;

static unsigned child_gen; /* generation of the child watch we care about (0: none) */
static int child_fired;    /* it fired: somebody may be queued behind us */
static char deferred[512]; /* released node whose delete waits for the next create */
static unsigned pred_gen;  /* generation of the predecessor watch waited for */
static int pred_event;     /* its event type, 0 until it fires */

static void die(const char *what, int rc)
{
	fprintf(stderr, "limit: %s: %s\n", what, zerror(rc));
	exit(2);
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

static void session_watcher(zhandle_t *z, int type, int state, const char *p, void *ctx)
{
	(void)z, (void)p, (void)ctx;
	if (type == ZOO_SESSION_EVENT && state == ZOO_CONNECTED_STATE) {
		pthread_mutex_lock(&mu);
		connected = 1;
		pthread_cond_broadcast(&cv);
		pthread_mutex_unlock(&mu);
	}
}

static int deletes_inflight; /* async deletes not answered yet (under mu) */

static void on_deleted(int rc, const void *data)
{
	(void)data;
	if (rc != ZOK) {
		die("async delete", rc);
	}
	pthread_mutex_lock(&mu);
	if (--deletes_inflight == 0) {
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
}

/* Sends the delete of `node`; called with mu held. */
static int delete_async(const char *node)
{
	int rc = zoo_adelete(zh, node, -1, on_deleted, NULL);

	deletes_inflight += rc == ZOK;
	return rc;
}

/* The child watch armed by a listing that showed us alone: a change means
 * someone may queue behind the node we hold (or have released but not yet
 * deleted), so a deferred delete goes out now. An event of an older
 * generation is our own next create's doing: ignored. */
static void child_watcher(zhandle_t *z, int type, int state, const char *p, void *ctx)
{
	(void)z, (void)state, (void)p;
	if (type == ZOO_SESSION_EVENT) {
		return;
	}
	pthread_mutex_lock(&mu);
	if ((unsigned)(uintptr_t)ctx == child_gen) {
		child_fired = 1;
		if (deferred[0]) {
			int rc = delete_async(deferred);

			if (rc != ZOK) {
				die("deferred delete", rc);
			}
			deferred[0] = '\0';
		}
	}
	pthread_mutex_unlock(&mu);
}

static void pred_watcher(zhandle_t *z, int type, int state, const char *p, void *ctx)
{
	(void)z, (void)state, (void)p;
	if (type == ZOO_SESSION_EVENT) {
		return;
	}
	pthread_mutex_lock(&mu);
	if ((unsigned)(uintptr_t)ctx == pred_gen) {
		pred_event = type;
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
}

static void on_created(int rc, const char *value, const void *data)
{
	(void)data;
	pthread_mutex_lock(&mu);
	q.create_rc = rc;
	if (rc == ZOK) {
		snprintf(q.mine, sizeof(q.mine), "%s", value);
		q.my = seq_of(value);
	}
	pthread_mutex_unlock(&mu);
}

static zoo_op_t ops[2];
static zoo_op_result_t results[2];
static char multi_created[512];

static void on_multi(int rc, const void *data)
{
	(void)data;
	pthread_mutex_lock(&mu);
	q.create_rc = rc;
	if (rc == ZOK) {
		snprintf(q.mine, sizeof(q.mine), "%s", multi_created);
		q.my = seq_of(multi_created);
	}
	pthread_mutex_unlock(&mu);
}

static void on_exists(int rc, const struct Stat *st, const void *data)
{
	(void)st, (void)data;
	pthread_mutex_lock(&mu);
	q.exists_rc = rc;
	q.listed = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

/* The listing comes after the create's reply (same session, in order), so
 * our node's number is known here: only the place is kept, no names copied.
 * With a node ahead, the watch on it is sent from here, before the main
 * thread even wakes (one wake-up per look instead of two). */
static void on_children(int rc, const struct String_vector *kids, const void *data)
{
	(void)data;
	pthread_mutex_lock(&mu);
	q.list_rc = rc;
	q.ahead = q.behind = 0;
	if (rc == ZOK && q.create_rc == ZOK) {
		long best = -1;
		int k;

		for (k = 0; k < kids->count; k++) {
			long s = seq_of(kids->data[k]);

			if (s < 0 || s == q.my) {
				continue;
			}
			if (s > q.my) {
				q.behind++;
				continue;
			}
			q.ahead++;
			if (s > best) {
				best = s;
				snprintf(q.pred, sizeof(q.pred), "%s/%s", lock_path, kids->data[k]);
			}
		}
	}
	if (rc == ZOK && q.create_rc == ZOK && q.ahead > 0) {
		pred_event = 0;
		q.exists_rc =
		    zoo_awexists(zh, q.pred, pred_watcher, (void *)(uintptr_t)++pred_gen, on_exists, NULL);
		if (q.exists_rc == ZOK) {
			pthread_mutex_unlock(&mu);
			return; /* on_exists wakes the main thread */
		}
	}
	q.listed = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void wait_listed(void)
{
	pthread_mutex_lock(&mu);
	while (!q.listed) {
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	if (q.create_rc != ZOK) {
		die("create", q.create_rc);
	}
	if (q.list_rc != ZOK) {
		die("list", q.list_rc);
	}
}

/* Lists the children again (no watch) and waits for the answer. */
static void relist(void)
{
	int rc;

	q.listed = 0;
	rc = zoo_aget_children(zh, lock_path, 0, on_children, NULL);
	if (rc != ZOK) {
		die("list", rc);
	}
	wait_listed();
}

static int was_alone; /* the last listing showed nobody else: arm the child watch */
static int safe;      /* LIMIT_SAFE: never defer a delete (no trick 2) */
static int may_defer; /* this hold's watched listing showed us alone */

static void acquire(const char *prefix)
{
	unsigned gen;
	int rc, watched = was_alone && !safe; /* the child watch serves trick 2 only */

	pthread_mutex_lock(&mu);
	gen = ++child_gen; /* events of the previous watch are ours from here on */
	child_fired = 0;
	q.listed = 0;
	if (deferred[0]) { /* trick 2: the last release's delete and this create, one txn */
		zoo_delete_op_init(&ops[0], deferred, -1);
		zoo_create_op_init(&ops[1], prefix, "x", 1, &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL,
		                   multi_created, sizeof(multi_created));
		rc = zoo_amulti(zh, 2, ops, results, on_multi, NULL);
		deferred[0] = '\0';
	} else {
		rc = zoo_acreate(zh, prefix, "x", 1, &ZOO_OPEN_ACL_UNSAFE, ZOO_EPHEMERAL_SEQUENTIAL,
		                 on_created, NULL);
	}
	pthread_mutex_unlock(&mu);
	if (rc != ZOK) {
		die("create", rc);
	}
	/* trick 3: the listing goes out behind the create, before its reply */
	rc = watched ? zoo_awget_children(zh, lock_path, child_watcher, (void *)(uintptr_t)gen,
	                                  on_children, NULL)
	             : zoo_aget_children(zh, lock_path, 0, on_children, NULL);
	if (rc != ZOK) {
		die("list", rc);
	}
	wait_listed();
	was_alone = q.ahead == 0 && q.behind == 0;
	may_defer = watched && was_alone;
	if (!may_defer) {
		pthread_mutex_lock(&mu);
		child_gen++; /* no watch of ours to trust for this hold */
		pthread_mutex_unlock(&mu);
	}
	while (q.ahead > 0) {
		int sure = q.ahead == 1, type;

		if (q.exists_rc == ZNONODE) {
			relist(); /* gone before the watch was set: look again */
			continue;
		}
		if (q.exists_rc != ZOK) {
			die("watch", q.exists_rc);
		}
		pthread_mutex_lock(&mu);
		while (!pred_event) {
			pthread_cond_wait(&cv, &mu);
		}
		type = pred_event;
		pthread_mutex_unlock(&mu);
		if (type == ZOO_DELETED_EVENT && sure) {
			break; /* trick 4: it was the only node ahead */
		}
		relist();
	}
}

static void release(void)
{
	int rc = ZOK;

	pthread_mutex_lock(&mu);
	if (may_defer && !child_fired) {
		snprintf(deferred, sizeof(deferred), "%s", q.mine); /* trick 2 */
	} else {
		rc = delete_async(q.mine); /* trick 1 */
	}
	pthread_mutex_unlock(&mu);
	if (rc != ZOK) {
		die("delete", rc);
	}
}

int main(int argc, char **argv)
{
	const char *hosts = argv[1], *counter = argv[4], *events = argv[5];
	int cycles, i;
	char prefix[512], line[16];
	double *t;
	FILE *f;
	int no_lock = getenv("LIMIT_NO_LOCK") != NULL; /* bench/callgrind.sh's baseline */

	if (argc < 6) {
		fprintf(stderr, "usage: limit HOSTS PATH CYCLES COUNTER_FILE EVENTS_FILE\n");
		return 1;
	}
	lock_path = argv[2];
	safe = getenv("LIMIT_SAFE") != NULL;
	cycles = atoi(argv[3]);
	t = calloc((size_t)cycles * 3 + 3, sizeof(double));
	zoo_set_debug_level((ZooLogLevel)0);
	zh = zookeeper_init(hosts, session_watcher, 20000, NULL, NULL, 0);
	if (!zh) {
		return 1;
	}
	/* 3.8's I/O thread re-resolves the host list (getaddrinfo, srand) on
	 * every wake-up unless told not to: ~11,000 instructions a wake-up */
	zoo_set_servers_resolution_delay(zh, -1);
	pthread_mutex_lock(&mu);
	while (!connected) {
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
	zoo_create(zh, "/bench", NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	zoo_create(zh, lock_path, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
	snprintf(prefix, sizeof(prefix), "%s/_c_%d-lock-", lock_path, (int)getpid());
	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin)) {
		return 1;
	}
	for (i = 0; i < cycles; i++) {
		t[3 * i] = now_s();
		if (!no_lock) {
			acquire(prefix);
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
		if (!no_lock) {
			release();
		}
		t[3 * i + 2] = now_s();
	}
	pthread_mutex_lock(&mu);
	child_gen++; /* the last deferred delete goes now, waited for */
	if (deferred[0]) {
		char last[512];

		snprintf(last, sizeof(last), "%s", deferred);
		deferred[0] = '\0';
		pthread_mutex_unlock(&mu);
		zoo_delete(zh, last, -1);
	} else {
		pthread_mutex_unlock(&mu);
	}
	pthread_mutex_lock(&mu);
	while (deletes_inflight > 0) { /* closing would fail them: the node would stay */
		pthread_cond_wait(&cv, &mu);
	}
	pthread_mutex_unlock(&mu);
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
