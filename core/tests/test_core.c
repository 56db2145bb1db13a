/* test_core.c: tests of the lock core without PHP. Pure checks run always; the
 * rest run against the ZooKeeper named by $DLOCK_TEST_HOSTS (required). Prints
 * one line per check and a final "N passed, N failed". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../dlock_core.h"
#include "../zk/dlock_zk_lock.h"
#include "../zk/dlock_zk_log.h"
#include "../zk/dlock_zk_path.h"
#include "../zk/dlock_zk_pool.h"
#include "../zk/dlock_zk_queue.h"
#include "../zk/dlock_zk_rule.h"
#include "../zk/dlock_zk_session.h"
#include "../dlock_dsn.h"
#include "../dlock_fault.h"
#include "../sql/dlock_sha256.h"

static int passed, failed;

#define CHECK(cond, ...)                                                                           \
	do {                                                                                           \
		if (cond) {                                                                                \
			passed++;                                                                              \
		} else {                                                                                   \
			failed++;                                                                              \
			printf("not ok %s:%d: ", __FILE__, __LINE__);                                          \
			printf(__VA_ARGS__);                                                                   \
			printf("\n");                                                                          \
		}                                                                                          \
	} while (0)

static const char *hosts;

static void test_paths(void)
{
	static const char *good[] = {
	    "/a",          "/locks/orders", "/a/b.c/d..e/_x", "/\xc3\xa9t\xc3\xa9",
	    "/zookeeperx", "/a/zookeeper"};
	static const char *bad[] = {"",       "a",     "/",     "/a/",           "//a",
	                            "/a//b",  "/./a",  "/a/..", "/zookeeper",    "/zookeeper/quota",
	                            "/a\x01", "/\xff", "/\xc3", "/\xed\xa0\x80", "/\xf0\x9f\x98\x80"};
	char big[DLOCK_PATH_MAX + 2];
	dlock_err e;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		CHECK(dlock_path_validate(good[i], strlen(good[i]), &e) == DLOCK_OK, "good path %s: %s",
		      good[i], e.msg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CHECK(dlock_path_validate(bad[i], strlen(bad[i]), &e) == DLOCK_EINVAL && e.msg[0],
		      "bad path #%zu accepted", i);
	}
	CHECK(dlock_path_validate("/a\0b", 4, &e) == DLOCK_EINVAL, "NUL accepted");
	memset(big, 'x', sizeof(big));
	big[0] = '/';
	CHECK(dlock_path_validate(big, sizeof(big), &e) == DLOCK_EINVAL, "long path accepted");
}

static void test_hosts(void)
{
	static const char *good[] = {"127.0.0.1:2181", "a:1,b:2,c:65535",
	                             "zk-1.example_x:2181/chroot/x", "[::1]:2181"};
	static const char *bad[] = {"",        "host",    "host:",    ":2181",     "h:0",
	                            "h:65536", "h:2181,", "h:2181/",  "h:2181//x", "h:2181 x",
	                            "h :1",    "[::1",    "h:1234567"};
	dlock_err e;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		CHECK(dlock_hosts_validate(good[i], strlen(good[i]), &e) == DLOCK_OK, "good hosts %s: %s",
		      good[i], e.msg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CHECK(dlock_hosts_validate(bad[i], strlen(bad[i]), &e) == DLOCK_EINVAL,
		      "bad hosts \"%s\" accepted", bad[i]);
	}
}

/* One ensemble in its spellings is one lock space; another ensemble or chroot is not. */
static void test_hosts_space(void)
{
	static const char *same[] = {"localhost:2181,zk2:2182/app", "ZK2.:2182,127.0.0.1:2181/app/",
	                             "zk2:2182,127.1:2181,localhost:2181/app",
	                             "[::1]:2181,zk2:2182/app"};
	static const char *other[] = {"localhost:2181/app", "localhost:2181,zk2:2182",
	                              "localhost:2182,zk2:2182/app", "localhost:2181,zk2:2182/app2"};
	char a[300], b[300];
	size_t i;

	dlock_zk_hosts_space(same[0], a, sizeof(a));
	CHECK(strcmp(a, "zookeeper://loopback:2181,zk2:2182/app") == 0, "space of %s: %s", same[0], a);
	for (i = 1; i < sizeof(same) / sizeof(*same); i++) {
		dlock_zk_hosts_space(same[i], b, sizeof(b));
		CHECK(strcmp(a, b) == 0, "%s is %s, not %s", same[i], b, a);
	}
	for (i = 0; i < sizeof(other) / sizeof(*other); i++) {
		dlock_zk_hosts_space(other[i], b, sizeof(b));
		CHECK(strcmp(a, b) != 0, "%s taken for %s", other[i], same[0]);
	}
}

