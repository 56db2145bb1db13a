/* dlock_my_session.c: a MySQL/MariaDB session for the lock driver (dlock_my.c):
 * connect and the session's settings, the token table made when missing, a
 * replica refused, close and abandon (after fork). Settings, in one round
 * trip with the table's lookup:
 * wait_timeout = 31536000 (the most the server allows, a year): a hold lasts
 * as long as its session, and a process that holds a lock while doing other
 * work (or nothing) for more than the default 8 hours must not lose it
 * silently. A client that dies still frees its locks at once (its kernel
 * closes the socket); one whose host vanishes is found by the server's TCP
 * keepalive (global tcp_keepalive_time, by default the kernel's 2 h; it is
 * not settable per session). max_statement_time = 0 (MariaDB) /
 * max_execution_time = 0 (MySQL): a server-wide statement limit would cut a
 * long GET_LOCK wait. autocommit = 1: the token update commits by itself.
 * The same round trip asks whether the server is read-only or (MariaDB) a
 * replica: such a server is refused (dlock_my_refuse_replica).
 * Calls only dlock_my_conn.c (the non-blocking session machinery). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_my_conn.h"
#include "dlock_my_session.h"

/* Lower-cases db in place: the server's own spelling of a database name
 * when lower_case_table_names is not 0 (1: stored lower-cased, 2: compared
 * lower-cased), where "/shop" and "/SHOP" name one database and so must give
 * one lock name. A DSN's database is ASCII (dlock_dsn.c), whose case folding
 * is the server's. */
static void dlock_my_fold_db(char *db)
{
	for (; db && *db; db++) {
		if (*db >= 'A' && *db <= 'Z') {
			*db = (char)(*db - 'A' + 'a');
		}
	}
}

/* Runs one statement whose last result's first row has nv integers. */
int dlock_my_simple(dlock_sql_conn *c, const char *sql, int nv, int64_t deadline, const char *what,
                    dlock_my_query *q, dlock_err *err)
{
	memset(q, 0, sizeof(*q));
	q->sql = sql;
	q->len = (unsigned long)strlen(sql);
	q->nv = nv;
	return dlock_my_exec(c, q, deadline, what, err);
}

/* Creates the token table, missing in c's database, before deadline.
 * Returns DLOCK_OK, DLOCK_ECONNECT (no answer) or DLOCK_ESERVER (refused:
 * msg says how to create it by hand). */
static int dlock_my_create_table(dlock_sql_conn *c, int64_t deadline, dlock_err *err)
{
	static const char create[] = "CREATE TABLE IF NOT EXISTS " DLOCK_SQL_TOKEN_TABLE
	                             " (name VARBINARY(1024) PRIMARY KEY, token BIGINT NOT NULL)"
	                             " ENGINE=InnoDB";
	dlock_my_query q;
	int rc = dlock_my_simple(c, create, 0, deadline, "create " DLOCK_SQL_TOKEN_TABLE, &q, NULL);

	if (rc == DLOCK_ECONNLOSS) {
		return dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: session setup failed",
		                     c->where);
	}
	if (rc != DLOCK_OK) {
		return dlock_err_set(err, DLOCK_ESERVER, 0,
		                     "database %.64s: table " DLOCK_SQL_TOKEN_TABLE
		                     " is missing and cannot be created (%.60s); create it once by hand: "
		                     "CREATE TABLE " DLOCK_SQL_TOKEN_TABLE
		                     " (name VARBINARY(1024) PRIMARY KEY, token BIGINT NOT NULL)",
		                     c->cfg.dbname ? c->cfg.dbname : "", mysql_error(c->my));
	}
	return DLOCK_OK;
}

/* Refuses a server that is read-only or a replica, from the setup's answer
 * q (v[2]: whether @@GLOBAL.read_only is on; v[3]: MariaDB's Slaves_running,
 * or NULL): GET_LOCK works there, but its locks are that server's own and
 * exclude nobody who
 * reached the primary, so two holders could meet. read_only is refused
 * whoever the user is (a user with SUPER or READ ONLY ADMIN could still
 * write the token row). MySQL's super_read_only implies read_only. Returns
 * DLOCK_OK or DLOCK_ESERVER. */
static int dlock_my_refuse_replica(dlock_sql_conn *c, const dlock_my_query *q, dlock_err *err)
{
	if (!q->isnull[3] && q->v[3] > 0) {
		return dlock_err_set(err, DLOCK_ESERVER, 0,
		                     "%s: refused: the server is a replica (Slaves_running = %lld), whose "
		                     "GET_LOCK locks do not exclude the primary's "
		                     "clients; point the DSN at the primary",
		                     c->where, (long long)q->v[3]);
	}
	if (!q->isnull[2] && q->v[2] != 0) {
		return dlock_err_set(err, DLOCK_ESERVER, 0,
		                     "%s: refused: the server is read-only (read_only is ON), as a "
		                     "replica is; its GET_LOCK locks would not exclude the primary's "
		                     "clients; point the DSN at the primary (a primary that is "
		                     "read-only for maintenance is refused too)",
		                     c->where);
	}
	return DLOCK_OK;
}

