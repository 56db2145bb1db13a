/* test_my.c: tests of the MySQL/MariaDB driver (dlock_my_driver) against a
 * real server started by scripts/servers/mysql.sh on $DLOCK_TEST_MYSQL_PORT (default
 * 23306; user dlock/dlock, database dlock). Starts nothing itself. Prints
 * "ok N - what" / "not ok N - what" per check, then "N passed, N failed".
 * DLOCK_TEST_NO_BENCH=1 skips the 1000-cycle timing; RACE_N=300 runs the
 * grant-against-cancel race 300 times instead of 10.
 *   gcc -std=gnu11 -Wall -Wextra -Werror -g -I/usr/include/mariadb \
 *       -o core/sql/tests/test_my core/sql/tests/test_my.c core/sql/dlock_my*.c \
 *       core/dlock_err.c core/dlock_wait.c core/dlock_participant.c core/dlock_dsn*.c
 * core/dlock_target.c \ core/dlock_name.c -lmariadb -lpthread */
#include <mysql.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../dlock_wait.h"
#include "../dlock_sql_driver.h"

static int passed, failed, seq;

static void check(int cond, const char *what, const dlock_err *e)
{
	seq++;
	if (cond) {
		passed++;
		printf("ok %d - %s\n", seq, what);
	} else {
		failed++;
		printf("not ok %d - %s%s%s\n", seq, what, e && e->msg[0] ? ": " : "", e ? e->msg : "");
	}
	fflush(stdout);
}

static const dlock_sql_driver *drv = &dlock_my_driver;
static dlock_target target;

static void target_init(void)
{
	const char *p = getenv("DLOCK_TEST_MYSQL_PORT");

	memset(&target, 0, sizeof(target));
	target.backend = DLOCK_BACKEND_MYSQL;
	target.connect_timeout_ms = 2000;
	target.host = "127.0.0.1";
	target.port = p && *p ? atoi(p) : 23306;
	target.user = "dlock";
	target.password = "dlock";
	target.dbname = "dlock";
}

static dlock_sql_conn *conn(void)
{
	dlock_sql_conn *c = NULL;
	dlock_err e = {0};

	if (drv->connect(&target, -1, NULL, &c, &e) != DLOCK_OK) {
		printf("# connect failed: %s\n", e.msg);
		return NULL;
	}
	return c;
}

/* An administrative statement over a plain blocking Connector/C session. */
static int admin(const char *sql)
{
	MYSQL *my = mysql_init(NULL);
	int rc = -1;

	if (my && mysql_real_connect(my, target.host, target.user, target.password, target.dbname,
	                             (unsigned int)target.port, NULL, 0)) {
		rc = mysql_query(my, sql);
		if (rc) {
			printf("# admin %s: %s\n", sql, mysql_error(my));
		}
	}
	mysql_close(my);
	return rc;
}

/* The first column of the first row of sql as an integer (-1: an error or NULL). */
static long long admin_value(const char *sql)
{
	MYSQL *my = mysql_init(NULL);
	long long v = -1;
	MYSQL_RES *res;
	MYSQL_ROW row;

	if (my &&
	    mysql_real_connect(my, target.host, target.user, target.password, target.dbname,
	                       (unsigned int)target.port, NULL, 0) &&
	    mysql_query(my, sql) == 0 && (res = mysql_store_result(my))) {
		if ((row = mysql_fetch_row(res)) && row[0]) {
			v = strtoll(row[0], NULL, 10);
		}
		mysql_free_result(res);
	}
	mysql_close(my);
	return v;
}

static int try_lock(dlock_sql_conn *c, const char *name, size_t len, int64_t *tok, dlock_err *e)
{
	return drv->lock(c, name, len, 0, 0, dlock_now_ms() + 5000, NULL, tok, e);
}

static int fire_at_ms;
static int64_t fire_from;

static int intr_after(void *arg)
{
	(void)arg;
	return dlock_now_ms() - fire_from >= fire_at_ms;
}