static void test_names(void)
{
	int32_t s = 0;
	char g1[DLOCK_GUID_LEN + 1], g2[DLOCK_GUID_LEN + 1];

	const char *t = NULL;

#define G "_c_01234567-89ab-4cde-8f01-23456789abcd-"
	CHECK(dlock_name_seq(G "lock-0000000042", "lock-", &s, &t) && s == 42 &&
	          strcmp(t, "0000000042") == 0,
	      "seq parse");
	CHECK(dlock_name_seq(G "lock--2147483648", "lock-", &s, NULL) && s == INT32_MIN,
	      "negative seq");
	CHECK(dlock_name_seq(G "lock--000000005", "lock-", &s, NULL) && s == -5, "negative seq");
	CHECK(!dlock_name_seq(G "__READ__0000000001", "lock-", &s, NULL), "foreign node ignored");
	CHECK(!dlock_name_seq(G "lock-12a", "lock-", &s, NULL), "junk suffix ignored");
	CHECK(!dlock_name_seq(G "lock-", "lock-", &s, NULL), "empty suffix ignored");
	/* only the whole shape counts: nested containers and short names do not */
	CHECK(!dlock_name_seq("clock-0", "lock-", &s, NULL), "nested container ignored");
	CHECK(!dlock_name_seq("deadlock-0000000001", "lock-", &s, NULL), "plain name ignored");
	CHECK(!dlock_name_seq("x__WRIT__0", "__WRIT__", &s, NULL), "marker name ignored");
	CHECK(!dlock_name_seq("_c_x-lock-0000000007", "lock-", &s, NULL), "short guid ignored");
	CHECK(!dlock_name_seq(G "lock-000000007", "lock-", &s, NULL), "nine digits ignored");
	CHECK(!dlock_name_seq(G "x-lock-0000000007", "lock-", &s, NULL), "text before marker");
	CHECK(!dlock_name_seq("_c_01234567-89ab-4cde-8f01-23456789abcg-lock-0000000007", "lock-", &s,
	                      NULL),
	      "non-hex guid ignored");
	CHECK(dlock_seq_cmp("0000000001", "0000000002") < 0 &&
	          dlock_seq_cmp("0000000002", "0000000001") > 0 &&
	          dlock_seq_cmp("0000000005", "0000000005") == 0,
	      "seq order");
	/* Curator sorts the text after the marker as a string; after the server's
	 * counter wraps, "-2147483648" sorts first for Curator, so for dlock too:
	 * every client of one queue must agree on who is first */
	CHECK(dlock_seq_cmp("-2147483648", "2147483647") < 0, "wrapped counter sorts as Curator's");
	CHECK(dlock_seq_cmp("-000000005", "-2147483648") < 0, "negatives in Curator's string order");
	CHECK(dlock_guid(g1, NULL) == DLOCK_OK && dlock_guid(g2, NULL) == DLOCK_OK &&
	          strlen(g1) == DLOCK_GUID_LEN && strcmp(g1, g2) != 0 && g1[14] == '4',
	      "guid");
}

static void test_rules(void)
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

/* Session settings; distinct session timeouts give distinct pooled sessions. */
static dlock_session_cfg cfg_n(int n)
{
	dlock_session_cfg c = {hosts, 4000 + n, 5000, NULL};

	return c;
}

static dlock_acquire_opts opts(const dlock_session_cfg *c, int64_t timeout_ms)
{
	dlock_acquire_opts o = {c, "t", 1, timeout_ms, NULL, NULL, 0};

	return o;
}

static int children(const char *path)
{
	dlock_session_cfg c = cfg_n(99);
	dlock_session *s = NULL;
	struct String_vector v = {0, NULL};
	int n = -1;

	if (dlock_pool_get(&c, NULL, &s, NULL) != DLOCK_OK) {
		return -1;
	}
	if (zoo_get_children(dlock_session_zh(s), path, 0, &v) == ZOK) {
		n = v.count;
		deallocate_String_vector(&v);
	} else {
		n = 0;
	}
	dlock_session_unref(s);
	return n;
}

