/* dlock_pg_setup.c: a new PostgreSQL session set up for locks: the connect
 * parameters from the target (keepalives, the DSN's TLS keys), then one
 * round trip of settings (timeouts per server version), the prepared
 * statements and the token table; a hot standby and a transaction-mode
 * pooler are refused. Calls only dlock_pg_conn.c. */
#include "dlock_pg_conn.h"

#include "../dlock_dsn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* At most this many DSN parameters reach libpq (the DSN knows fewer keys). */
#define DLOCK_PG_MAX_PARAMS 16

/* The local TCP port of c's socket, -1 when it is not TCP. */
static int dlock_pg_local_port(const dlock_sql_conn *c)
{
	struct sockaddr_storage a;
	socklen_t n = sizeof(a);

	if (getsockname(PQsocket(c->pg), (struct sockaddr *)&a, &n) != 0) {
		return -1;
	}
	if (a.ss_family == AF_INET) {
		return ntohs(((struct sockaddr_in *)&a)->sin_port);
	}
	if (a.ss_family == AF_INET6) {
		return ntohs(((struct sockaddr_in6 *)&a)->sin6_port);
	}
	return -1;
}

/* Refuses a transaction-mode pooler (PgBouncer pool_mode=transaction): it
 * hands each transaction to any server session of its pool. A lone client
 * is usually handed the same one every time, so statements alone cannot
 * tell; a side session opens a transaction, which pins a server session
 * (the pool hands out its last-used one first: c's, which only a
 * transaction pooler can hand to two clients), then c asks its pid again.
 * Run only when c is not seen to be connected directly (the server sees
 * another client port than ours: a proxy, a pooler, NAT). When the side
 * session cannot be had before deadline the question stays open and the
 * connect fails (a pooler that goes unnoticed can grant one lock twice).
 * Returns DLOCK_OK, DLOCK_ESERVER (a pooler: refused), DLOCK_ECONNECT (no
 * side session) or DLOCK_ECONNLOSS. */
static int dlock_pg_probe(dlock_sql_conn *c, int64_t deadline, dlock_err *err)
{
	dlock_sql_conn *side = NULL;
	PGresult *r = NULL;
	int64_t pid = -1;
	dlock_err why = {0};
	int rc = dlock_pg_side(c, deadline, &side, &why);

	if (rc == DLOCK_OK && (rc = dlock_pg_query(side, "BEGIN; SELECT pg_backend_pid()", deadline, &r,
	                                           &why)) == DLOCK_OK) {
		pid = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	}
	PQclear(r);
	r = NULL;
	if (rc != DLOCK_OK) {
		dlock_pg_close(side);
		return dlock_err_set(err, DLOCK_ECONNECT, 0,
		                     "a proxy or pooler is in between, and a second session to check "
		                     "that it is no transaction pooler failed: %.150s",
		                     why.msg);
	}
	if (pid != c->pid &&
	    (rc = dlock_pg_query(c, "EXECUTE dl_pid", deadline, &r, err)) == DLOCK_OK) {
		pid = strtoll(PQgetvalue(r, 0, 0), NULL, 10) == c->pid ? -1 : c->pid;
	}
	PQclear(r);
	dlock_pg_close(side); /* its transaction is rolled back */
	if (rc == DLOCK_OK && pid == c->pid) {
		rc = DLOCK_ESERVER;
	}
	if (rc == DLOCK_ESERVER) {
		dlock_err_set(
		    err, DLOCK_ESERVER, 0,
		    "%s: refused: a pooler in transaction mode (PgBouncer pool_mode=transaction?) "
		    "gives each transaction any server session, a session lock needs one; "
		    "connect directly or via a session-mode pool",
		    c->where);
	}
	return rc;
}

/* The session's settings, sent in the setup round trip (not as a startup
 * "options" packet, which PgBouncer refuses or drops): no timeout may end a
 * session that holds or waits, tokens commit durably, the server's TCP
 * keepalive gives up on a vanished client after about 25 s. */
#define DLOCK_PG_SETTINGS                                                                          \
	"SET lock_timeout = 0; SET statement_timeout = 0; "                                            \
	"SET idle_in_transaction_session_timeout = 0; SET synchronous_commit = on; "                   \
	"SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; "                              \
	"SET tcp_keepalives_count = 3; "

/* 14 and later: idle_session_timeout must not end an idle holder; and the
 * server polls a busy session's socket every second, so a killed waiter
 * leaves the lock's queue (and frees its connection slot) within about 1 s
 * instead of when its turn comes. */