int dlock_my_connect(const dlock_target *t, int64_t deadline, const dlock_interrupt *intr,
                     dlock_sql_conn **out, dlock_err *err)
{
	/* the table is looked for first: CREATE TABLE IF NOT EXISTS needs the
	 * CREATE privilege even when the table exists, and a table created once
	 * by hand must be enough */
	static const char setup[] =
	    "SET SESSION wait_timeout = 31536000, SESSION autocommit = 1%s;"
	    "SELECT CONNECTION_ID(), (SELECT COUNT(*) FROM information_schema.TABLES"
	    " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = '" DLOCK_SQL_TOKEN_TABLE "'),"
	    " CAST(@@GLOBAL.read_only AS CHAR) NOT IN ('0', 'OFF'), %s, @@lower_case_table_names";
	/* read_only as text: an integer on MySQL and MariaDB 10, an enum on
	 * newer MariaDB. MariaDB's count of running replication threads is
	 * readable without a privilege (SHOW SLAVE STATUS needs SLAVE
	 * MONITOR); MySQL 5.7+ has it only in performance_schema tables that
	 * need one, so on MySQL only read_only is asked */
	static const char maria_replica[] =
	    "(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
	    " WHERE VARIABLE_NAME = 'SLAVES_RUNNING')";
	char sql[sizeof(setup) + sizeof(maria_replica) + 64];
	int maria;
	int64_t now = dlock_now_ms(), limit = deadline;
	dlock_sql_conn *c;
	dlock_my_query q;
	int rc;

	*out = NULL;
	if ((rc = dlock_my_library_init(err)) != DLOCK_OK) {
		return rc;
	}
	if (!(c = calloc(1, sizeof(*c)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if ((rc = dlock_target_copy(&c->cfg, t, err)) != DLOCK_OK) {
		free(c);
		return rc;
	}
	dlock_target_where(t, c->where, sizeof(c->where));
	if (t->connect_timeout_ms > 0 && (limit < 0 || now + t->connect_timeout_ms < limit)) {
		limit = now + t->connect_timeout_ms;
	}
	if ((rc = dlock_my_open(t, c->where, limit, intr, &c->my, err)) != DLOCK_OK) {
		goto fail;
	}
	c->owner = getpid();
	maria = strstr(mysql_get_server_info(c->my), "MariaDB") != NULL;
	snprintf(sql, sizeof(sql), setup,
	         maria ? ", SESSION max_statement_time = 0" : ", SESSION max_execution_time = 0",
	         maria ? maria_replica : "NULL");
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.len = (unsigned long)strlen(sql);
	q.nv = 5;
	dlock_my_query_start(c, &q);
	rc = dlock_my_query_run(c, &q, limit, intr, "session setup", err);
	if (rc == DLOCK_ETIMEDOUT || rc == DLOCK_ECONNLOSS) {
		rc = dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: session setup %s",
		                   c->where, rc == DLOCK_ETIMEDOUT ? "not answered in time" : "failed");
	} else if (rc == DLOCK_EINTR) {
		dlock_err_set(err, rc, 0, "interrupted while connecting to %s", c->where);
	} else if (rc == DLOCK_OK && (q.rows == 0 || q.isnull[0])) {
		rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: no CONNECTION_ID()", c->where);
	}
	if (rc != DLOCK_OK) {
		goto fail;
	}
	c->id = q.v[0];
	if ((rc = dlock_my_refuse_replica(c, &q, err)) != DLOCK_OK) {
		goto fail;
	}
	if (!q.isnull[4] && q.v[4] != 0) {
		dlock_my_fold_db(c->cfg.dbname);
	}
	if (q.isnull[1] || q.v[1] == 0) {
		rc = dlock_my_create_table(c, limit, err);
		if (rc != DLOCK_OK) {
			goto fail;
		}
	}
	*out = c;
	return DLOCK_OK;
fail:
	if (c->my) {
		mysql_close(c->my);
	}
	dlock_target_clear(&c->cfg);
	free(c);
	return rc;
}

void dlock_my_close(dlock_sql_conn *c)
{
	if (!c) {
		return;
	}
	mysql_close(c->my); /* COM_QUIT: the server drops every lock of the session */
	dlock_target_clear(&c->cfg);
	free(c);
}

void dlock_my_abandon(dlock_sql_conn *c)
{
	int fd, null;

	if (!c) {
		return;
	}
	/* Connector/C has no close without COM_QUIT, and a shutdown() would end
	 * the parent's session too: the socket's descriptor is first replaced by
	 * /dev/null, so the QUIT goes there and the close closes only that. */
	fd = (int)mysql_get_socket(c->my);
	if (fd >= 0 && (null = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0) {
		if (dup2(null, fd) < 0) {
			close(fd); /* at least the QUIT then fails instead of being sent */
		}
		close(null);
	} else if (fd >= 0) {
		close(fd);
	}
	mysql_close(c->my);
	dlock_target_clear(&c->cfg);
	free(c);
}