/* Polls the server until `path` has `want` children (test harness only). */
static int wait_children(const char *path, int want)
{
	int64_t until = dlock_now_ms() + 10000;

	while (children(path) != want && dlock_now_ms() < until) {
		usleep(2000);
	}
	return children(path) == want;
}

typedef struct waiter {
	dlock_lock *l;
	dlock_session_cfg cfg;
	int rc;
	int64_t got_at;
} waiter;

static void *waiter_run(void *arg)
{
	waiter *w = arg;
	dlock_acquire_opts o = opts(&w->cfg, 10000);
	dlock_err e;

	w->rc = dlock_lock_acquire(w->l, &o, &e);
	w->got_at = dlock_now_ms();
	return NULL;
}

static dlock_lock *new_lock(dlock_kind kind, int leases, const char *path)
{
	dlock_lock *l = NULL;
	dlock_err e;
	int rc = dlock_lock_new(kind, leases, path, strlen(path), &l, &e);

	CHECK(rc == DLOCK_OK, "new lock %s: %s", path, e.msg);
	return l;
}

static void test_server(void)
{
	const char *path = "/dlock-tests/core/basic";
	dlock_session_cfg ca = cfg_n(1), cb = cfg_n(2);
	dlock_acquire_opts oa = opts(&ca, -1), ob = opts(&cb, 0);
	dlock_lock *ma = new_lock(DLOCK_KIND_MUTEX, 1, path), *mb = new_lock(DLOCK_KIND_MUTEX, 1, path);
	dlock_err e;
	int64_t t0, tok1, tok2;
	pthread_t th;
	waiter w;
	int rc;

	rc = dlock_lock_acquire(ma, &oa, &e);
	CHECK(rc == DLOCK_OK && dlock_lock_held(ma), "acquire: %s %s", dlock_status_name(rc), e.msg);
	tok1 = dlock_lock_token(ma);
	CHECK(tok1 > 0, "token set");
	CHECK(strstr(dlock_lock_node(ma), "/_c_") && strstr(dlock_lock_node(ma), "-lock-"),
	      "curator-style node name %s", dlock_lock_node(ma));
	CHECK(dlock_lock_reenter(ma, &oa, &e) == DLOCK_OK && dlock_lock_holding(ma),
	      "a nested acquire's check of the hold passes (the handle counts it)");
	CHECK(dlock_lock_verify(ma, &e) == DLOCK_OK, "verify: held");

	rc = dlock_lock_acquire(mb, &ob, &e);
	CHECK(rc == DLOCK_ETIMEDOUT && !dlock_lock_held(mb), "try fails while held: %s",
	      dlock_status_name(rc));
	ob.timeout_ms = 300;
	t0 = dlock_now_ms();
	rc = dlock_lock_acquire(mb, &ob, &e);
	CHECK(rc == DLOCK_ETIMEDOUT && dlock_now_ms() - t0 >= 290, "timed acquire times out");
	CHECK(children(path) == 1, "no node left after timeouts (%d)", children(path));

	w.l = mb;
	w.cfg = cb;
	pthread_create(&th, NULL, waiter_run, &w);
	CHECK(wait_children(path, 2), "waiter queued");
	t0 = dlock_now_ms();
	CHECK(dlock_lock_release(ma, 0, &e) == DLOCK_OK && !dlock_lock_held(ma), "last release");
	pthread_join(th, NULL);
	CHECK(w.rc == DLOCK_OK && dlock_lock_held(mb), "waiter acquired after release");
	printf("# hand-over %lld ms\n", (long long)(w.got_at - t0));
	tok2 = dlock_lock_token(mb);
	CHECK(tok2 > tok1, "fencing token grows (%lld > %lld)", (long long)tok2, (long long)tok1);
	CHECK(dlock_lock_release(ma, 0, &e) == DLOCK_ENOTHELD, "release when not held");
	CHECK(dlock_lock_release(mb, 0, &e) == DLOCK_OK, "release b");
	CHECK(wait_children(path, 0), "queue empty at the end");
	dlock_lock_free(ma);
	dlock_lock_free(mb);
}

