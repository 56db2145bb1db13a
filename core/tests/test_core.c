/* test_core.c: tests of the lock core without PHP. Pure checks run always; the
 * rest run against the ZooKeeper named by $DLOCK_TEST_HOSTS (required). Prints
 * one line per check and a final "N passed, N failed". */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../dlock_core.h"

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
	static const char *bad[] = {"",       "a",     "/",     "/a/",          "//a",
	                            "/a//b",  "/./a",  "/a/..", "/zookeeper",   "/zookeeper/quota",
	                            "/a\x01", "/\xff", "/\xc3", "/\xed\xa0\x80"};
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

static void test_names(void)
{
	int32_t s = 0;
	char g1[DLOCK_GUID_LEN + 1], g2[DLOCK_GUID_LEN + 1];

	CHECK(dlock_name_seq("_c_abc-lock-0000000042", "lock-", &s) && s == 42, "seq parse");
	CHECK(dlock_name_seq("_c_x-lock-y-lock-0000000007", "lock-", &s) && s == 7, "last marker");
	CHECK(dlock_name_seq("_c_x-lock--2147483648", "lock-", &s) && s == INT32_MIN, "negative seq");
	CHECK(!dlock_name_seq("_c_x-__READ__0000000001", "lock-", &s), "foreign node ignored");
	CHECK(!dlock_name_seq("_c_x-lock-12a", "lock-", &s), "junk suffix ignored");
	CHECK(!dlock_name_seq("_c_x-lock-", "lock-", &s), "empty suffix ignored");
	CHECK(dlock_seq_cmp(1, 2) < 0 && dlock_seq_cmp(2, 1) > 0 && dlock_seq_cmp(5, 5) == 0,
	      "seq order");
	CHECK(dlock_seq_cmp(INT32_MAX, INT32_MIN) < 0, "wrapped counter sorts after INT32_MAX");
	CHECK(dlock_guid(g1, NULL) == DLOCK_OK && dlock_guid(g2, NULL) == DLOCK_OK &&
	          strlen(g1) == DLOCK_GUID_LEN && strcmp(g1, g2) != 0 && g1[14] == '4',
	      "guid");
}

static dlock_session *open_session(void)
{
	dlock_session_cfg cfg = {hosts, 4000, 5000};
	dlock_session *s = NULL;
	dlock_err e;
	int rc = dlock_session_open(&cfg, NULL, &s, &e);

	CHECK(rc == DLOCK_OK, "session open: %s %s", dlock_status_name(rc), e.msg);
	return s;
}

static int children(dlock_session *s, const char *path)
{
	struct String_vector v = {0, NULL};
	int n;

	if (zoo_get_children(dlock_session_zh(s), path, 0, &v) != ZOK) {
		return -1;
	}
	n = v.count;
	deallocate_String_vector(&v);
	return n;
}

typedef struct waiter {
	dlock_session *s;
	dlock_mutex *m;
	int rc;
	int64_t got_at;
} waiter;

static void *waiter_run(void *arg)
{
	waiter *w = arg;
	dlock_err e;

	w->rc = dlock_mutex_acquire(w->m, w->s, "w", 1, 10000, NULL, &e);
	w->got_at = dlock_now_ms();
	return NULL;
}

