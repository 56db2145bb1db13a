/* dlock_pg.c: the PostgreSQL driver of the SQL backend: its statements (a
 * lock is a session-level advisory lock, held by the server for as long as
 * the session lives, waited for by the server under lock_timeout; a token
 * is a row of the token table bumped on demand) and the driver table. The
 * session itself is dlock_pg_conn.c's.
 *
 * Keys. A lock name (any bytes) maps to the bigint advisory key made of the
 * first 8 bytes of its SHA-256 (computed here, dlock_sha256.c), the same
 * value as SQL's, so anyone can find a dlock lock from SQL:
 *   ('x' || left(encode(sha256(<name as bytea>), 'hex'), 16))::bit(64)::bigint
 * In pg_locks the key is classid (high 32 bits) and objid (low 32 bits) with
 * objsubid = 1; advisory locks are per database. Two names whose keys
 * collide (a chance of about 2^-64 for a pair) exclude each other: a false
 * conflict, never two holders. The token table is keyed by the name itself.
 *
 * Statements carry the name as decode('<hex>', 'hex'): binary-safe, nothing
 * to escape. */
#include "dlock_pg_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dlock_dsn.h"
#include "dlock_sha256.h"

/* Matches pg_locks rows of key k (an expression) in this database. */
#define PG_LOCKS_OF(k)                                                                             \
	"l.locktype = 'advisory' AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database "    \
	"WHERE datname = current_database()) AND ((l.classid::bigint << 32) | l.objid::bigint) = " k

/* The advisory key of name[0..len) as a decimal literal. */
static void dlock_pg_key(const char *name, size_t len, char out[24])
{
	snprintf(out, 24, "%lld", (long long)dlock_sha256_key(name, len));
}

/* Hex of name[0..len) into a new string, NULL when out of memory. */
static char *dlock_pg_hex(const char *name, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *h = malloc(2 * len + 1);
	size_t i;

	if (!h) {
		return NULL;
	}
	for (i = 0; i < len; i++) {
		h[2 * i] = digits[(unsigned char)name[i] >> 4];
		h[2 * i + 1] = digits[(unsigned char)name[i] & 15];
	}
	h[2 * len] = '\0';
	return h;
}

/* Drops a mode-hold of key k (a literal) that a failed lock statement may
 * have taken anyway: session locks outlive the statement's rollback. */
static int dlock_pg_undo(dlock_sql_conn *c, const char *h, int shared, int64_t deadline,
                         dlock_err *err)
{
	char *sql = malloc(2 * strlen(h) + 512);
	PGresult *r = NULL;
	dlock_err ignore;
	int rc;

	if (!sql) {
		return DLOCK_ENOMEM;
	}
	sprintf(sql,
	        "WITH k AS (SELECT "
	        "%s"
	        " AS k) SELECT pg_advisory_unlock%s(k.k) FROM k "
	        "WHERE EXISTS (SELECT 1 FROM pg_locks l WHERE " PG_LOCKS_OF(
	            "k.k") " AND l.granted "
	                   "AND l.pid = pg_backend_pid() AND l.mode = '%s')",
	        h, shared ? "_shared" : "", shared ? "ShareLock" : "ExclusiveLock");
	rc = dlock_pg_query(c, sql, deadline, &r, err ? &ignore : NULL);
	PQclear(r);
	free(sql);
	return rc;
}

/* One lock statement (dlock_pg_lock's contract) with timeout_ms at most
 * DLOCK_PG_LOCK_TIMEOUT_MAX; *foreign set when the wait ended because
 * someone else cancelled it (pg_cancel_backend(): 57014 without our own
 * cancel), nothing held then. */