/* Three waiters queued behind one holder: one release notifies exactly one. */
static void test_no_herd(void)
{
	const char *path = "/dlock-tests/core/herd";
	enum { N = 3 };
	dlock_session_cfg c0 = cfg_n(10);
	dlock_acquire_opts o0 = opts(&c0, -1);
	dlock_lock *m[N + 1];
	dlock_session *s[N + 1];
	waiter w[N];
	pthread_t th[N];
	uint64_t before = 0, after = 0;
	dlock_err e;
	int i;

	for (i = 0; i <= N; i++) {
		dlock_session_cfg c = cfg_n(10 + i);

		m[i] = new_lock(DLOCK_KIND_MUTEX, 1, path);
		dlock_pool_get(&c, NULL, &s[i], &e);
	}
	CHECK(dlock_lock_acquire(m[0], &o0, &e) == DLOCK_OK, "holder");
	for (i = 0; i < N; i++) {
		w[i].l = m[i + 1];
		w[i].cfg = cfg_n(11 + i);
		w[i].rc = -1;
		pthread_create(&th[i], NULL, waiter_run, &w[i]);
		CHECK(wait_children(path, i + 2), "waiter %d queued", i);
	}
	usleep(100000); /* let the last waiter arm its watch (observable only via the server) */
	for (i = 1; i <= N; i++) {
		before += dlock_session_notifications(s[i]);
	}
	dlock_lock_release(m[0], 0, &e);
	pthread_join(th[0], NULL); /* the first waiter takes the lock */
	for (i = 1; i <= N; i++) {
		after += dlock_session_notifications(s[i]);
	}
	CHECK(w[0].rc == DLOCK_OK && after - before == 1, "one release, one notification (%llu)",
	      (unsigned long long)(after - before));
	for (i = 0; i < N; i++) {
		if (i > 0) {
			pthread_join(th[i], NULL);
		}
		CHECK(w[i].rc == DLOCK_OK, "waiter %d acquired in turn", i);
		dlock_lock_release(m[i + 1], 0, &e);
	}
	for (i = 0; i <= N; i++) {
		dlock_lock_free(m[i]);
		dlock_session_unref(s[i]);
	}
}

/* Creates a raw child `name-` (ephemeral sequential) of path on session n's
 * handle, as another client would; returns its full path (static buffer). */
static const char *raw_node(int n, const char *path, const char *name)
{
	static char out[512];
	char want[512];
	dlock_session_cfg c = cfg_n(n);
	dlock_session *s = NULL;
	int zrc;

	out[0] = '\0';
	if (dlock_pool_get(&c, NULL, &s, NULL) != DLOCK_OK) {
		return out;
	}
	snprintf(want, sizeof(want), "%s/%s", path, name);
	zrc = zoo_create(dlock_session_zh(s), want, "x", 1, &ZOO_OPEN_ACL_UNSAFE,
	                 ZOO_EPHEMERAL_SEQUENTIAL, out, sizeof(out));
	if (zrc != ZOK) {
		out[0] = '\0';
	}
	dlock_session_unref(s);
	return out;
}

static void raw_delete(int n, const char *node)
{
	dlock_session_cfg c = cfg_n(n);
	dlock_session *s = NULL;

	if (dlock_pool_get(&c, NULL, &s, NULL) == DLOCK_OK) {
		zoo_delete(dlock_session_zh(s), node, -1);
		dlock_session_unref(s);
	}
}

/* A downgrade with a writer queued behind our write is refused: once our
 * write went, that writer would hold beside our read. */
static void test_downgrade_guard(void)
{
	const char *path = "/dlock-tests/core/downgrade";
	dlock_session_cfg c = cfg_n(40);
	dlock_acquire_opts o = opts(&c, 0);
	dlock_lock *w = new_lock(DLOCK_KIND_WRITE, 1, path), *r = new_lock(DLOCK_KIND_READ, 1, path);
	char other[512];
	dlock_err e;

	CHECK(dlock_lock_acquire(w, &o, &e) == DLOCK_OK, "writer");
	snprintf(other, sizeof(other), "%s",
	         raw_node(41, path, "_c_01234567-89ab-4cde-8f01-23456789abcd-__WRIT__"));
	CHECK(other[0], "a writer queues behind");
	o.grant_node = dlock_lock_node(w);
	CHECK(dlock_lock_acquire(r, &o, &e) == DLOCK_EDEADLK, "downgrade refused: %s", e.msg);
	CHECK(!dlock_lock_holding(r) && wait_children(path, 2), "the refused read left no node");
	raw_delete(41, other);
	CHECK(dlock_lock_acquire(r, &o, &e) == DLOCK_OK, "downgrade once no writer waits");
	o.grant_node = NULL;
	dlock_lock_release(w, 1, &e);
	dlock_lock_release(r, 1, &e);
	dlock_lock_free(w);
	dlock_lock_free(r);
}

