/* dlock_my.c: the MySQL/MariaDB driver of the SQL backend (dlock_my_driver):
 * exclusive locks held as the server's user-level locks (GET_LOCK) of one
 * session, with fencing tokens from the dlock_tokens table. The session
 * machinery (non-blocking I/O, cancel) is dlock_my_conn.c.
 *
 * Names. A lock name (1..DLOCK_SQL_NAME_MAX bytes, no NUL) of at most 64
 * bytes is the server lock name as is, so a hand-written GET_LOCK('orders', n)
 * in another program excludes dlock's "orders". A longer name becomes
 * "dlock:" + the first 58 hex digits of SHA2(name, 256), 64 characters,
 * computed by the server inside the statement (MySQL allows 64 characters,
 * MariaDB 192 bytes). Names always travel as hex literals X'...' (binary-safe,
 * nothing to escape; a binary string, so the server compares names as exact
 * bytes: "Orders" and "orders" are two locks, and so is a name with a
 * trailing space). Server lock names are SERVER-wide, not per database. Two
 * names that meet on the server by a hash collision only exclude each other,
 * never let two holders in. Tokens are kept per exact name (the row key is
 * the name's bytes).
 *
 * Acquire. A try first, in one round trip (multi-statement): GET_LOCK(n, 0)
 * into @dlock_ok, the token row bumped when it is 1, then both values: the
 * whole uncontended acquire. Only when that finds the lock taken and the
 * caller may wait, a single-statement GET_LOCK(n, left) waits in the server,
 * and a grant is followed by the token's round trip. The wait is a statement
 * of its own because of how MariaDB ends a cancelled multi-statement: a KILL
 * QUERY that lands between two of its statements ends it with no further
 * packet at all (seen on 10.11.19: the session sleeps, the client waits for
 * the next result for ever), while one that lands inside GET_LOCK makes it
 * return NULL and one that finds the session idle does nothing.
 *
 * No shared mode: the server has none for GET_LOCK (has_shared = 0; lock()
 * with shared != 0 returns DLOCK_EUNSUPPORTED).
 *
 * Queue: the holder only (IS_USED_LOCK). MariaDB does not list the sessions
 * waiting in GET_LOCK unless the METADATA_LOCK_INFO plugin is installed,
 * and MySQL only through performance_schema.metadata_locks: not read here.
 *
 * The session (connect with its settings, the token table, close) is
 * dlock_my_session.c. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_my_admin.h"
#include "dlock_my_conn.h"
#include "dlock_my_session.h"
#include "../dlock_dsn.h"

/* Longest name used as the server lock name as is, bytes. */
#define DLOCK_MY_PLAIN_MAX 64
/* Longest database name a DSN gives (dlock_dsn.c), bytes. */
#define DLOCK_MY_DB_MAX 64
/* GET_LOCK's timeout for "wait for ever", s: MariaDB 10.11 returns NULL for
 * a negative timeout, so a year it is. */
#define DLOCK_MY_FOREVER_S 31536000LL
/* Room for a name's hex literal, its server-name expression, and a statement
 * holding both twice. */
#define DLOCK_MY_HEX_MAX  (2 * (DLOCK_MY_DB_MAX + 1 + DLOCK_SQL_NAME_MAX) + 4)
#define DLOCK_MY_EXPR_MAX (DLOCK_MY_HEX_MAX + 48)
#define DLOCK_MY_SQL_MAX  (2 * DLOCK_MY_EXPR_MAX + 2 * DLOCK_MY_HEX_MAX + 512)

/* How long a side step (a cancel, an undo, a token after a wait) may take:
 * DLOCK_MY_SIDE_MS, or less when connect_timeout is shorter, so a stalled
 * server cannot stretch a timed call by more than connect_timeout. */
static int64_t dlock_my_side_ms(const dlock_sql_conn *c)
{
	return c->cfg.connect_timeout_ms > 0 && c->cfg.connect_timeout_ms < DLOCK_MY_SIDE_MS
	           ? c->cfg.connect_timeout_ms
	           : DLOCK_MY_SIDE_MS;
}