#define DLOCK_PG_SETTINGS_14                                                                       \
	"SET idle_session_timeout = 0; SET client_connection_check_interval = 1000; "

/* The hot statements, prepared once per session: EXECUTE skips the parse
 * and plan of a SELECT, most of a cycle's server time. */
#define DLOCK_PG_PREPARE                                                                           \
	"PREPARE dl_lx(bigint) AS SELECT pg_advisory_lock($1), pg_backend_pid();"                      \
	"PREPARE dl_ls(bigint) AS SELECT pg_advisory_lock_shared($1), pg_backend_pid();"               \
	"PREPARE dl_tx(bigint) AS SELECT 1, pg_backend_pid() WHERE pg_try_advisory_lock($1);"          \
	"PREPARE dl_ts(bigint) AS SELECT 1, pg_backend_pid() WHERE pg_try_advisory_lock_shared($1);"   \
	"PREPARE dl_ux(bigint) AS SELECT pg_advisory_unlock($1);"                                      \
	"PREPARE dl_us(bigint) AS SELECT pg_advisory_unlock_shared($1);"                               \
	"PREPARE dl_pid AS SELECT pg_backend_pid();"

/* What the setup asks last: the session's pid, whether the token table
 * exists, whether the server is a standby, the client port it sees, whether
 * this role may create a table in schema public. */
#define DLOCK_PG_ASK                                                                               \
	"SELECT pg_backend_pid(), to_regclass('" DLOCK_PG_TOKEN_TABLE "') IS NOT NULL, "               \
	"pg_is_in_recovery(), inet_client_port(), COALESCE((SELECT has_schema_privilege(oid, "         \
	"'CREATE') FROM pg_namespace WHERE nspname = 'public'), false)"

/* Sets a new session up: settings, statements, the token table; refuses a
 * hot standby and a transaction-mode pooler. */