/* A semaphore's head waiter watches every lease, its own process's too:
 * when another process's lease goes, the lease comes. */
static char semwatch_other[512];

static void *semwatch_release(void *arg)
{
	(void)arg;
	if (wait_children("/dlock-tests/core/semwatch", 3)) { /* b is queued */
		raw_delete(43, semwatch_other);
	}
	return NULL;
}

static void test_semaphore_watch(void)
{
	const char *path = "/dlock-tests/core/semwatch";
	dlock_session_cfg c = cfg_n(42);
	dlock_acquire_opts o = opts(&c, 0);
	dlock_lock *a = new_lock(DLOCK_KIND_SEMAPHORE, 2, path);
	dlock_lock *b = new_lock(DLOCK_KIND_SEMAPHORE, 2, path);
	pthread_t t;
	int64_t t0;
	dlock_err e;

	CHECK(dlock_lock_acquire(a, &o, &e) == DLOCK_OK, "own lease");
	snprintf(semwatch_other, sizeof(semwatch_other), "%s",
	         raw_node(43, path, "_c_01234567-89ab-4cde-8f01-23456789abcd-lease-"));
	CHECK(semwatch_other[0], "another process's lease");
	/* queue: a (ours, holds), other (holds), b: the head, watching both */
	o.timeout_ms = 8000;
	pthread_create(&t, NULL, semwatch_release, NULL);
	t0 = dlock_now_ms();
	CHECK(dlock_lock_acquire(b, &o, &e) == DLOCK_OK && dlock_now_ms() - t0 < 6000,
	      "second own lease comes when the other lease goes (%lld ms)",
	      (long long)(dlock_now_ms() - t0));
	pthread_join(t, NULL);
	dlock_lock_release(a, 1, &e);
	dlock_lock_release(b, 1, &e);
	dlock_lock_free(a);
	dlock_lock_free(b);
}

static void test_read_write(void)
{
	const char *path = "/dlock-tests/core/rw";
	dlock_session_cfg c1 = cfg_n(20), c2 = cfg_n(21);
	dlock_acquire_opts o1 = opts(&c1, 0), o2 = opts(&c2, 0);
	dlock_lock *r1 = new_lock(DLOCK_KIND_READ, 1, path), *r2 = new_lock(DLOCK_KIND_READ, 1, path);
	dlock_lock *w1 = new_lock(DLOCK_KIND_WRITE, 1, path), *w2 = new_lock(DLOCK_KIND_WRITE, 1, path);
	dlock_err e;

	CHECK(dlock_lock_acquire(r1, &o1, &e) == DLOCK_OK, "reader 1");
	CHECK(dlock_lock_acquire(r2, &o2, &e) == DLOCK_OK, "reader 2 shares");
	CHECK(strstr(dlock_lock_node(r1), "-__READ__"), "read node named as Curator's");
	CHECK(dlock_lock_acquire(w2, &o2, &e) == DLOCK_ETIMEDOUT, "writer waits for readers");
	dlock_lock_release(r1, 1, &e); /* wait: a barrier for the writer's single try */
	dlock_lock_release(r2, 1, &e);
	/* release() does not wait for the delete: r2's may still be in flight on
	 * its own session, so give the writer time rather than a single try */
	o1.timeout_ms = 5000;
	CHECK(dlock_lock_acquire(w1, &o1, &e) == DLOCK_OK, "writer");
	o1.timeout_ms = 0;
	CHECK(dlock_lock_node(w1) && strstr(dlock_lock_node(w1), "-__WRIT__"),
	      "write node named as Curator's");
	CHECK(dlock_lock_acquire(r2, &o2, &e) == DLOCK_ETIMEDOUT, "reader waits for writer");
	CHECK(dlock_lock_self_conflict(r1, hosts), "same-process read behind a write conflicts");
	o1.grant_node = dlock_lock_node(w1);
	CHECK(dlock_lock_acquire(r1, &o1, &e) == DLOCK_OK, "downgrade: writer takes read");
	o1.grant_node = NULL;
	dlock_lock_release(w1, 0, &e);
	o2.timeout_ms = 5000;
	CHECK(dlock_lock_acquire(r2, &o2, &e) == DLOCK_OK, "after downgrade readers share");
	o2.timeout_ms = 0;
	CHECK(dlock_lock_acquire(w2, &o2, &e) == DLOCK_ETIMEDOUT, "writer still excluded");
	dlock_lock_release(r1, 0, &e);
	dlock_lock_release(r2, 0, &e);
	dlock_lock_free(r1);
	dlock_lock_free(r2);
	dlock_lock_free(w1);
	dlock_lock_free(w2);
}