/* Checks name[0..len): 1..DLOCK_SQL_NAME_MAX bytes, no NUL. */
static int dlock_my_name_ok(const char *name, size_t len, dlock_err *err)
{
	if (!name || len == 0 || len > DLOCK_SQL_NAME_MAX) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "lock name must be 1 to %d bytes",
		                     DLOCK_SQL_NAME_MAX);
	}
	if (memchr(name, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "lock name must not contain NUL bytes");
	}
	return DLOCK_OK;
}

/* Writes name as a hex literal X'...' into hex (DLOCK_MY_HEX_MAX bytes). */
static void dlock_my_hex(char *hex, const char *name, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;
	char *o = hex;

	*o++ = 'X';
	*o++ = '\'';
	for (i = 0; i < len; i++) {
		*o++ = digits[(unsigned char)name[i] >> 4];
		*o++ = digits[(unsigned char)name[i] & 15];
	}
	*o++ = '\'';
	*o = '\0';
}

/* Writes the SQL expression of name's server lock name on c into expr
 * (DLOCK_MY_EXPR_MAX bytes) and name's hex literal into hex. The server lock
 * name is qualified by c's database, "<db>.<name>" (a DSN's database has no
 * "."; lower-cased at connect where the server folds database names, so every
 * spelling of one database gives one name), hashed when longer than
 * DLOCK_MY_PLAIN_MAX: GET_LOCK is server-wide
 * but the token table is per database, so a lock lives in one database, as
 * PostgreSQL's advisory locks do, and its tokens with it. */
static void dlock_my_names(const dlock_sql_conn *c, char *expr, char *hex, const char *name,
                           size_t len)
{
	const char *db = c->cfg.dbname ? c->cfg.dbname : "";
	size_t dlen = strnlen(db, DLOCK_MY_DB_MAX);
	char q[DLOCK_MY_DB_MAX + 1 + DLOCK_SQL_NAME_MAX], qhex[DLOCK_MY_HEX_MAX];

	memcpy(q, db, dlen);
	q[dlen] = '.';
	memcpy(q + dlen + 1, name, len);
	dlock_my_hex(qhex, q, dlen + 1 + len);
	dlock_my_hex(hex, name, len);
	if (dlen + 1 + len <= DLOCK_MY_PLAIN_MAX) {
		snprintf(expr, DLOCK_MY_EXPR_MAX, "%s", qhex);
	} else {
		snprintf(expr, DLOCK_MY_EXPR_MAX, "CONCAT('dlock:',LEFT(SHA2(%s,256),58))", qhex);
	}
}

/* Drops the hold a failed or cancelled acquire may have taken, so the
 * caller is never left holding a lock it does not know of: when granted is
 * zero, only if the statement's GET_LOCK said so (@dlock_ok = 1). Returns
 * DLOCK_OK or DLOCK_ECONNLOSS (then c is given up, which drops every hold
 * with the session), msg then telling both failures. */
static int dlock_my_undo(dlock_sql_conn *c, const char *expr, int granted, dlock_err *err)
{
	char sql[DLOCK_MY_EXPR_MAX + 96];
	dlock_my_query q;
	dlock_err e;
	int rc;

	snprintf(sql, sizeof(sql),
	         granted ? "SELECT RELEASE_LOCK(%s)"
	                 : "SELECT IF(@dlock_ok = 1, RELEASE_LOCK(%s), 0); SET @dlock_ok = NULL",
	         expr);
	rc = dlock_my_simple(c, sql, 1, dlock_now_ms() + dlock_my_side_ms(c),
	                     "release after a failed lock", &q, &e);
	if (rc != DLOCK_OK) {
		char first[121];

		snprintf(first, sizeof(first), "%.120s", err ? err->msg : "");
		c->broken = 1;
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s; then %.120s", first, e.msg);
	}
	return DLOCK_OK;
}

/* The first try, in one round trip: GET_LOCK without waiting, the token
 * bumped only when it granted (LAST_INSERT_ID(x) hands x back to the
 * session), and both values. Returns DLOCK_OK (*got = GET_LOCK's 1 or 0,
 * *token when 1) or a failure with nothing held. */
