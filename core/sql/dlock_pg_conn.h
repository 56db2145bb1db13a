/* dlock_pg_conn.h: a PostgreSQL session of the SQL backend, shared by the
 * driver's three files (dlock_pg_conn.c: the session; dlock_pg_setup.c: its
 * connect and setup; dlock_pg.c: the statements). Deadlines are absolute dlock_now_ms() values, < 0
 * none. */
#ifndef DLOCK_PG_CONN_H
#define DLOCK_PG_CONN_H

#include <libpq-fe.h>
#include <sys/types.h>

#include "dlock_sql_driver.h"

/* The token table, schema-qualified: an unqualified name resolves through
 * each role's search_path ("$user", public; ALTER ROLE ... SET search_path;
 * PGOPTIONS), and two roles reaching two tables would count one lock's
 * tokens twice (1, 2, then 1 again). */
#define DLOCK_PG_TOKEN_TABLE "public." DLOCK_SQL_TOKEN_TABLE

struct dlock_sql_conn {
	PGconn *pg;
	int64_t pid;          /* pg_backend_pid() of the session */
	int version;          /* the server's server_version_num (e.g. 150004) */
	int64_t grace_ms;     /* how long a cancelled wait's answer may take */
	int64_t lock_timeout; /* the session's lock_timeout (ms, 0: none), as last set */
	int doomed;           /* the server said FATAL: the session is ending */
	pid_t owner;          /* the process that connected: no other may use the session */
	char where[192];      /* postgres://user@host:port/db, no secret */
};

/* The driver operations of the same names (contracts in dlock_sql_driver.h);
 * dlock_pg_connect is dlock_pg_setup.c's, dlock_pg_admin_* dlock_pg_admin.c's. */
int dlock_pg_admin_list(dlock_sql_conn *c, const char *prefix, size_t len, int64_t deadline,
                        dlock_lock_entry **out, size_t *count, dlock_err *err);
int dlock_pg_admin_break(dlock_sql_conn *c, const char *name, size_t len, int slots,
                         int64_t deadline, int *broken, dlock_err *err);
int dlock_pg_connect(const dlock_target *t, int64_t deadline, const dlock_interrupt *intr,
                     dlock_sql_conn **out, dlock_err *err);
void dlock_pg_close(dlock_sql_conn *c);
void dlock_pg_abandon(dlock_sql_conn *c);
int dlock_pg_alive(dlock_sql_conn *c);
int dlock_pg_socket(const dlock_sql_conn *c);
int dlock_pg_wait_event(dlock_sql_conn *c, int64_t until, const dlock_interrupt *intr,
                        dlock_err *err);

/* The status of a failed statement r (NULL: the connection failed), with
 * err filled: DLOCK_ECONNLOSS, DLOCK_ETIMEDOUT (lock_timeout), DLOCK_EINTR
 * (cancelled), DLOCK_EAUTH or DLOCK_ESERVER. */
int dlock_pg_fail(dlock_sql_conn *c, const PGresult *r, dlock_err *err);

/* Runs sql (one or more statements) and returns its result in *out: the
 * first failed statement's result, else the last one (NULL when none),
 * owned by the caller (PQclear). Waits until deadline; when intr asks to
 * stop, the statement is cancelled in the server and *cancelled set, and
 * its answer is still read (for at most grace_ms). cancelled may be NULL
 * (no cancel). Returns DLOCK_OK or DLOCK_ECONNLOSS. */
int dlock_pg_run(dlock_sql_conn *c, const char *sql, int64_t deadline, const dlock_interrupt *intr,
                 int *cancelled, PGresult **out, dlock_err *err);

/* dlock_pg_run without a cancel, a failed statement mapped by
 * dlock_pg_fail; *out holds rows (or a command's result) on DLOCK_OK. */
int dlock_pg_query(dlock_sql_conn *c, const char *sql, int64_t deadline, PGresult **out,
                   dlock_err *err);

/* Opens a session with libpq's keys/vals (NULL-terminated) before deadline,
 * calling intr (may be NULL) between slices, and stores it in *out (owned by
 * the caller, dlock_pg_close): non-blocking, its socket close-on-exec, its
 * notices watched, grace_ms set from grace. Returns DLOCK_OK, DLOCK_ECONNECT,
 * DLOCK_EAUTH, DLOCK_EINTR or DLOCK_ENOMEM; nothing is left on failure. */
int dlock_pg_open(const char *const *keys, const char *const *vals, const char *where,
                  int64_t grace, int64_t deadline, const dlock_interrupt *intr,
                  dlock_sql_conn **out, dlock_err *err);

/* A second session to c's server with c's parameters (the address c
 * reached, no name lookup), open before deadline; for the cancel and the
 * pooler probe. Returns as dlock_pg_open. */
int dlock_pg_side(dlock_sql_conn *c, int64_t deadline, dlock_sql_conn **out, dlock_err *err);

#endif
