/* test_zk_server.c: the ZooKeeper lock recipe against a real server
 * ($DLOCK_TEST_HOSTS): holds, queues without a herd, read-write, semaphores,
 * the downgrade guard; with a fault-injection build, recovery from lost
 * replies and deletes; an unreachable server. Also the harness helpers
 * those tests share (sessions, raw children counts, waiter threads). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_core.h"
#include "../zk/dlock_zk_lock.h"
#include "../zk/dlock_zk_pool.h"
#include "../zk/dlock_zk_queue.h"
#include "../zk/dlock_zk_session.h"
#include "../dlock_fault.h"

/* Session settings; distinct session timeouts give distinct pooled sessions. */
static dlock_session_cfg cfg_n(int n)
{
	dlock_session_cfg c = {hosts, 4000 + n, 5000, NULL};

	return c;
}

static dlock_acquire_opts opts(const dlock_session_cfg *c, int64_t timeout_ms)
{
	dlock_acquire_opts o = {c, "t", 1, timeout_ms, NULL, NULL, 0, NULL, NULL, 0};

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

void test_server(void)
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
void test_no_herd(void)
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
void test_downgrade_guard(void)
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

void test_semaphore_watch(void)
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

void test_read_write(void)
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

void test_semaphore(void)
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
void test_faults(void)
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

void test_unreachable(void)
{
	dlock_session_cfg cfg = {"127.0.0.1:1", 4000, 500, NULL};
	dlock_session *s = NULL;
	dlock_err e;
	int64_t t0 = dlock_now_ms();
	int rc = dlock_session_open(&cfg, NULL, &s, &e);

	CHECK(rc == DLOCK_ECONNECT && !s, "closed port: %s", dlock_status_name(rc));
	CHECK(dlock_now_ms() - t0 < 2000, "gave up within the connect timeout");
}