static int dlock_my_try(dlock_sql_conn *c, const char *expr, const char *hex, int64_t deadline,
                        int *got, int64_t *token, dlock_err *err)
{
	dlock_my_query q;
	char *sql;
	int rc;

	if (!(sql = malloc(DLOCK_MY_SQL_MAX))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	snprintf(sql, DLOCK_MY_SQL_MAX,
	         "SET @dlock_ok = NULL;"
	         "SELECT GET_LOCK(%s, 0) INTO @dlock_ok;"
	         "INSERT INTO " DLOCK_SQL_TOKEN_TABLE
	         " (name, token) SELECT %s, LAST_INSERT_ID(1) FROM DUAL WHERE @dlock_ok = 1"
	         " ON DUPLICATE KEY UPDATE token = LAST_INSERT_ID(token + 1);"
	         "SELECT @dlock_ok, LAST_INSERT_ID()",
	         expr, hex);
	rc = dlock_my_simple(c, sql, 2, deadline, "lock", &q, err);
	free(sql);
	if (rc == DLOCK_ESERVER || rc == DLOCK_ENOMEM) {
		/* a statement failed after GET_LOCK may have granted (e.g. the
		 * token insert): undo it */
		int undo = dlock_my_undo(c, expr, 0, err);

		return undo != DLOCK_OK ? undo : rc;
	}
	if (rc != DLOCK_OK) {
		return rc; /* a lost connection took every hold with it */
	}
	if (q.rows == 0 || q.isnull[0]) {
		return dlock_err_set(err, DLOCK_ESERVER, 0, "%s: GET_LOCK returned NULL (name refused)",
		                     c->where);
	}
	*got = q.v[0] == 1;
	*token = q.v[1];
	return DLOCK_OK;
}

/* Waits in the server for the lock (a single statement, so that a cancel
 * can only meet it inside GET_LOCK, which then returns NULL, or after it,
 * when KILL QUERY finds the session idle and does nothing: MariaDB ends a
 * multi-statement killed between two statements without any further reply,
 * which would leave the client waiting for ever). Then bumps the token.
 * Returns as dlock_my_lock. */
static int dlock_my_wait_lock(dlock_sql_conn *c, const char *expr, const char *hex, const char *tmo,
                              int64_t io_deadline, const dlock_interrupt *intr, int64_t *token,
                              dlock_err *err)
{
	char sql[DLOCK_MY_EXPR_MAX + 2 * DLOCK_MY_HEX_MAX + 256];
	dlock_my_query q;
	int64_t now;
	int rc, cause;

	snprintf(sql, sizeof(sql), "SELECT GET_LOCK(%s, %s)", expr, tmo);
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.len = (unsigned long)strlen(sql);
	q.nv = 2;
	dlock_my_query_start(c, &q);
	rc = dlock_my_query_run(c, &q, io_deadline, intr, "lock", err);
	if (rc == DLOCK_ETIMEDOUT) {
		/* the server let the wait's own timeout and then connect_timeout
		 * pass without a word: stalled or gone. Cancelling would cost up to
		 * two more side steps; the connection is given up instead (which
		 * ends the session, and any grant, on the server) */
		c->broken = 1;
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: no reply before the I/O deadline",
		                     c->where);
	}
	if (rc == DLOCK_EINTR) {
		/* the server is still waiting: cancel that wait from a side
		 * session, then read the statement's end (1 if the grant raced
		 * the cancel: released again) */
		dlock_err e;

		cause = rc;
		if ((rc = dlock_my_cancel(c, dlock_now_ms() + dlock_my_side_ms(c), &e)) != DLOCK_OK) {
			c->broken = 1;
			return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "cannot cancel the lock wait: %.200s",
			                     e.msg);
		}
		rc = dlock_my_query_run(c, &q, dlock_now_ms() + dlock_my_side_ms(c), NULL, "lock", err);
		if (rc == DLOCK_ETIMEDOUT) {
			c->broken = 1;
			return dlock_err_set(err, DLOCK_ECONNLOSS, 0,
			                     "%s: no reply after the lock wait's cancel", c->where);
		}
		if (rc == DLOCK_OK && q.rows && !q.isnull[0] && q.v[0] == 1 &&
		    (rc = dlock_my_undo(c, expr, 1, err)) != DLOCK_OK) {
			return rc;
		}
		if (rc != DLOCK_OK) {
			return rc;
		}
		return cause == DLOCK_EINTR ? dlock_err_set(err, DLOCK_EINTR, 0, "interrupted")
		                            : dlock_err_set(err, DLOCK_ETIMEDOUT, 0,
		                                            "%s: no reply before the I/O deadline; "
		                                            "wait cancelled",
		                                            c->where);
	}
	if (rc != DLOCK_OK) {
		return rc; /* one statement: a failure means no grant */
	}
	if (q.rows == 0 || q.isnull[0]) {
		return dlock_err_set(err, DLOCK_ESERVER, 0,
		                     "%s: GET_LOCK returned NULL (name refused, or the wait was killed)",
		                     c->where);
	}
	if (q.v[0] != 1) {
		return dlock_err_set(err, DLOCK_ETIMEDOUT, 0, "not acquired in time");
	}
	if (!token) {
		return DLOCK_OK; /* the token is asked for later (dlock_my_token) */
	}
	/* granted: the token, with at least DLOCK_MY_SIDE_MS for its reply */
	now = dlock_now_ms();
	if (io_deadline >= 0 && io_deadline < now + dlock_my_side_ms(c)) {
		io_deadline = now + dlock_my_side_ms(c);
	}
	snprintf(sql, sizeof(sql),
	         "INSERT INTO " DLOCK_SQL_TOKEN_TABLE " (name, token) VALUES (%s, LAST_INSERT_ID(1))"
	         " ON DUPLICATE KEY UPDATE token = LAST_INSERT_ID(token + 1);"
	         "SELECT LAST_INSERT_ID()",
	         hex);
	if ((rc = dlock_my_simple(c, sql, 1, io_deadline, "token", &q, err)) != DLOCK_OK) {
		if (rc != DLOCK_ECONNLOSS) {
			int undo = dlock_my_undo(c, expr, 1, err);

			rc = undo != DLOCK_OK ? undo : rc;
		}
		return rc;
	}
	*token = q.v[0];
	return DLOCK_OK;
}