static void test_connect(void)
{
	dlock_target t = target;
	dlock_sql_conn *c = NULL;
	dlock_err e = {0};
	char where[32];
	int64_t t0;
	int rc;

	c = conn();
	check(c && drv->session_id(c) > 0, "connect, session id", NULL);
	check(c && drv->alive(c), "fresh connection is alive", NULL);
	drv->close(c);

	t.password = "wrong";
	c = NULL;
	rc = drv->connect(&t, -1, NULL, &c, &e);
	check(rc == DLOCK_EAUTH && !c && !strstr(e.msg, "wrong"), "bad password: DLOCK_EAUTH", &e);

	/* the server hides whether a database the user may not see exists */
	t = target;
	t.dbname = "no_such_db";
	rc = drv->connect(&t, -1, NULL, &c, &e);
	check(rc == DLOCK_EAUTH && strstr(e.msg, "no_such_db"),
	      "database the user may not use: DLOCK_EAUTH", &e);
	t.user = "root"; /* scripts/servers/mysql.sh: root@127.0.0.1 has no password */
	t.password = NULL;
	rc = drv->connect(&t, -1, NULL, &c, &e);
	check(rc == DLOCK_ESERVER && strstr(e.msg, "no_such_db"), "unknown database: DLOCK_ESERVER",
	      &e);

	t = target;
	t.port = target.port + 93; /* nothing listens there (this run's port block) */
	snprintf(where, sizeof(where), "127.0.0.1:%d", t.port);
	t0 = dlock_now_ms();
	rc = drv->connect(&t, -1, NULL, &c, &e);
	check(rc == DLOCK_ECONNECT && dlock_now_ms() - t0 < t.connect_timeout_ms + 500 &&
	          strstr(e.msg, where),
	      "nothing listening: DLOCK_ECONNECT naming host:port", &e);

	/* a black-holed address: the connect timeout itself */
	t = target;
	t.host = "10.255.255.1";
	t.connect_timeout_ms = 300;
	t0 = dlock_now_ms();
	rc = drv->connect(&t, -1, NULL, &c, &e);
	check(rc == DLOCK_ECONNECT && dlock_now_ms() - t0 < 300 + 300,
	      "unanswered connect: DLOCK_ECONNECT within connect_timeout", &e);

	t = target;
	fire_at_ms = 0;
	fire_from = dlock_now_ms();
	{
		dlock_interrupt in = {intr_after, NULL};

		t.host = "10.255.255.1";
		t.connect_timeout_ms = 5000;
		t0 = dlock_now_ms();
		rc = drv->connect(&t, -1, &in, &c, &e);
		check((rc == DLOCK_EINTR && dlock_now_ms() - t0 < 300) || rc == DLOCK_ECONNECT,
		      "interrupted connect: DLOCK_EINTR at once", &e);
	}
}

static void test_basic(void)
{
	dlock_sql_conn *a = conn(), *b = conn();
	dlock_participant *p = NULL;
	int64_t tok = 0, tok2 = 0, t0, el;
	size_t n = 0;
	dlock_err e = {0};
	int rc;

	if (!a || !b) {
		check(0, "two connections", NULL);
		goto out;
	}
	check(drv->lock(a, "t-basic", 7, 1, 0, -1, NULL, &tok, &e) == DLOCK_EUNSUPPORTED,
	      "shared lock: DLOCK_EUNSUPPORTED", &e);
	rc = try_lock(a, "t-basic", 7, &tok, &e);
	check(rc == DLOCK_OK && tok > 0, "lock", &e);
	check(drv->check(a, "t-basic", 7, 0, -1, &e) == DLOCK_OK, "check: held", &e);
	check(drv->check(b, "t-basic", 7, 0, -1, &e) == DLOCK_ENOTHELD, "check elsewhere: not held",
	      &e);
	check(try_lock(b, "t-basic", 7, &tok2, &e) == DLOCK_ETIMEDOUT, "second session's try fails",
	      &e);
	check(drv->participants(b, "t-basic", 7, -1, &p, &n, &e) == DLOCK_OK && n == 1 &&
	          atoll(p[0].name) == drv->session_id(a) && p[0].holder && p[0].writer &&
	          p[0].token == tok,
	      "participants: the holder's connection id and token", &e);
	dlock_participants_free(p, n);
	t0 = dlock_now_ms();
	rc = drv->lock(b, "t-basic", 7, 0, 300, dlock_now_ms() + 5000, NULL, &tok2, &e);
	el = dlock_now_ms() - t0;
	check(rc == DLOCK_ETIMEDOUT && el >= 290 && el < 300 + 300,
	      "timed wait: DLOCK_ETIMEDOUT in time", &e);
	printf("# timed wait of 300 ms took %lld ms\n", (long long)el);
	check(drv->unlock(a, "t-basic", 7, 0, -1, &e) == DLOCK_OK, "unlock", &e);
	check(drv->unlock(a, "t-basic", 7, 0, -1, &e) == DLOCK_ENOTHELD, "second unlock: ENOTHELD", &e);
	check(drv->check(a, "t-basic", 7, 0, -1, &e) == DLOCK_ENOTHELD, "check after unlock", &e);
	check(drv->participants(b, "t-basic", 7, -1, &p, &n, &e) == DLOCK_OK && n == 0,
	      "participants: none", &e);
	rc = try_lock(b, "t-basic", 7, &tok2, &e);
	check(rc == DLOCK_OK && tok2 == tok + 1, "other session takes it, token + 1", &e);
	rc = try_lock(a, "t-basic", 7, &tok, &e) == DLOCK_ETIMEDOUT &&
	     drv->unlock(b, "t-basic", 7, 0, -1, &e) == DLOCK_OK &&
	     try_lock(a, "t-basic", 7, &tok, &e) == DLOCK_OK && tok == tok2 + 1 &&
	     drv->unlock(a, "t-basic", 7, 0, -1, &e) == DLOCK_OK;
	check(rc, "tokens increase by 1 per acquire across connections", &e);
out:
	drv->close(a);
	drv->close(b);
}