static int dlock_pg_setup(dlock_sql_conn *c, int64_t deadline, dlock_err *err)
{
	PGresult *r = NULL;
	int rc, port;

	rc = dlock_pg_query(c,
	                    c->version >= 140000
	                        ? DLOCK_PG_SETTINGS DLOCK_PG_SETTINGS_14 DLOCK_PG_PREPARE DLOCK_PG_ASK
	                        : DLOCK_PG_SETTINGS DLOCK_PG_PREPARE DLOCK_PG_ASK,
	                    deadline, &r, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (PQntuples(r) != 1 || PQnfields(r) != 5) {
		PQclear(r);
		return dlock_err_set(err, DLOCK_ESERVER, 0, "%s: unexpected answer", c->where);
	}
	c->pid = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	if (PQgetvalue(r, 0, 2)[0] == 't') {
		/* a standby's advisory locks are its own, unseen by the primary's
		 * clients: a lock taken there would not exclude anyone */
		PQclear(r);
		return dlock_err_set(
		    err, DLOCK_ESERVER, 0,
		    "%s: refused: the server is a hot standby (in recovery), whose advisory "
		    "locks do not exclude the primary's clients; point the DSN at the "
		    "primary",
		    c->where);
	}
	port = PQgetisnull(r, 0, 3) ? -2 : atoi(PQgetvalue(r, 0, 3));
	if (PQgetvalue(r, 0, 1)[0] != 't' && PQgetvalue(r, 0, 4)[0] != 't') {
		/* PostgreSQL 15 and later give CREATE on public to the database
		 * owner only: say what the owner must do, not "permission denied" */
		PQclear(r);
		return dlock_err_set(err, DLOCK_ESERVER, 0,
		                     "%s: no table " DLOCK_PG_TOKEN_TABLE
		                     " and no CREATE on schema public: its "
		                     "owner must create it (docs/sql.md) and GRANT SELECT, INSERT, UPDATE "
		                     "ON " DLOCK_PG_TOKEN_TABLE " TO this role",
		                     c->where);
	}
	if (PQgetvalue(r, 0, 1)[0] != 't') {
		PQclear(r);
		r = NULL;
		/* two first connections may race: "already exists" is fine */
		rc = dlock_pg_query(c,
		                    "CREATE TABLE IF NOT EXISTS " DLOCK_PG_TOKEN_TABLE
		                    " (name bytea PRIMARY KEY, token bigint NOT NULL)",
		                    deadline, &r, err);
		if (rc == DLOCK_ESERVER && err &&
		    (strstr(err->msg, "23505") || strstr(err->msg, "42P07"))) {
			rc = DLOCK_OK;
		}
	}
	PQclear(r);
	if (rc == DLOCK_OK && port != dlock_pg_local_port(c)) {
		rc = dlock_pg_probe(c, deadline, err);
	}
	return rc;
}

/* The root certificates for a verified mode (verify-ca, verify-full) whose
 * DSN names none, or NULL to leave it to libpq: libpq's own sources first
 * (PGSSLROOTCERT, ~/.postgresql/root.crt); else the system store, which
 * libpq 16+ calls "system" and libpq 15 does not know (then OpenSSL's
 * SSL_CERT_FILE or Debian's bundle, when readable). */
static const char *dlock_pg_rootcert(int n, const char **keys, const char **vals)
{
	static char home_crt[512];
	const char *mode = NULL, *home = getenv("HOME"), *file = getenv("SSL_CERT_FILE");
	int i;

	for (i = 0; i < n; i++) {
		if (strcmp(keys[i], "sslrootcert") == 0) {
			return NULL;
		}
		if (strcmp(keys[i], "sslmode") == 0) {
			mode = vals[i];
		}
	}
	if (!mode || strncasecmp(mode, "verify-", 7) != 0 || getenv("PGSSLROOTCERT")) {
		return NULL;
	}
	snprintf(home_crt, sizeof(home_crt), "%s/.postgresql/root.crt", home ? home : "");
	if (home && access(home_crt, F_OK) == 0) {
		return NULL;
	}
	if (PQlibVersion() >= 160000) {
		return "system";
	}
	if (file && access(file, R_OK) == 0) {
		return file;
	}
	return access("/etc/ssl/certs/ca-certificates.crt", R_OK) == 0
	           ? "/etc/ssl/certs/ca-certificates.crt"
	           : NULL;
}

int dlock_pg_connect(const dlock_target *t, int64_t deadline, const dlock_interrupt *intr,
                     dlock_sql_conn **out, dlock_err *err)
{
	const char *keys[11 + DLOCK_PG_MAX_PARAMS + 1] = {"host",
	                                                  "port",
	                                                  "user",
	                                                  "password",
	                                                  "dbname",
	                                                  "application_name",
	                                                  "keepalives",
	                                                  "keepalives_idle",
	                                                  "keepalives_interval",
	                                                  "keepalives_count",
	                                                  NULL};
	char port[16], where[192], *params = NULL;
	const char *vals[11 + DLOCK_PG_MAX_PARAMS + 1], *root;
	dlock_sql_conn *c = NULL;
	int rc, n;

	*out = NULL;
	dlock_target_where(t, where, sizeof(where));
	/* the DSN's libpq keywords (TLS), checked by the DSN parser, which
	 * also made TLS parameters without a mode sslmode=verify-full; a DSN
	 * without any stays at libpq's default (sslmode=prefer, or the
	 * PGSSLMODE... environment) */
	if ((n = dlock_dsn_params_split(t->params, &params, keys + 10, vals + 10,
	                                DLOCK_PG_MAX_PARAMS - 1)) < 0) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if ((root = dlock_pg_rootcert(n, keys + 10, vals + 10))) {
		keys[10 + n] = "sslrootcert";
		vals[10 + n++] = root;
	}
	keys[10 + n] = NULL;
	snprintf(port, sizeof(port), "%d", t->port);
	vals[0] = t->host;
	vals[1] = port;
	vals[2] = t->user;
	vals[3] = t->password;
	vals[4] = t->dbname;
	vals[5] = "dlock";
	vals[6] = "1";
	vals[7] = "10";
	vals[8] = "5";
	vals[9] = "3";
	vals[10 + n] = NULL;
	rc = dlock_pg_open(keys, vals, where, t->connect_timeout_ms > 0 ? t->connect_timeout_ms : 1000,
	                   deadline, intr, &c, err);
	free(params);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if ((rc = dlock_pg_setup(c, deadline, err)) != DLOCK_OK) {
		int status = rc == DLOCK_ECONNLOSS ? DLOCK_ECONNECT : rc;

		dlock_pg_close(c);
		if (err) {
			char why[sizeof(err->msg)];

			memcpy(why, err->msg, sizeof(why));
			dlock_err_set(err, status, 0, "session setup failed: %s", why);
		}
		return status;
	}
	*out = c;
	return DLOCK_OK;
}