static void test_semaphore(void)
{
	const char *path = "/dlock-tests/core/sem";
	dlock_session_cfg c = cfg_n(30);
	dlock_acquire_opts o = opts(&c, 0);
	dlock_lock *l[3];
	dlock_err e;
	int i;

	for (i = 0; i < 3; i++) {
		l[i] = new_lock(DLOCK_KIND_SEMAPHORE, 2, path);
	}
	CHECK(dlock_lock_acquire(l[0], &o, &e) == DLOCK_OK, "lease 1");
	CHECK(dlock_lock_acquire(l[1], &o, &e) == DLOCK_OK, "lease 2");
	CHECK(dlock_lock_acquire(l[2], &o, &e) == DLOCK_ETIMEDOUT, "no third lease");
	CHECK(dlock_lock_self_conflict(l[2], hosts), "process holds every lease");
	dlock_lock_release(l[0], 0, &e); /* same session: its delete is ordered before the create */
	CHECK(dlock_lock_acquire(l[2], &o, &e) == DLOCK_OK, "lease after a release");
	for (i = 0; i < 3; i++) {
		dlock_lock_free(l[i]);
	}
}

#ifdef DLOCK_FAULT_INJECTION
static void test_faults(void)
{
	const char *path = "/dlock-tests/core/faults";
	dlock_session_cfg c = cfg_n(40);
	dlock_acquire_opts o = opts(&c, 5000);
	dlock_lock *l = new_lock(DLOCK_KIND_MUTEX, 1, path), *h = new_lock(DLOCK_KIND_MUTEX, 1, path);
	dlock_session_cfg ch = cfg_n(41);
	dlock_acquire_opts oh = opts(&ch, -1);
	int rc;
	dlock_err e;

	dlock_fault_arm(DLOCK_FAULT_CREATE_REPLY_LOST, 1);
	rc = dlock_lock_acquire(l, &o, &e);
	CHECK(rc == DLOCK_OK && dlock_fault_fired(DLOCK_FAULT_CREATE_REPLY_LOST) == 1,
	      "lost create reply: node found by GUID and adopted (%s %s)", dlock_status_name(rc),
	      e.msg);
	CHECK(children(path) == 1, "no orphan after a lost create reply (%d)", children(path));
	CHECK(dlock_lock_verify(l, &e) == DLOCK_OK, "adopted node is ours");

	dlock_fault_arm(DLOCK_FAULT_DELETE_CONNLOSS, 2);
	CHECK(dlock_lock_release(l, 0, &e) == DLOCK_OK, "release with a failing delete");
	CHECK(wait_children(path, 0), "the retry thread deleted the node");

	CHECK(dlock_lock_acquire(h, &oh, &e) == DLOCK_OK, "holder for the wait faults");
	dlock_fault_arm(DLOCK_FAULT_LIST_CONNLOSS, 1);
	dlock_fault_arm(DLOCK_FAULT_WATCH_CONNLOSS, 1);
	o.timeout_ms = 300;
	rc = dlock_lock_acquire(l, &o, &e);
	CHECK(rc == DLOCK_ETIMEDOUT && dlock_fault_fired(DLOCK_FAULT_LIST_CONNLOSS) == 1 &&
	          dlock_fault_fired(DLOCK_FAULT_WATCH_CONNLOSS) == 1,
	      "list and watch losses ridden out (%s)", dlock_status_name(rc));
	CHECK(children(path) == 1, "waiter's node withdrawn after the timeout");
	dlock_fault_arm(DLOCK_FAULT_DELETE_CONNLOSS, 1);
	o.timeout_ms = 200;
	rc = dlock_lock_acquire(l, &o, &e);
	CHECK(rc == DLOCK_ETIMEDOUT, "timeout with a failing withdraw");
	CHECK(wait_children(path, 1), "failed withdraw retried in the background");
	dlock_lock_release(h, 0, &e);
	dlock_lock_free(l);
	dlock_lock_free(h);
}
#endif