/* Tries first (one round trip: the uncontended case), then, when allowed
 * to wait, waits in the server for what is left of timeout_ms. */
static int dlock_my_lock(dlock_sql_conn *c, const char *name, size_t len, int shared,
                         int64_t timeout_ms, int64_t io_deadline, const dlock_interrupt *intr,
                         int64_t *token, dlock_err *err)
{
	char expr[DLOCK_MY_EXPR_MAX], hex[DLOCK_MY_HEX_MAX], tmo[32];
	int64_t until = timeout_ms < 0 ? -1 : dlock_now_us() + timeout_ms * 1000, left;
	int rc, got = 0;

	if (shared) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "MySQL has no shared locks");
	}
	if ((rc = dlock_my_name_ok(name, len, err)) != DLOCK_OK) {
		return rc;
	}
	if (c->broken) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: the connection was lost before",
		                     c->where);
	}
	dlock_my_names(c, expr, hex, name, len);
	/* with a token wanted now, a free lock and its token take one round
	 * trip; without, the wait's own statement (GET_LOCK(n, 0) for a try) is
	 * the only one */
	if (token &&
	    ((rc = dlock_my_try(c, expr, hex, io_deadline, &got, token, err)) != DLOCK_OK || got)) {
		return rc;
	}
	if (token && timeout_ms == 0) {
		return dlock_err_set(err, DLOCK_ETIMEDOUT, 0, "held by another session");
	}
	if (dlock_interrupted(intr)) {
		return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
	}
	if (timeout_ms < 0) {
		snprintf(tmo, sizeof(tmo), "%lld", DLOCK_MY_FOREVER_S);
	} else {
		left = dlock_left_ms(until);
		snprintf(tmo, sizeof(tmo), "%lld.%03lld", (long long)(left / 1000),
		         (long long)(left % 1000));
	}
	return dlock_my_wait_lock(c, expr, hex, tmo, io_deadline, intr, token, err);
}

/* The next token of name, only while c's session holds hold_name: one
 * multi-statement round trip that bumps the row and reads it back. */