static int dlock_pg_lock_once(dlock_sql_conn *c, const char *name, size_t len, int shared,
                              int64_t timeout_ms, int64_t io_deadline, const dlock_interrupt *intr,
                              int64_t *token, int *foreign, dlock_err *err)
{
	char *h = dlock_pg_hex(name, len), *sql = h ? malloc(4 * len + 1024) : NULL, k[24];
	PGresult *r = NULL;
	int64_t lt = -1; /* the lock_timeout this statement sets, -1: none */
	int rc, cancelled = 0;

	dlock_pg_key(name, len, k);
	if (sql) {
		sql[0] = '\0';
	}

	if (!sql) {
		free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if (!token) {
		/* the lock alone (its token is asked for later: dlock_pg_token); a
		 * try's "false" is an empty result, as with the token */
		if (timeout_ms == 0) {
			sprintf(sql, "EXECUTE dl_t%s(%s)", shared ? "s" : "x", k);
		} else {
			/* the SET only when the session has another value: it shares the
			 * statement's implicit transaction, so a failed wait rolls it back
			 * (see below) */
			lt = timeout_ms < 0 ? 0 : timeout_ms;
			if (lt != c->lock_timeout) {
				sprintf(sql, "SET lock_timeout = %lld; ", (long long)lt);
			}
			sprintf(sql + strlen(sql), "EXECUTE dl_l%s(%s)", shared ? "s" : "x", k);
		}
	} else if (timeout_ms == 0) {
		sprintf(sql,
		        "WITH l AS (SELECT pg_try_advisory_lock%s("
		        "%s"
		        ") AS ok) "
		        "INSERT INTO " DLOCK_PG_TOKEN_TABLE " AS t (name, token) "
		        "SELECT decode('%s', 'hex'), 1 FROM l WHERE l.ok "
		        "ON CONFLICT (name) DO UPDATE SET token = t.token + 1 "
		        "RETURNING t.token, pg_backend_pid()",
		        shared ? "_shared" : "", k, h);
	} else {
		/* lock_timeout 0 waits for ever; the SET is part of the same implicit
		 * transaction and set again before every wait */
		sprintf(sql,
		        "SET lock_timeout = %lld; "
		        "WITH l AS (SELECT pg_advisory_lock%s("
		        "%s"
		        ")) "
		        "INSERT INTO " DLOCK_PG_TOKEN_TABLE " AS t (name, token) "
		        "SELECT decode('%s', 'hex'), 1 FROM l "
		        "ON CONFLICT (name) DO UPDATE SET token = t.token + 1 "
		        "RETURNING t.token, pg_backend_pid()",
		        timeout_ms < 0 ? 0LL : (long long)timeout_ms, shared ? "_shared" : "", k, h);
		lt = timeout_ms < 0 ? 0 : timeout_ms;
	}
	rc = dlock_pg_run(c, sql, io_deadline, intr, &cancelled, &r, err);
	if (rc == DLOCK_OK && r && PQresultStatus(r) == PGRES_TUPLES_OK && lt >= 0) {
		c->lock_timeout = lt; /* committed with the statement */
	}
	free(sql);
	if (rc == DLOCK_OK && r && PQresultStatus(r) == PGRES_TUPLES_OK) {
		if (PQntuples(r) == 0) {
			rc = DLOCK_ETIMEDOUT; /* the try found it taken */
		} else if (strtoll(PQgetvalue(r, 0, 1), NULL, 10) != c->pid) {
			/* the statement ran in another server session than the one the
			 * lock lives in: a pooler in transaction mode sits in between */
			rc = dlock_err_set(err, DLOCK_ESERVER, 0,
			                   "%s: statements run on different server sessions (a connection "
			                   "pooler in transaction mode, such as PgBouncer?): session locks "
			                   "cannot work through it",
			                   c->where);
			dlock_pg_undo(c, k, shared, dlock_now_ms() + c->grace_ms, NULL);
		} else {
			if (token) {
				*token = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
			}
			if (cancelled) {
				/* granted just before the cancel landed: nobody will use it */
				rc = dlock_pg_undo(c, k, shared, dlock_now_ms() + c->grace_ms, err);
				rc = rc == DLOCK_OK ? dlock_err_set(err, DLOCK_EINTR, 0, "interrupted") : rc;
			}
		}
	} else if (rc == DLOCK_OK) {
		rc = r ? dlock_pg_fail(c, r, err)
		       : dlock_err_set(err, DLOCK_ESERVER, 0, "%s: no result", c->where);
		*foreign = rc == DLOCK_EINTR && !cancelled;
		if (rc != DLOCK_ECONNLOSS) {
			/* a timeout or cancel may have come after the grant (on the token
			 * row): never leave a hold behind that nobody knows of */
			int u = dlock_pg_undo(c, k, shared, dlock_now_ms() + c->grace_ms, NULL);

			if (u == DLOCK_ECONNLOSS) {
				rc = dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: connection lost", c->where);
			}
		}
	}
	PQclear(r);
	free(h);
	return rc;
}

/* The longest lock_timeout one statement may set: the setting is an int of
 * milliseconds (about 24.8 days); longer waits are made of several. */
#define DLOCK_PG_LOCK_TIMEOUT_MAX 2000000000LL

/* Waits as long as the caller asked, whatever else ends one statement's
 * wait: a wait longer than one lock_timeout is waited for in several
 * statements, and a wait someone else cancelled (pg_cancel_backend() of our
 * session: nothing was granted) is waited for again. Only the caller's own
 * deadline (DLOCK_ETIMEDOUT) or interrupt (DLOCK_EINTR) ends it. */
static int dlock_pg_lock(dlock_sql_conn *c, const char *name, size_t len, int shared,
                         int64_t timeout_ms, int64_t io_deadline, const dlock_interrupt *intr,
                         int64_t *token, dlock_err *err)
{
	int64_t until = timeout_ms > 0 ? dlock_now_us() + timeout_ms * 1000 : -1;

	for (;;) {
		int64_t left = until < 0 ? timeout_ms : dlock_left_ms(until), part = left;
		int foreign = 0, rc;

		if (until >= 0 && left <= 0) {
			return dlock_err_set(err, DLOCK_ETIMEDOUT, 0, "%s: not acquired in time", c->where);
		}
		if (part > DLOCK_PG_LOCK_TIMEOUT_MAX) {
			part = DLOCK_PG_LOCK_TIMEOUT_MAX;
		}
		rc =
		    dlock_pg_lock_once(c, name, len, shared, part, io_deadline, intr, token, &foreign, err);
		if (!(rc == DLOCK_ETIMEDOUT && part < left) && !(rc == DLOCK_EINTR && foreign)) {
			return rc;
		}
		if (dlock_interrupted(intr)) {
			return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
		}
	}
}

/* A session-level advisory lock ends only with an unlock (which dlock sends
 * only with the hold forgotten) or with its session; so the hold stands
 * while this statement runs in the session that took it, and checking the
 * backend pid is enough (pg_locks costs more than the rest together). */
static int dlock_pg_token(dlock_sql_conn *c, const char *name, size_t len, const char *hold_name,
                          size_t hold_len, int shared, int64_t deadline, int64_t *token,
                          dlock_err *err)
{
	char *h = dlock_pg_hex(name, len), *sql = h ? malloc(2 * len + 512) : NULL;
	PGresult *r = NULL;
	int rc;

	(void)hold_name;
	(void)hold_len;
	(void)shared;
	if (!sql) {
		free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	sprintf(sql,
	        "INSERT INTO " DLOCK_PG_TOKEN_TABLE " AS t (name, token) "
	        "SELECT decode('%s', 'hex'), 1 WHERE pg_backend_pid() = %lld "
	        "ON CONFLICT (name) DO UPDATE SET token = t.token + 1 RETURNING t.token",
	        h, (long long)c->pid);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	if (rc == DLOCK_OK && PQntuples(r) == 0) {
		rc = dlock_err_set(err, DLOCK_ENOTHELD, 0,
		                   "%s: the statement ran in another server session (a pooler in "
		                   "transaction mode?)",
		                   c->where);
	} else if (rc == DLOCK_OK) {
		*token = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	}
	PQclear(r);
	free(sql);
	free(h);
	return rc;
}

/* Runs a one-value statement about the key of name and returns that value's
 * first character ('t', 'f', ...) in *v. */
static int dlock_pg_ask(dlock_sql_conn *c, const char *fmt, const char *name, size_t len,
                        const char *arg, int64_t deadline, char *v, dlock_err *err)
{
	char k[24], sql[1024];
	PGresult *r = NULL;
	int rc;

	dlock_pg_key(name, len, k);
	snprintf(sql, sizeof(sql), fmt, k, arg);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	if (rc == DLOCK_OK) {
		*v = PQntuples(r) == 1 && !PQgetisnull(r, 0, 0) ? PQgetvalue(r, 0, 0)[0] : '\0';
	}
	PQclear(r);
	return rc;
}

static int dlock_pg_unlock(dlock_sql_conn *c, const char *name, size_t len, int shared,
                           int64_t deadline, dlock_err *err)
{
	char v = 0;
	int rc =
	    dlock_pg_ask(c, "EXECUTE dl_u%2$s(%1$s)", name, len, shared ? "s" : "x", deadline, &v, err);

	if (rc == DLOCK_OK && v != 't') {
		rc = dlock_err_set(err, DLOCK_ENOTHELD, 0, "%s: the session does not hold the lock",
		                   c->where);
	}
	return rc;
}

static int dlock_pg_check(dlock_sql_conn *c, const char *name, size_t len, int shared,
                          int64_t deadline, dlock_err *err)
{
	char v = 0;
	int rc = dlock_pg_ask(c,
	                      "SELECT EXISTS (SELECT 1 FROM pg_locks l WHERE " PG_LOCKS_OF(
	                          "%1$s") " AND l.granted AND l.pid = pg_backend_pid() "
	                                  "AND l.mode = '%2$s')",
	                      name, len, shared ? "ShareLock" : "ExclusiveLock", deadline, &v, err);

	if (rc == DLOCK_OK && v != 't') {
		rc = dlock_err_set(err, DLOCK_ENOTHELD, 0, "%s: the session does not hold the lock",
		                   c->where);
	}
	return rc;
}

/* pg_locks lists a session waiting for a lock that conflicts with ours
 * (granted = false); a writer waits in ExclusiveLock mode. */
static int dlock_pg_writer_queued(dlock_sql_conn *c, const char *name, size_t len, int64_t deadline,
                                  dlock_err *err)
{
	char v = 0;
	int rc = dlock_pg_ask(c,
	                      "SELECT EXISTS (SELECT 1 FROM pg_locks l WHERE " PG_LOCKS_OF(
	                          "%1$s") " AND NOT l.granted AND l.pid <> pg_backend_pid() "
	                                  "AND l.mode = '%2$s')",
	                      name, len, "ExclusiveLock", deadline, &v, err);

	if (rc == DLOCK_OK && v == 't') {
		rc = dlock_err_set(err, DLOCK_EDEADLK, 0, "%s: a writer is queued", c->where);
	}
	return rc;
}

static int dlock_pg_ping(dlock_sql_conn *c, int64_t deadline, dlock_err *err)
{
	PGresult *r = NULL;
	int rc = dlock_pg_query(c, "EXECUTE dl_pid", deadline, &r, err);

	if (rc == DLOCK_OK && (PQntuples(r) != 1 || strtoll(PQgetvalue(r, 0, 0), NULL, 10) != c->pid)) {
		rc = dlock_err_set(err, DLOCK_ENOTHELD, 0,
		                   "%s: another server session answered (a pooler in transaction mode?)",
		                   c->where);
	}
	PQclear(r);
	return rc;
}

static int dlock_pg_participants(dlock_sql_conn *c, const char *name, size_t len, int64_t deadline,
                                 dlock_participant **out, size_t *count, dlock_err *err)
{
	char *h = dlock_pg_hex(name, len), *sql = h ? malloc(4 * len + 1024) : NULL, k[24];
	dlock_participant *list = NULL;
	PGresult *r = NULL;
	int i, n = 0, rc;

	*out = NULL;
	*count = 0;
	if (!sql) {
		free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	dlock_pg_key(name, len, k);
	/* session: its client address and application_name; since: when a
	 * waiter began to wait (14+; a grant's time is not recorded) */
	sprintf(sql,
	        "SELECT l.pid, l.mode = 'ExclusiveLock', l.granted, (SELECT token "
	        "FROM " DLOCK_PG_TOKEN_TABLE
	        " WHERE name = decode('%s', 'hex')), coalesce(host(a.client_addr) || ':' || "
	        "a.client_port, 'local') || ' ' || coalesce(a.application_name, ''), %s "
	        "FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE " PG_LOCKS_OF(
	            "%s") " ORDER BY l.granted DESC, %s l.pid",
	        h, c->version >= 140000 ? "(extract(epoch FROM l.waitstart) * 1000)::bigint" : "NULL",
	        k, c->version >= 140000 ? "l.waitstart NULLS FIRST," : "" /* 14+ */);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	free(sql);
	free(h);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (!(list = calloc((size_t)PQntuples(r) + 1, sizeof(*list)))) {
		PQclear(r);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (i = 0; i < PQntuples(r); i++, n++) {
		list[n].name = dlock_strndup(PQgetvalue(r, i, 0), strlen(PQgetvalue(r, i, 0)));
		list[n].data = dlock_strndup("", 0);
		list[n].session = dlock_strndup(PQgetvalue(r, i, 4), strlen(PQgetvalue(r, i, 4)));
		list[n].since = PQgetisnull(r, i, 5) ? 0 : strtoll(PQgetvalue(r, i, 5), NULL, 10);
		if (!list[n].name || !list[n].data || !list[n].session) {
			n++;
			dlock_participants_free(list, (size_t)n);
			PQclear(r);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		list[n].writer = PQgetvalue(r, i, 1)[0] == 't';
		list[n].holder = PQgetvalue(r, i, 2)[0] == 't';
		list[n].owner = strtoll(PQgetvalue(r, i, 0), NULL, 10);
		list[n].token =
		    list[n].holder && !PQgetisnull(r, i, 3) ? strtoll(PQgetvalue(r, i, 3), NULL, 10) : 0;
	}
	PQclear(r);
	*out = list;
	*count = (size_t)n;
	return DLOCK_OK;
}

static int64_t dlock_pg_session_id(const dlock_sql_conn *c)
{
	return c->pid;
}

/* The channel of chan: "dlock_" + FNV-1a 64 of its bytes (a channel is an
 * identifier of at most 63 bytes; a shared channel costs a spurious wake-up). */
static void dlock_pg_channel(const char *chan, size_t len, char out[32])
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h = (h ^ (unsigned char)chan[i]) * 1099511628211ULL;
	}
	snprintf(out, 32, "dlock_%016llx", (unsigned long long)h);
}

static int dlock_pg_listen(dlock_sql_conn *c, const char *chan, size_t len, int on,
                           int64_t deadline, dlock_err *err)
{
	char sql[64], name[32];
	PGresult *r = NULL;
	int rc;

	dlock_pg_channel(chan, len, name);
	snprintf(sql, sizeof(sql), "%s %s", on ? "LISTEN" : "UNLISTEN", name);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	PQclear(r);
	return rc;
}

static int dlock_pg_notify(dlock_sql_conn *c, const char *chan, size_t len, int64_t deadline,
                           dlock_err *err)
{
	char sql[64], name[32];
	PGresult *r = NULL;
	int rc;

	dlock_pg_channel(chan, len, name);
	snprintf(sql, sizeof(sql), "NOTIFY %s", name);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	PQclear(r);
	return rc;
}

static const char *dlock_pg_library(void)
{
	static char buf[48];
	int v = PQlibVersion();

	snprintf(buf, sizeof(buf), "libpq %d.%d", v / 10000, v % 10000);
	return buf;
}

const dlock_sql_driver dlock_pg_driver = {
    .name = "postgres",
    .has_shared = 1,
    .connect = dlock_pg_connect,
    .close = dlock_pg_close,
    .abandon = dlock_pg_abandon,
    .lock = dlock_pg_lock,
    .unlock = dlock_pg_unlock,
    .check = dlock_pg_check,
    .ping = dlock_pg_ping,
    .socket = dlock_pg_socket,
    .alive = dlock_pg_alive,
    .participants = dlock_pg_participants,
    .session_id = dlock_pg_session_id,
    .token = dlock_pg_token,
    .writer_queued = dlock_pg_writer_queued,
    .listen = dlock_pg_listen,
    .notify = dlock_pg_notify,
    .wait_event = dlock_pg_wait_event,
    .library = dlock_pg_library,
    .list = dlock_pg_admin_list,
    .terminate = dlock_pg_admin_break,
};