static void test_names(void)
{
	static const char odd[] = "o'r\"d\\e\\'rs\x01\x7f\xff\xfe%_ \t\n;--";
	dlock_sql_conn *a = conn(), *b = conn();
	char n100[100], n1024[DLOCK_SQL_NAME_MAX], m1024[DLOCK_SQL_NAME_MAX];
	int64_t tok = 0;
	dlock_err e = {0};
	int ok;

	if (!a || !b) {
		check(0, "two connections", NULL);
		goto out;
	}
	memset(n100, 'n', sizeof(n100));
	memset(n1024, 'n', sizeof(n1024));
	memcpy(m1024, n1024, sizeof(m1024));
	m1024[sizeof(m1024) - 1] = 'm';
	ok = try_lock(a, n100, sizeof(n100), &tok, &e) == DLOCK_OK &&
	     try_lock(b, n1024, sizeof(n1024), &tok, &e) == DLOCK_OK &&
	     try_lock(b, m1024, sizeof(m1024), &tok, &e) == DLOCK_OK;
	check(ok, "100-byte and 1024-byte names: held apart", &e);
	check(try_lock(a, n1024, sizeof(n1024), &tok, &e) == DLOCK_ETIMEDOUT &&
	          try_lock(b, n100, sizeof(n100), &tok, &e) == DLOCK_ETIMEDOUT,
	      "long names exclude other sessions", &e);
	check(drv->check(b, n1024, sizeof(n1024), 0, -1, &e) == DLOCK_OK &&
	          drv->unlock(b, n1024, sizeof(n1024), 0, -1, &e) == DLOCK_OK &&
	          drv->unlock(b, m1024, sizeof(m1024), 0, -1, &e) == DLOCK_OK &&
	          drv->unlock(a, n100, sizeof(n100), 0, -1, &e) == DLOCK_OK,
	      "long names: check and unlock", &e);
	ok = try_lock(a, odd, sizeof(odd) - 1, &tok, &e) == DLOCK_OK &&
	     try_lock(b, odd, sizeof(odd) - 1, &tok, &e) == DLOCK_ETIMEDOUT &&
	     drv->check(a, odd, sizeof(odd) - 1, 0, -1, &e) == DLOCK_OK &&
	     drv->unlock(a, odd, sizeof(odd) - 1, 0, -1, &e) == DLOCK_OK;
	check(ok, "quotes, backslashes and binary bytes in a name", &e);
	check(try_lock(a, "a\0b", 3, &tok, &e) == DLOCK_EINVAL &&
	          try_lock(a, "", 0, &tok, &e) == DLOCK_EINVAL,
	      "NUL byte or empty name: DLOCK_EINVAL", &e);
	/* interoperates with a hand-written GET_LOCK on the same server: the
	 * server's name is "<database>.<name>" */
	ok = try_lock(a, "t-plain", 7, &tok, &e) == DLOCK_OK &&
	     admin_value("SELECT GET_LOCK('dlock.t-plain', 0)") == 0 &&
	     admin_value("SELECT GET_LOCK('t-plain', 0)") == 1 &&
	     drv->unlock(a, "t-plain", 7, 0, -1, &e) == DLOCK_OK;
	check(ok, "a short name is the server's lock name <database>.<name>", &e);
out:
	drv->close(a);
	drv->close(b);
}

static void *unlock_later(void *arg)
{
	dlock_sql_conn *a = arg;
	dlock_err e = {0};

	usleep(100 * 1000);
	drv->unlock(a, "t-race", 6, 0, -1, &e);
	return NULL;
}