static void test_unreachable(void)
{
	dlock_session_cfg cfg = {"127.0.0.1:1", 4000, 500, NULL};
	dlock_session *s = NULL;
	dlock_err e;
	int64_t t0 = dlock_now_ms();
	int rc = dlock_session_open(&cfg, NULL, &s, &e);

	CHECK(rc == DLOCK_ECONNECT && !s, "closed port: %s", dlock_status_name(rc));
	CHECK(dlock_now_ms() - t0 < 2000, "gave up within the connect timeout");
}

/* SHA-256 against FIPS 180-4's examples, padding edges, and PostgreSQL's
 * key of "orders" (SELECT ('x' || left(encode(sha256('orders'), 'hex'),
 * 16))::bit(64)::bigint, run on PostgreSQL 15). */
static void test_sha256(void)
{
	static const struct {
		const char *in;
		size_t repeat;
		const char *hex;
	} v[] = {
	    {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	    {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	    {"a", 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	    {"b", 200, "aaebc35c4c4e2cc7ac7c65812a7fa476d807b9f3fc60d478dfe098ceeb122321"},
	};
	char buf[256], hex[65];
	unsigned char d[32];
	size_t i, j;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = strlen(v[i].in) * v[i].repeat;

		for (j = 0; j < v[i].repeat; j++) {
			memcpy(buf + j * strlen(v[i].in), v[i].in, strlen(v[i].in));
		}
		dlock_sha256(buf, n, d);
		for (j = 0; j < 32; j++) {
			snprintf(hex + 2 * j, 3, "%02x", d[j]);
		}
		CHECK(strcmp(hex, v[i].hex) == 0, "sha256 vector %zu: %s", i, hex);
	}
	CHECK(dlock_sha256_key("orders", 6) == 2023957755765852388LL, "key of orders: %lld",
	      (long long)dlock_sha256_key("orders", 6));
	CHECK(dlock_sha256_key("abc", 3) == -5010229573455851542LL, "negative key of abc");
}

/* SQL DSNs: defaults, credentials, errors that never echo a password. */
static void test_sql_dsn(void)
{
	dlock_target t;
	dlock_err err;
	char where[256];

	memset(&t, 0, sizeof(t));
	CHECK(dlock_dsn_parse("postgres://u:p%40ss@db1/shop", 28, &t, &err) == DLOCK_OK &&
	          t.backend == DLOCK_BACKEND_POSTGRES && t.port == 5432 &&
	          strcmp(t.password, "p@ss") == 0 && strcmp(t.dbname, "shop") == 0,
	      "postgres DSN");
	dlock_target_where(&t, where, sizeof(where));
	CHECK(strcmp(where, "postgres://u@db1:5432/shop") == 0 && !strstr(where, "p@ss"), "where %s",
	      where);
	CHECK(dlock_dsn_parse("mariadb://root@[::1]:3307", 25, &t, &err) == DLOCK_OK &&
	          t.backend == DLOCK_BACKEND_MYSQL && t.port == 3307 && !t.password && !t.dbname &&
	          strcmp(t.user, "root") == 0,
	      "mariadb DSN with a user alone and no database");
	CHECK(dlock_dsn_parse("mysql://u:secret@h/bad db", 25, &t, &err) == DLOCK_EINVAL &&
	          !strstr(err.msg, "secret"),
	      "bad database name: %s", err.msg);
	CHECK(dlock_dsn_parse("postgres://u:secret@h:99999/db", 30, &t, &err) == DLOCK_EINVAL &&
	          !strstr(err.msg, "secret"),
	      "bad port: %s", err.msg);
	dlock_target_clear(&t);
}

int main(void)
{
	dlock_zklog_configure(NULL, NULL);
	test_paths();
	test_hosts();
	test_hosts_space();
	test_names();
	test_rules();
	test_sha256();
	test_sql_dsn();
	hosts = getenv("DLOCK_TEST_HOSTS");
	if (!hosts || !*hosts) {
		printf("not ok: DLOCK_TEST_HOSTS is not set; server tests not run\n");
		failed++;
	} else {
		test_server();
		test_no_herd();
		test_read_write();
		test_semaphore();
		test_downgrade_guard();
		test_semaphore_watch();
#ifdef DLOCK_FAULT_INJECTION
		test_faults();
#endif
		test_unreachable();
		dlock_pool_shutdown();
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