static int dlock_my_token(dlock_sql_conn *c, const char *name, size_t len, const char *hold_name,
                          size_t hold_len, int shared, int64_t deadline, int64_t *token,
                          dlock_err *err)
{
	char expr[DLOCK_MY_EXPR_MAX], hex[DLOCK_MY_HEX_MAX], hex2[DLOCK_MY_HEX_MAX], *sql;
	dlock_my_query q;
	int rc;

	if (shared) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "MySQL has no shared locks");
	}
	if ((rc = dlock_my_name_ok(name, len, err)) != DLOCK_OK ||
	    (rc = dlock_my_name_ok(hold_name, hold_len, err)) != DLOCK_OK) {
		return rc;
	}
	if (!(sql = malloc(DLOCK_MY_SQL_MAX))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	dlock_my_names(c, expr, hex2, hold_name, hold_len);
	dlock_my_hex(hex, name, len);
	snprintf(sql, DLOCK_MY_SQL_MAX,
	         "INSERT INTO " DLOCK_SQL_TOKEN_TABLE
	         " (name, token) SELECT %s, LAST_INSERT_ID(1) FROM DUAL"
	         " WHERE IS_USED_LOCK(%s) = CONNECTION_ID()"
	         " ON DUPLICATE KEY UPDATE token = LAST_INSERT_ID(token + 1);"
	         "SELECT ROW_COUNT(), LAST_INSERT_ID()",
	         hex, expr);
	rc = dlock_my_simple(c, sql, 2, deadline, "token", &q, err);
	free(sql);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (q.rows == 0 || q.isnull[0] || q.v[0] < 1) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "%s: this session does not hold the lock",
		                     c->where);
	}
	*token = q.v[1];
	return DLOCK_OK;
}

/* Runs "SELECT <fmt with the server lock name>" on c for unlock and check:
 * DLOCK_OK when it returns 1, DLOCK_ENOTHELD for 0 or NULL. */
static int dlock_my_ask(dlock_sql_conn *c, const char *fmt, const char *name, size_t len,
                        int64_t deadline, const char *what, dlock_err *err)
{
	char expr[DLOCK_MY_EXPR_MAX], hex[DLOCK_MY_HEX_MAX], sql[DLOCK_MY_EXPR_MAX + 96];
	dlock_my_query q;
	int rc;

	if ((rc = dlock_my_name_ok(name, len, err)) != DLOCK_OK) {
		return rc;
	}
	dlock_my_names(c, expr, hex, name, len);
	snprintf(sql, sizeof(sql), fmt, expr);
	if ((rc = dlock_my_simple(c, sql, 1, deadline, what, &q, err)) != DLOCK_OK) {
		return rc;
	}
	if (q.rows == 0 || q.isnull[0] || q.v[0] != 1) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "%s: this session does not hold the lock",
		                     c->where);
	}
	return DLOCK_OK;
}

static int dlock_my_unlock(dlock_sql_conn *c, const char *name, size_t len, int shared,
                           int64_t deadline, dlock_err *err)
{
	if (shared) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0, "MySQL has no shared locks");
	}
	return dlock_my_ask(c, "SELECT RELEASE_LOCK(%s)", name, len, deadline, "unlock", err);
}

static int dlock_my_check(dlock_sql_conn *c, const char *name, size_t len, int shared,
                          int64_t deadline, dlock_err *err)
{
	if (shared) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "MySQL has no shared locks");
	}
	return dlock_my_ask(c, "SELECT IS_USED_LOCK(%s) = CONNECTION_ID()", name, len, deadline,
	                    "check", err);
}

static int dlock_my_ping(dlock_sql_conn *c, int64_t deadline, dlock_err *err)
{
	dlock_my_query q;
	int rc;

	if (c->broken) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: the connection was lost before",
		                     c->where);
	}
	if ((rc = dlock_my_simple(c, "SELECT CONNECTION_ID()", 1, deadline, "ping", &q, err)) !=
	    DLOCK_OK) {
		return rc;
	}
	if (q.rows == 0 || q.isnull[0] || q.v[0] != c->id) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0,
		                     "%s: another server session answered (a proxy that multiplexes?)",
		                     c->where);
	}
	return DLOCK_OK;
}