static void test_interrupt(void)
{
	dlock_sql_conn *a = conn(), *b = conn(), *c = conn();
	dlock_interrupt in = {intr_after, NULL};
	int64_t tok = 0, t0, el;
	int rc, i, ok, grants = 0, intrs = 0;
	dlock_err e = {0};

	if (!a || !b || !c) {
		check(0, "three connections", NULL);
		goto out;
	}
	try_lock(a, "t-intr", 6, &tok, &e);
	fire_at_ms = 100;
	fire_from = t0 = dlock_now_ms();
	rc = drv->lock(b, "t-intr", 6, 0, -1, -1, &in, &tok, &e);
	el = dlock_now_ms() - t0;
	check(rc == DLOCK_EINTR && el >= 100 && el < 100 + 500, "interrupt cancels a blocked wait", &e);
	printf("# interrupted after %lld ms\n", (long long)el);
	check(drv->alive(b) && drv->check(b, "t-intr", 6, 0, -1, &e) == DLOCK_ENOTHELD,
	      "interrupted session holds nothing and is usable", &e);
	ok = drv->unlock(a, "t-intr", 6, 0, -1, &e) == DLOCK_OK &&
	     try_lock(c, "t-intr", 6, &tok, &e) == DLOCK_OK &&
	     drv->unlock(c, "t-intr", 6, 0, -1, &e) == DLOCK_OK &&
	     try_lock(b, "t-intr", 6, &tok, &e) == DLOCK_OK &&
	     drv->unlock(b, "t-intr", 6, 0, -1, &e) == DLOCK_OK;
	check(ok, "after the interrupt another session takes it, then the interrupted one", &e);

	/* the reply deadline passing mid-wait means a silent server: the
	 * connection is given up at once (no cancel round trips that could
	 * stretch the call) and its session, with any late grant, ends */
	try_lock(a, "t-intr", 6, &tok, &e);
	t0 = dlock_now_ms();
	rc = drv->lock(b, "t-intr", 6, 0, -1, t0 + 200, NULL, &tok, &e);
	el = dlock_now_ms() - t0;
	check(rc == DLOCK_ECONNLOSS && el < 200 + 100 &&
	          drv->check(b, "t-intr", 6, 0, -1, &e) == DLOCK_ECONNLOSS,
	      "io_deadline mid-wait: the connection is given up at the deadline", &e);
	drv->close(b);
	b = conn();
	drv->unlock(a, "t-intr", 6, 0, -1, &e);
	/* the given-up session's server thread may still be in its GET_LOCK and
	 * be granted the release before the server sees its client gone; the
	 * grant ends when it fails to send the answer: wait for it (bounded) */
	check(b && drv->lock(b, "t-intr", 6, 0, 5000, -1, NULL, &tok, &e) == DLOCK_OK &&
	          drv->unlock(b, "t-intr", 6, 0, -1, &e) == DLOCK_OK,
	      "a new session takes the lock after that", &e);

	/* a grant racing the cancel: whatever wins, never a hold nobody knows of */
	ok = 1;
	for (i = 0; i < (getenv("RACE_N") ? atoi(getenv("RACE_N")) : 10) && ok; i++) {
		pthread_t th;

		try_lock(a, "t-race", 6, &tok, &e);
		fire_at_ms = 95 + i % 10;
		fire_from = dlock_now_ms();
		pthread_create(&th, NULL, unlock_later, a);
		rc = drv->lock(b, "t-race", 6, 0, -1, -1, &in, &tok, &e);
		pthread_join(th, NULL);
		if (rc == DLOCK_OK) {
			grants++;
			ok = drv->unlock(b, "t-race", 6, 0, -1, &e) == DLOCK_OK;
		} else if (rc == DLOCK_EINTR) {
			intrs++;
			ok = try_lock(c, "t-race", 6, &tok, &e) == DLOCK_OK &&
			     drv->unlock(c, "t-race", 6, 0, -1, &e) == DLOCK_OK;
		} else {
			ok = 0;
		}
	}
	printf("# race of grant and cancel: %d granted, %d interrupted\n", grants, intrs);
	check(ok, "grant racing the cancel: held exactly when DLOCK_OK", &e);

	/* a waiter granted when the holder lets go gets the next token */
	if (try_lock(a, "t-race", 6, &tok, &e) == DLOCK_OK) {
		pthread_t th;
		int64_t tok2 = 0;

		t0 = dlock_now_ms();
		pthread_create(&th, NULL, unlock_later, a);
		rc = drv->lock(b, "t-race", 6, 0, 5000, -1, NULL, &tok2, &e);
		el = dlock_now_ms() - t0;
		pthread_join(th, NULL);
		check(rc == DLOCK_OK && tok2 == tok + 1 && el >= 90 && el < 1000 &&
		          drv->unlock(b, "t-race", 6, 0, -1, &e) == DLOCK_OK,
		      "waiter granted on release, token + 1", &e);
	} else {
		check(0, "waiter granted on release, token + 1", &e);
	}
out:
	drv->close(a);
	drv->close(b);
	drv->close(c);
}