static void test_server(void)
{
	const char *path = "/dlock-tests/core/basic";
	dlock_session *a = open_session(), *b = open_session();
	dlock_mutex *ma = NULL, *mb = NULL;
	dlock_err e;
	int64_t t0, tok1, tok2;
	pthread_t th;
	waiter w;
	int rc;

	if (!a || !b) {
		return;
	}
	CHECK(dlock_mutex_new(path, strlen(path), &ma, &e) == DLOCK_OK, "new");
	CHECK(dlock_mutex_new(path, strlen(path), &mb, &e) == DLOCK_OK, "new");
	rc = dlock_mutex_acquire(ma, a, "a", 1, -1, NULL, &e);
	CHECK(rc == DLOCK_OK && dlock_mutex_held(ma), "acquire: %s %s", dlock_status_name(rc), e.msg);
	tok1 = dlock_mutex_token(ma);
	CHECK(tok1 > 0, "token set");
	CHECK(strstr(dlock_mutex_node(ma), "/_c_") && strstr(dlock_mutex_node(ma), "-lock-"),
	      "curator-style node name %s", dlock_mutex_node(ma));
	CHECK(dlock_mutex_acquire(ma, a, "a", 1, -1, NULL, &e) == DLOCK_OK &&
	          dlock_mutex_holds(ma) == 2,
	      "reentrant acquire counts");

	rc = dlock_mutex_acquire(mb, b, "b", 1, 0, NULL, &e);
	CHECK(rc == DLOCK_ETIMEDOUT && !dlock_mutex_held(mb), "try fails while held: %s",
	      dlock_status_name(rc));
	t0 = dlock_now_ms();
	rc = dlock_mutex_acquire(mb, b, "b", 1, 300, NULL, &e);
	CHECK(rc == DLOCK_ETIMEDOUT && dlock_now_ms() - t0 >= 290, "timed acquire times out");
	CHECK(children(a, path) == 1, "no node left after timeouts (%d)", children(a, path));

	w.s = b;
	w.m = mb;
	pthread_create(&th, NULL, waiter_run, &w);
	while (children(a, path) < 2) {
		usleep(1000); /* test harness only: wait for the waiter's node to appear */
	}
	CHECK(dlock_mutex_release(ma, &e) == DLOCK_OK && dlock_mutex_held(ma),
	      "inner release keeps it");
	t0 = dlock_now_ms();
	CHECK(dlock_mutex_release(ma, &e) == DLOCK_OK && !dlock_mutex_held(ma), "last release");
	pthread_join(th, NULL);
	CHECK(w.rc == DLOCK_OK && dlock_mutex_held(mb), "waiter acquired after release");
	printf("# hand-over %lld ms\n", (long long)(w.got_at - t0));
	tok2 = dlock_mutex_token(mb);
	CHECK(tok2 > tok1, "fencing token grows (%lld > %lld)", (long long)tok2, (long long)tok1);
	CHECK(dlock_mutex_release(ma, &e) == DLOCK_ENOTHELD, "release when not held");
	CHECK(dlock_mutex_release(mb, &e) == DLOCK_OK, "release b");
	CHECK(children(a, path) == 0, "queue empty at the end");
	dlock_mutex_free(ma);
	dlock_mutex_free(mb);
	dlock_session_unref(a);
	dlock_session_unref(b);
}

/* Three waiters queued behind one holder: one release notifies exactly one. */
static void test_no_herd(void)
{
	const char *path = "/dlock-tests/core/herd";
	enum { N = 3 };
	dlock_session *s[N + 1];
	dlock_mutex *m[N + 1];
	waiter w[N];
	pthread_t th[N];
	uint64_t before = 0, after = 0;
	dlock_err e;
	int i;

	for (i = 0; i <= N; i++) {
		s[i] = open_session();
		if (!s[i]) {
			return;
		}
		dlock_mutex_new(path, strlen(path), &m[i], &e);
	}
	CHECK(dlock_mutex_acquire(m[0], s[0], "h", 1, -1, NULL, &e) == DLOCK_OK, "holder");
	for (i = 0; i < N; i++) {
		w[i].s = s[i + 1];
		w[i].m = m[i + 1];
		w[i].rc = -1;
		pthread_create(&th[i], NULL, waiter_run, &w[i]);
		while (children(s[0], path) < i + 2) {
			usleep(1000);
		}
	}
	usleep(100000); /* let every waiter arm its watch (observable only via the server) */
	for (i = 1; i <= N; i++) {
		before += dlock_session_notifications(s[i]);
	}
	dlock_mutex_release(m[0], &e);
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
		dlock_mutex_release(m[i + 1], &e);
	}
	for (i = 0; i <= N; i++) {
		dlock_mutex_free(m[i]);
		dlock_session_unref(s[i]);
	}
}

static void test_unreachable(void)
{
	dlock_session_cfg cfg = {"127.0.0.1:1", 4000, 500};
	dlock_session *s = NULL;
	dlock_err e;
	int64_t t0 = dlock_now_ms();
	int rc = dlock_session_open(&cfg, NULL, &s, &e);

	CHECK(rc == DLOCK_ECONNECT && !s, "closed port: %s", dlock_status_name(rc));
	CHECK(dlock_now_ms() - t0 < 2000, "gave up within the connect timeout");
}

int main(void)
{
	dlock_zklog_configure(NULL, NULL);
	test_paths();
	test_hosts();
	test_names();
	hosts = getenv("DLOCK_TEST_HOSTS");
	if (!hosts || !*hosts) {
		printf("not ok: DLOCK_TEST_HOSTS is not set; server tests not run\n");
		failed++;
	} else {
		test_server();
		test_no_herd();
		test_unreachable();
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
