/* dlock_pg_conn.c: one PostgreSQL session of the SQL backend (libpq): its
 * non-blocking open, every read as a poll() slice with the interrupt hook
 * and a server-side cancel sent from a side session within a deadline, the
 * FATAL notice that says a session is ending, and a fork child's silent
 * abandon. What a new session is set up with is dlock_pg_setup.c's; the
 * statements themselves are dlock_pg.c's. */
#include "dlock_pg_conn.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

static int dlock_pg_cancel(dlock_sql_conn *c, int64_t deadline);

static void dlock_pg_notice(void *arg, const PGresult *res)
{
	dlock_sql_conn *c = arg;
	const char *sev = PQresultErrorField(res, PG_DIAG_SEVERITY_NONLOCALIZED);

	if (sev && (strcmp(sev, "FATAL") == 0 || strcmp(sev, "PANIC") == 0)) {
		c->doomed = 1; /* e.g. pg_terminate_backend(): sent before the locks are freed */
	}
}

/* Waits up to one slice for events on c's socket. Returns 1 ready, 0 the
 * slice passed, -1 a poll() error. */
static int dlock_pg_poll(dlock_sql_conn *c, short events, int64_t deadline)
{
	struct pollfd pfd = {PQsocket(c->pg), events, 0};
	int64_t slice = DLOCK_WAIT_SLICE_MS, now = dlock_now_ms();
	int n;

	if (deadline >= 0 && deadline - now < slice) {
		slice = deadline > now ? deadline - now : 0;
	}
	n = poll(&pfd, 1, (int)slice);
	if (n < 0) {
		return errno == EINTR ? 0 : -1;
	}
	return n > 0;
}

/* The status of a failed statement or connection, with err filled. */
int dlock_pg_fail(dlock_sql_conn *c, const PGresult *r, dlock_err *err)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = r ? PQresultErrorMessage(r) : PQerrorMessage(c->pg);
	size_t n = strcspn(msg ? msg : "", "\n");

	if (PQstatus(c->pg) == CONNECTION_BAD || c->doomed || !state || strncmp(state, "08", 2) == 0 ||
	    strncmp(state, "57P", 3) == 0) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: connection lost: %.*s", c->where, (int)n,
		                     msg ? msg : "");
	}
	if (strcmp(state, "55P03") == 0) {
		return dlock_err_set(err, DLOCK_ETIMEDOUT, 0, "%s: lock_timeout", c->where);
	}
	if (strcmp(state, "26000") == 0 || strcmp(state, "42P05") == 0) {
		/* our statements are prepared at connect: missing (26000), this
		 * session is not the one that connected; already there (42P05), the
		 * session we just opened is another client's */
		return dlock_err_set(err, DLOCK_ESERVER, 0,
		                     "%s: refused: statements run on different server sessions (a "
		                     "connection pooler in transaction mode, such as PgBouncer with "
		                     "pool_mode=transaction?); session locks cannot work through it",
		                     c->where);
	}
	if (strcmp(state, "57014") == 0) {
		return dlock_err_set(err, DLOCK_EINTR, 0, "%s: wait cancelled", c->where);
	}
	if (strncmp(state, "28", 2) == 0 || strncmp(state, "42501", 5) == 0) {
		return dlock_err_set(err, DLOCK_EAUTH, 0, "%s: %.*s", c->where, (int)n, msg);
	}
	return dlock_err_set(err, DLOCK_ESERVER, 0, "%s: %.*s (SQLSTATE %s)", c->where, (int)n, msg,
	                     state);
}

/* Runs sql (one or more statements) and returns its result in *out: the
 * first failed statement's result, else the last one (NULL when none),
 * owned by the caller (PQclear). Waits until deadline (< 0: none); when intr
 * asks to stop, the statement is cancelled in the server and *cancelled set,
 * and its answer is still read (for at most grace_ms). Returns DLOCK_OK or
 * DLOCK_ECONNLOSS (the connection is unusable). */