static void test_kill(void)
{
	dlock_sql_conn *a = conn(), *b = conn();
	int64_t tok = 0, t0;
	char sql[64];
	dlock_err e = {0};
	int alive = 1;

	if (!a || !b) {
		check(0, "two connections", NULL);
		goto out;
	}
	try_lock(a, "t-kill", 6, &tok, &e);
	snprintf(sql, sizeof(sql), "KILL CONNECTION %lld", (long long)drv->session_id(a));
	check(admin(sql) == 0, "KILL CONNECTION of the holder", NULL);
	t0 = dlock_now_ms();
	while (dlock_now_ms() - t0 < 2000 && (alive = drv->alive(a))) {
		usleep(5000);
	}
	check(!alive, "killed holder: alive() turns 0", NULL);
	printf("# alive() saw the kill after %lld ms\n", (long long)(dlock_now_ms() - t0));
	check(drv->check(a, "t-kill", 6, 0, -1, &e) == DLOCK_ECONNLOSS,
	      "killed holder: check() ECONNLOSS", &e);
	check(drv->lock(a, "t-kill", 6, 0, 0, -1, NULL, &tok, &e) == DLOCK_ECONNLOSS,
	      "killed holder: lock() ECONNLOSS", &e);
	/* the server shuts the victim's socket down first and frees its locks
	 * when the victim's thread has cleaned up: moments later, so wait */
	check(drv->lock(b, "t-kill", 6, 0, 2000, dlock_now_ms() + 4000, NULL, &tok, &e) == DLOCK_OK,
	      "killed holder's lock is free within 2 s", &e);
out:
	drv->close(a);
	drv->close(b);
}

static void test_fork(void)
{
	dlock_sql_conn *a = conn(), *b = conn();
	int64_t tok = 0;
	dlock_err e = {0};
	pid_t pid;
	int st = -1;

	if (!a || !b) {
		check(0, "two connections", NULL);
		goto out;
	}
	try_lock(a, "t-fork", 6, &tok, &e);
	fflush(stdout);
	if ((pid = fork()) == 0) {
		/* every operation on the parent's session is refused, nothing sent:
		 * alive, an unlock, a ping, a check */
		int refused = !drv->alive(a) &&
		              drv->unlock(a, "t-fork", 6, 0, -1, NULL) == DLOCK_ECONNLOSS &&
		              drv->ping(a, -1, NULL) == DLOCK_ECONNLOSS &&
		              drv->check(a, "t-fork", 6, 0, -1, NULL) == DLOCK_ECONNLOSS;

		drv->abandon(a);
		_exit(refused ? 0 : 3);
	}
	waitpid(pid, &st, 0);
	usleep(50 * 1000);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0 && drv->alive(a) &&
	          drv->check(a, "t-fork", 6, 0, -1, &e) == DLOCK_OK,
	      "fork child: every call on the parent's session refused; abandons; parent still holds",
	      &e);
	check(try_lock(b, "t-fork", 6, &tok, &e) == DLOCK_ETIMEDOUT,
	      "fork child abandons: another session still cannot take it", &e);
	check(drv->unlock(a, "t-fork", 6, 0, -1, &e) == DLOCK_OK, "parent unlocks after the fork", &e);
out:
	drv->close(a);
	drv->close(b);
}

static void bench(void)
{
	dlock_sql_conn *a = conn();
	int64_t tok, t0;
	dlock_err e = {0};
	int i, n = 1000, ok = 1;

	if (!a) {
		return;
	}
	t0 = dlock_now_ms();
	for (i = 0; i < n && ok; i++) {
		ok = try_lock(a, "t-bench", 7, &tok, &e) == DLOCK_OK &&
		     drv->unlock(a, "t-bench", 7, 0, -1, &e) == DLOCK_OK;
	}
	check(ok, "1000 lock/unlock cycles", &e);
	printf("# %d lock+unlock cycles: %.1f us per cycle\n", n,
	       (double)(dlock_now_ms() - t0) * 1000.0 / n);
	drv->close(a);
}

int main(void)
{
	struct sigaction sa;

	target_init();
	test_connect();
	sigaction(SIGPIPE, NULL, &sa);
	check(sa.sa_handler == SIG_DFL, "Connector/C's init leaves SIGPIPE as it was", NULL);
	test_basic();
	test_names();
	test_interrupt();
	test_kill();
	test_fork();
	if (!getenv("DLOCK_TEST_NO_BENCH")) {
		bench();
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