static int dlock_my_alive(dlock_sql_conn *c)
{
	struct pollfd pfd;
	int n;

	if (!c || c->broken || c->owner != getpid() || (pfd.fd = (int)mysql_get_socket(c->my)) < 0) {
		return 0;
	}
	/* an idle session receives nothing unsolicited: anything readable is
	 * the end (EOF, or the error packet of a KILL or a shutdown) */
	pfd.events = POLLIN;
	pfd.revents = 0;
	n = poll(&pfd, 1, 0);
	return n == 0 || (n < 0 && errno == EINTR);
}

static int dlock_my_participants(dlock_sql_conn *c, const char *name, size_t len, int64_t deadline,
                                 dlock_participant **out, size_t *count, dlock_err *err)
{
	char expr[DLOCK_MY_EXPR_MAX], hex[DLOCK_MY_HEX_MAX], *sql;
	dlock_participant *p = NULL;
	dlock_my_query q;
	char id[24];
	int rc;

	*out = NULL;
	*count = 0;
	if ((rc = dlock_my_name_ok(name, len, err)) != DLOCK_OK) {
		return rc;
	}
	if (!(sql = malloc(DLOCK_MY_SQL_MAX))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	dlock_my_names(c, expr, hex, name, len);
	snprintf(sql, DLOCK_MY_SQL_MAX,
	         "SELECT IS_USED_LOCK(%s), (SELECT token FROM " DLOCK_SQL_TOKEN_TABLE
	         " WHERE name = %s)",
	         expr, hex);
	rc = dlock_my_simple(c, sql, 2, deadline, "participants", &q, err);
	free(sql);
	if (rc != DLOCK_OK || q.rows == 0 || q.isnull[0]) {
		return rc; /* no holder; waiters are not listed (see the top comment) */
	}
	snprintf(id, sizeof(id), "%lld", (long long)q.v[0]);
	if (!(p = calloc(1, sizeof(*p))) || !(p->name = strdup(id)) || !(p->data = strdup(""))) {
		dlock_participants_free(p, p ? 1 : 0);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	p->token = q.isnull[1] ? 0 : q.v[1];
	p->writer = 1;
	p->holder = 1;
	*out = p;
	*count = 1;
	return DLOCK_OK;
}

char *dlock_my_lock_name_sql(const dlock_sql_conn *c, const char *name, size_t len)
{
	char *expr = malloc(DLOCK_MY_EXPR_MAX), hex[DLOCK_MY_HEX_MAX];

	if (expr && (len == 0 || len > DLOCK_SQL_NAME_MAX)) {
		free(expr);
		return NULL;
	}
	if (expr) {
		dlock_my_names(c, expr, hex, name, len);
	}
	return expr;
}

static int dlock_my_socket(const dlock_sql_conn *c)
{
	return c && c->my ? (int)mysql_get_socket(c->my) : -1;
}

static int64_t dlock_my_session_id(const dlock_sql_conn *c)
{
	return c ? c->id : 0;
}

/* Connector/C's one-time initialisation (dlock_my_library_init) allocates
 * memory that only mysql_library_end() frees. */
static const char *dlock_my_library(void)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), "MariaDB Connector/C %s", mysql_get_client_info());
	return buf;
}

static void dlock_my_library_end(void)
{
	mysql_library_end();
}

const dlock_sql_driver dlock_my_driver = {
    .name = "mysql",
    .has_shared = 0,
    .needs_dbname = 1,
    .connect = dlock_my_connect,
    .close = dlock_my_close,
    .abandon = dlock_my_abandon,
    .lock = dlock_my_lock,
    .unlock = dlock_my_unlock,
    .check = dlock_my_check,
    .ping = dlock_my_ping,
    .socket = dlock_my_socket,
    .alive = dlock_my_alive,
    .participants = dlock_my_participants,
    .list = dlock_my_admin_list,
    .terminate = dlock_my_admin_break,
    .session_id = dlock_my_session_id,
    .token = dlock_my_token,
    .library_end = dlock_my_library_end,
    .library = dlock_my_library,
};