int dlock_pg_run(dlock_sql_conn *c, const char *sql, int64_t deadline, const dlock_interrupt *intr,
                 int *cancelled, PGresult **out, dlock_err *err)
{
	PGresult *keep = NULL, *r;
	int flushing = 1;

	*out = NULL;
	if (cancelled) {
		*cancelled = 0;
	}
	if (c->owner != getpid()) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: the session is a fork parent's",
		                     c->where);
	}
	if (c->doomed || !PQsendQuery(c->pg, sql)) {
		return dlock_pg_fail(c, NULL, err);
	}
	for (;;) {
		int ready;

		if (flushing) {
			int f = PQflush(c->pg);

			if (f < 0) {
				goto lost;
			}
			flushing = f == 1;
		}
		while (!flushing && !PQisBusy(c->pg)) {
			if (!(r = PQgetResult(c->pg))) {
				*out = keep;
				return DLOCK_OK;
			}
			if (!keep || PQresultStatus(keep) != PGRES_FATAL_ERROR) {
				PQclear(keep); /* keep the first error, else the last result */
				keep = r;
			} else {
				PQclear(r);
			}
		}
		if (deadline >= 0 && dlock_now_ms() >= deadline) {
			PQclear(keep);
			return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: no answer in time", c->where);
		}
		ready = dlock_pg_poll(c, flushing ? POLLIN | POLLOUT : POLLIN, deadline);
		if (ready < 0 || c->owner != getpid() || (ready && !PQconsumeInput(c->pg))) {
			goto lost; /* forked (by a signal handler) mid-wait: the parent reads its reply */
		}
		if (cancelled && !*cancelled && dlock_interrupted(intr)) {
			int64_t until = dlock_now_ms() + c->grace_ms; /* for the cancel and the answer */

			*cancelled = 1;
			if (c->owner != getpid() || dlock_pg_cancel(c, until) != DLOCK_OK) {
				goto lost; /* cannot stop the wait in time: the connection must go */
			}
			deadline = until;
		}
	}
lost:
	PQclear(keep);
	return dlock_pg_fail(c, NULL, err);
}

/* Runs sql expecting rows (or a command) and maps a failed statement. */
int dlock_pg_query(dlock_sql_conn *c, const char *sql, int64_t deadline, PGresult **out,
                   dlock_err *err)
{
	int rc = dlock_pg_run(c, sql, deadline, NULL, NULL, out, err);

	if (rc == DLOCK_OK && (!*out || PQresultStatus(*out) == PGRES_FATAL_ERROR)) {
		rc = *out ? dlock_pg_fail(c, *out, err)
		          : dlock_err_set(err, DLOCK_ESERVER, 0, "%s: no result", c->where);
		PQclear(*out);
		*out = NULL;
	}
	return rc;
}

void dlock_pg_close(dlock_sql_conn *c)
{
	if (!c) {
		return;
	}
	if (c->pg) {
		PQfinish(c->pg); /* sends Terminate: the server frees the session's locks */
	}
	free(c);
}

void dlock_pg_abandon(dlock_sql_conn *c)
{
	int fd, null;

	if (!c) {
		return;
	}
	/* the parent still talks on this socket: point our descriptor at
	 * /dev/null so that PQfinish's Terminate reaches nobody */
	fd = c->pg ? PQsocket(c->pg) : -1;
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (fd >= 0 && null >= 0) {
		dup2(null, fd);
	}
	if (null >= 0) {
		close(null);
	}
	dlock_pg_close(c);
}

static int dlock_pg_open_fail(dlock_sql_conn *c, int status, const char *what, dlock_err *err)
{
	const char *msg = PQerrorMessage(c->pg), *line;
	size_t n;

	/* a host name with several addresses ("localhost": ::1, 127.0.0.1) gives
	 * one line per address tried; the last is the last try, the one that
	 * got furthest (e.g. the TLS refusal after "Connection refused") */
	msg = msg ? msg : "";
	for (line = msg; (line = strchr(line, '\n')) && line[1]; line++) {
		msg = line + 1;
	}
	n = strcspn(msg, "\n");

	if (status == DLOCK_ECONNECT &&
	    (strstr(msg, "password") || strstr(msg, "authentication") || strstr(msg, "role"))) {
		status = DLOCK_EAUTH;
	}
	dlock_err_set(err, status, 0, "%s: %s%s%.*s", c->where, what, n ? ": " : "", (int)n, msg);
	dlock_pg_close(c);
	return status;
}

int dlock_pg_open(const char *const *keys, const char *const *vals, const char *where,
                  int64_t grace, int64_t deadline, const dlock_interrupt *intr,
                  dlock_sql_conn **out, dlock_err *err)
{
	dlock_sql_conn *c = calloc(1, sizeof(*c));
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;
	pid_t me = getpid();

	*out = NULL;
	if (!c) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	snprintf(c->where, sizeof(c->where), "%s", where);
	c->grace_ms = grace;
	if (!(c->pg = PQconnectStartParams(keys, vals, 0))) {
		free(c);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if (PQstatus(c->pg) == CONNECTION_BAD) {
		return dlock_pg_open_fail(c, DLOCK_ECONNECT, "cannot connect", err);
	}
	while (st != PGRES_POLLING_OK) {
		int ready;

		if (st == PGRES_POLLING_FAILED) {
			return dlock_pg_open_fail(c, DLOCK_ECONNECT, "cannot connect", err);
		}
		if (getpid() !=
		    me) { /* forked by a signal handler: the half-made session is the parent's */
			dlock_err_set(err, DLOCK_ECONNECT, 0, "%s: forked during the connect", c->where);
			dlock_pg_abandon(c);
			return DLOCK_ECONNECT;
		}
		if (dlock_interrupted(intr)) {
			return dlock_pg_open_fail(c, DLOCK_EINTR, "connect interrupted", err);
		}
		if (deadline >= 0 && dlock_now_ms() >= deadline) {
			return dlock_pg_open_fail(c, DLOCK_ECONNECT, "no connection within connect_timeout",
			                          err);
		}
		ready = dlock_pg_poll(c, st == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline);
		if (ready < 0) {
			return dlock_pg_open_fail(c, DLOCK_ECONNECT, "cannot connect", err);
		}
		if (ready) {
			st = PQconnectPoll(c->pg);
		}
	}
	PQsetNoticeReceiver(c->pg, dlock_pg_notice, c);
	c->owner = me;
	/* libpq sets close-on-exec itself; made sure: a program the holder
	 * exec()s must not keep the session (and its locks) alive */
	fcntl(PQsocket(c->pg), F_SETFD, fcntl(PQsocket(c->pg), F_GETFD) | FD_CLOEXEC);
	if (PQsetnonblocking(c->pg, 1) != 0) {
		return dlock_pg_open_fail(c, DLOCK_ECONNECT, "cannot make the socket non-blocking", err);
	}
	c->version = PQserverVersion(c->pg);
	*out = c;
	return DLOCK_OK;
}

int dlock_pg_side(dlock_sql_conn *c, int64_t deadline, dlock_sql_conn **out, dlock_err *err)
{
	PQconninfoOption *opts = PQconninfo(c->pg), *o;
	const char *keys[96], *vals[96], *addr = PQhostaddr(c->pg);
	int n = 0, rc;

	*out = NULL;
	if (!opts) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (o = opts; o->keyword && n < 94; o++) {
		if (o->val && o->val[0] && strcmp(o->keyword, "hostaddr") != 0) {
			keys[n] = o->keyword;
			vals[n++] = o->val;
		}
	}
	if (addr && addr[0]) {
		keys[n] = "hostaddr";
		vals[n++] = addr;
	}
	keys[n] = vals[n] = NULL;
	rc = dlock_pg_open(keys, vals, c->where, c->grace_ms, deadline, NULL, out, err);
	PQconninfoFree(opts);
	return rc;
}

/* Stops what c's session runs, every step before deadline: a side session
 * of the same user sends pg_cancel_backend() (libpq's PQcancel() waits for
 * the postmaster's answer without any bound: a stalled postmaster held an
 * interrupted acquire() for 16 s). Returns DLOCK_OK when the server
 * signalled c's backend; otherwise (no side session in time, no free
 * connection slot, the backend gone) the caller must drop c. */
static int dlock_pg_cancel(dlock_sql_conn *c, int64_t deadline)
{
	dlock_sql_conn *side = NULL;
	PGresult *r = NULL;
	char sql[64];
	int rc = dlock_pg_side(c, deadline, &side, NULL);

	if (rc == DLOCK_OK) {
		snprintf(sql, sizeof(sql), "SELECT pg_cancel_backend(%lld)", (long long)c->pid);
		rc = dlock_pg_query(side, sql, deadline, &r, NULL);
		if (rc == DLOCK_OK && (PQntuples(r) != 1 || PQgetvalue(r, 0, 0)[0] != 't')) {
			rc = DLOCK_ESERVER;
		}
		PQclear(r);
	}
	dlock_pg_close(side);
	return rc;
}

int dlock_pg_socket(const dlock_sql_conn *c)
{
	return c->pg ? PQsocket(c->pg) : -1;
}

int dlock_pg_alive(dlock_sql_conn *c)
{
	struct pollfd pfd = {PQsocket(c->pg), POLLIN, 0};

	if (c->doomed || c->owner != getpid() || PQstatus(c->pg) != CONNECTION_OK) {
		return 0;
	}
	/* notifications read here stay queued for dlock_pg_wait_event; PQisBusy
	 * parses what arrived, so a FATAL notice reaches dlock_pg_notice */
	if (poll(&pfd, 1, 0) > 0 && (!PQconsumeInput(c->pg) || (PQisBusy(c->pg), c->doomed))) {
		return 0;
	}
	return !c->doomed && PQstatus(c->pg) == CONNECTION_OK;
}

int dlock_pg_wait_event(dlock_sql_conn *c, int64_t until, const dlock_interrupt *intr,
                        dlock_err *err)
{
	for (;;) {
		PGnotify *n;
		int got = 0, ready;

		while ((n = PQnotifies(c->pg))) {
			PQfreemem(n);
			got = 1;
		}
		if (got) {
			return DLOCK_OK;
		}
		if (c->doomed || c->owner != getpid() || PQstatus(c->pg) != CONNECTION_OK) {
			return dlock_pg_fail(c, NULL, err);
		}
		if (dlock_interrupted(intr)) {
			return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
		}
		if (until >= 0 && dlock_now_ms() >= until) {
			return DLOCK_ETIMEDOUT;
		}
		ready = dlock_pg_poll(c, POLLIN, until);
		if (ready < 0 || (ready && !PQconsumeInput(c->pg))) {
			return dlock_pg_fail(c, NULL, err);
		}
	}
}
