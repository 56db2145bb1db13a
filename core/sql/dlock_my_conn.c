/* dlock_my_conn.c: MariaDB/MySQL sessions over Connector/C's non-blocking
 * API (MYSQL_OPT_NONBLOCK, the _start and _cont calls): every wait is a poll()
 * on the session's socket of at most DLOCK_WAIT_SLICE_MS, with the interrupt
 * hook between slices and an absolute deadline. Also the side session that
 * cancels a statement (KILL QUERY). Owns no lock logic.
 *
 * Connector/C facts this file relies on (3.3.20):
 * - mysql_library_init() sets SIGPIPE to SIG_IGN for the whole process; we
 *   put the caller's disposition back (PHP decides about its signals). The
 *   library itself writes with send(MSG_NOSIGNAL), so it does not need it.
 * - It registers no atexit() hook and no other signal handler; we never call
 *   mysql_library_end() (a process-wide teardown that would race any other
 *   user of the library in the same process, e.g. PDO/mysqli built on it).
 * - Auto-reconnect is off by default and is forced off here: a silent new
 *   session would have none of the old session's locks. */
#include "dlock_my_conn.h"

#include "../dlock_dsn.h"

#include <errno.h>
#include <fcntl.h>
#include <errmsg.h>
#include <mysqld_error.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

int dlock_my_library_init(dlock_err *err)
{
	static int done;
	struct sigaction old;

	if (done) {
		return DLOCK_OK;
	}
	sigaction(SIGPIPE, NULL, &old);
	if (mysql_library_init(0, NULL, NULL) != 0) {
		sigaction(SIGPIPE, &old, NULL);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "mysql: cannot initialise Connector/C");
	}
	sigaction(SIGPIPE, &old, NULL);
	done = 1;
	return DLOCK_OK;
}

/* Waits in slices for what status asks (MYSQL_WAIT_*) on my's socket. Returns
 * the events that happened, for the *_cont call, or -DLOCK_EINTR when intr
 * asked to stop, or -DLOCK_ETIMEDOUT when deadline (< 0: none) passed with
 * nothing to read or write. */
static int dlock_my_wait(MYSQL *my, int status, int64_t deadline, const dlock_interrupt *intr)
{
	int64_t now = dlock_now_ms(), lib = -1;
	struct pollfd pfd;

	if (status & MYSQL_WAIT_TIMEOUT) {
		lib = now + (int64_t)mysql_get_timeout_value_ms(my);
	}
	for (;;) {
		int64_t slice = DLOCK_WAIT_SLICE_MS;
		int n, ready = 0;

		now = dlock_now_ms();
		if (lib >= 0 && now >= lib) {
			return MYSQL_WAIT_TIMEOUT;
		}
		if (lib >= 0 && lib - now < slice) {
			slice = lib - now;
		}
		if (deadline >= 0 && deadline - now < slice) {
			/* at the deadline one last look without waiting: a process
			 * resumed after a pause may find the reply already there */
			slice = deadline > now ? deadline - now : 0;
		}
		pfd.fd = mysql_get_socket(my);
		pfd.events = (short)(((status & MYSQL_WAIT_READ) ? POLLIN : 0) |
		                     ((status & MYSQL_WAIT_WRITE) ? POLLOUT : 0) |
		                     ((status & MYSQL_WAIT_EXCEPT) ? POLLPRI : 0));
		pfd.revents = 0;
		n = poll(&pfd, 1, (int)slice);
		if (n > 0) {
			if (pfd.revents & (POLLIN | POLLHUP | POLLERR)) {
				ready |= MYSQL_WAIT_READ;
			}
			if (pfd.revents & (POLLOUT | POLLHUP | POLLERR)) {
				ready |= MYSQL_WAIT_WRITE;
			}
			if (pfd.revents & POLLPRI) {
				ready |= MYSQL_WAIT_EXCEPT;
			}
			/* an error or hang-up: let the library run into it */
			return (ready & status) ? (ready & status) : (status & ~MYSQL_WAIT_TIMEOUT);
		}
		if (n < 0 && errno != EINTR) {
			return status & ~MYSQL_WAIT_TIMEOUT; /* the library sees the error */
		}
		if (dlock_interrupted(intr)) {
			return -DLOCK_EINTR;
		}
		if (n == 0 && deadline >= 0 && slice == 0) {
			return -DLOCK_ETIMEDOUT;
		}
	}
}

/* Resumes q's suspended operation with the events in ready. */
static int dlock_my_cont(MYSQL *my, dlock_my_query *q, int ready)
{
	switch (q->op) {
	case DLOCK_MY_CONNECT:
		return mysql_real_connect_cont(&q->cret, my, ready);
	case DLOCK_MY_QUERY:
		return mysql_real_query_cont(&q->iret, my, ready);
	case DLOCK_MY_STORE:
		return mysql_store_result_cont(&q->res, my, ready);
	default:
		return mysql_next_result_cont(&q->iret, my, ready);
	}
}

/* Drives q's operation until it finishes (DLOCK_OK) or the wait gives up
 * (DLOCK_EINTR, DLOCK_ETIMEDOUT: still suspended). */
static int dlock_my_pump(MYSQL *my, dlock_my_query *q, int64_t deadline,
                         const dlock_interrupt *intr)
{
	while (q->status) {
		int ready = dlock_my_wait(my, q->status, deadline, intr);

		if (ready < 0) {
			return -ready;
		}
		q->status = dlock_my_cont(my, q, ready);
	}
	return DLOCK_OK;
}

static void dlock_my_keepalive(MYSQL *my)
{
	int fd = (int)mysql_get_socket(my), on = 1, idle = 30, intvl = 10, cnt = 3;

	/* the client side notices a server that vanished without a FIN within
	 * about a minute of silence: alive() then sees the socket's error */
	setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof(on));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof(idle));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &intvl, sizeof(intvl));
	setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &cnt, sizeof(cnt));
	/* a program the holder exec()s must not keep the session alive after
	 * the holder dies (Connector/C leaves the descriptor inheritable) */
	fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC);
}

/* Applies t's TLS parameters (the DSN's ssl-mode, ssl-ca, ...; names and
 * values checked by the DSN parser) to my. The mode is ssl-mode, else
 * VERIFY_IDENTITY when a CA, certificate or key is named, else DISABLED
 * (Connector/C 3.3's own default: no TLS). Connector/C 3.3 facts (checked
 * against MariaDB 10.11 with a test CA):
 * - MYSQL_OPT_SSL_ENFORCE alone is "TLS if the server offers it": against a
 *   server without TLS it connects in clear text. That is PREFERRED; for
 *   REQUIRED, *required is set and the caller must check after the connect
 *   that the session is encrypted (mysql_get_ssl_cipher()).
 * - A CA given (ssl-ca, ssl-capath) makes it verify the chain, whatever the
 *   mode; MYSQL_OPT_SSL_VERIFY_SERVER_CERT checks the chain (OpenSSL's
 *   default store without a CA) and the server's name, and fails against a
 *   server without TLS. So VERIFY_CA is VERIFY_IDENTITY here (stricter).
 * Returns DLOCK_OK or DLOCK_ENOMEM. */
static int dlock_my_tls(MYSQL *my, const dlock_target *t, int *required, dlock_err *err)
{
	static const struct {
		const char *key;
		enum mysql_option opt;
	} files[] = {{"ssl-ca", MYSQL_OPT_SSL_CA},           {"ssl-capath", MYSQL_OPT_SSL_CAPATH},
	             {"ssl-cert", MYSQL_OPT_SSL_CERT},       {"ssl-key", MYSQL_OPT_SSL_KEY},
	             {"ssl-cipher", MYSQL_OPT_SSL_CIPHER},   {"ssl-crl", MYSQL_OPT_SSL_CRL},
	             {"ssl-crlpath", MYSQL_OPT_SSL_CRLPATH}, {"tls-version", MYSQL_OPT_TLS_VERSION}};
	const char *keys[16], *vals[16], *mode = NULL;
	char *buf = NULL;
	my_bool on = 1;
	int n = dlock_dsn_params_split(t->params, &buf, keys, vals, 16), i, rc = DLOCK_OK, named = 0;
	size_t f;

	if (n < 0) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (i = 0; i < n; i++) {
		if (strcmp(keys[i], "ssl-mode") == 0) {
			mode = vals[i];
		} else if (strcmp(keys[i], "ssl-cipher") != 0 && strcmp(keys[i], "tls-version") != 0) {
			named = 1;
		}
	}
	if (!mode) {
		mode = named ? "VERIFY_IDENTITY" : "DISABLED";
	}
	*required = strcasecmp(mode, "DISABLED") != 0 && strcasecmp(mode, "PREFERRED") != 0;
	if (strcasecmp(mode, "DISABLED") == 0) {
		goto done;
	}
	for (i = 0; i < n; i++) {
		for (f = 0; f < sizeof(files) / sizeof(files[0]); f++) {
			if (strcmp(keys[i], files[f].key) == 0 &&
			    mysql_options(my, files[f].opt, vals[i]) != 0) {
				rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
				goto done;
			}
		}
	}
	if (mysql_options(my, MYSQL_OPT_SSL_ENFORCE, &on) != 0 ||
	    (strncasecmp(mode, "VERIFY_", 7) == 0 &&
	     mysql_options(my, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, &on) != 0)) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
done:
	free(buf);
	return rc;
}

int dlock_my_open(const dlock_target *t, const char *where, int64_t deadline,
                  const dlock_interrupt *intr, MYSQL **out, dlock_err *err)
{
	unsigned int proto = t->host && t->host[0] == '/' ? MYSQL_PROTOCOL_SOCKET : MYSQL_PROTOCOL_TCP,
	             e;
	pid_t me = getpid();
	my_bool off = 0;
	int tls = 0;
	int64_t now = dlock_now_ms(), limit = deadline;
	dlock_my_query q;
	MYSQL *my;
	int rc;

	*out = NULL;
	if (t->connect_timeout_ms > 0 && (limit < 0 || now + t->connect_timeout_ms < limit)) {
		limit = now + t->connect_timeout_ms;
	}
	if (!(my = mysql_init(NULL))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	/* TCP even for "localhost" (the DSN names a port, not a socket file),
	 * a Unix socket when the DSN named one (socket=/path: the host is the
	 * path); no option files are read (no MYSQL_READ_DEFAULT_*), no LOCAL
	 * INFILE */
	if (mysql_options(my, MYSQL_OPT_NONBLOCK, 0) != 0 ||
	    mysql_options(my, MYSQL_OPT_PROTOCOL, &proto) != 0 ||
	    mysql_options(my, MYSQL_OPT_RECONNECT, &off) != 0 ||
	    mysql_options(my, MYSQL_OPT_LOCAL_INFILE, &off) != 0 ||
	    mysql_options(my, MYSQL_SET_CHARSET_NAME, "utf8mb4") != 0) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto fail;
	}
	if ((rc = dlock_my_tls(my, t, &tls, err)) != DLOCK_OK) {
		goto fail;
	}
	memset(&q, 0, sizeof(q));
	q.op = DLOCK_MY_CONNECT;
	q.status = mysql_real_connect_start(
	    &q.cret, my, proto == MYSQL_PROTOCOL_SOCKET ? "localhost" : t->host, t->user, t->password,
	    t->dbname, (unsigned int)t->port, proto == MYSQL_PROTOCOL_SOCKET ? t->host : NULL,
	    CLIENT_MULTI_STATEMENTS);
	rc = dlock_my_pump(my, &q, limit, intr);
	if (getpid() != me) {
		/* forked by a signal handler run inside the connect: the socket
		 * and its half-made session are the parent's */
		int null = open("/dev/null", O_RDWR | O_CLOEXEC), fd = (int)mysql_get_socket(my);

		if (fd >= 0 && (null < 0 || dup2(null, fd) < 0)) {
			close(fd);
		}
		if (null >= 0) {
			close(null);
		}
		rc = dlock_err_set(err, DLOCK_ECONNECT, 0,
		                   "cannot connect to %s: this process was forked during the connect",
		                   where);
		goto fail;
	}
	if (rc != DLOCK_OK) {
		if (rc == DLOCK_EINTR) {
			dlock_err_set(err, DLOCK_EINTR, 0, "interrupted while connecting to %s", where);
		} else {
			rc = dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: no answer in %lld ms",
			                   where, (long long)(limit - now));
		}
		goto fail;
	}
	if (!q.cret) {
		e = mysql_errno(my);
		if (e == ER_ACCESS_DENIED_ERROR || e == ER_DBACCESS_DENIED_ERROR) {
			rc = DLOCK_EAUTH;
		} else if (e == ER_BAD_DB_ERROR) {
			rc = DLOCK_ESERVER; /* retrying will not create the database */
		} else if (e == CR_OUT_OF_MEMORY) {
			rc = DLOCK_ENOMEM;
		} else {
			rc = DLOCK_ECONNECT;
		}
		dlock_err_set(err, rc, 0, "cannot connect to %s: %.160s (%u)", where, mysql_error(my), e);
		goto fail;
	}
	if (tls && !mysql_get_ssl_cipher(my)) {
		/* ssl-mode=REQUIRED met a server without TLS: Connector/C went on in
		 * clear text; no lock may travel over it */
		rc = dlock_err_set(err, DLOCK_ECONNECT, 0,
		                   "cannot connect to %s: the server does not offer TLS, and the DSN's "
		                   "ssl-mode requires it",
		                   where);
		goto fail;
	}
	dlock_my_keepalive(my);
	*out = my;
	return DLOCK_OK;
fail:
	mysql_close(my); /* nothing was sent on an unconnected handle */
	return rc;
}

void dlock_my_query_start(dlock_sql_conn *c, dlock_my_query *q)
{
	q->op = DLOCK_MY_QUERY;
	if (c->owner != getpid()) {
		q->status = 0; /* a fork parent's session: dlock_my_query_run refuses */
		return;
	}
	q->status = mysql_real_query_start(&q->iret, c->my, q->sql, q->len);
}

/* The refusal of every call on a fork parent's session. */
static int dlock_my_forked(dlock_sql_conn *c, dlock_err *err)
{
	c->broken = 1;
	return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: the session is a fork parent's", c->where);
}

/* Maps the error c's handle reports to a status (msg: what, then the error). */
static int dlock_my_fail(dlock_sql_conn *c, const char *what, dlock_err *err)
{
	unsigned int e = mysql_errno(c->my);
	int rc = DLOCK_ESERVER;

	if (e == CR_OUT_OF_MEMORY) {
		rc = DLOCK_ENOMEM;
	} else if ((e >= CR_MIN_ERROR && e <= CR_MAX_ERROR) || e == ER_CONNECTION_KILLED ||
	           e == ER_SERVER_SHUTDOWN || e == ER_NORMAL_SHUTDOWN) {
		/* the client lost the connection or its protocol state, or the
		 * server is ending the session: no hold on it can be trusted */
		rc = DLOCK_ECONNLOSS;
		c->broken = 1;
	}
	return dlock_err_set(err, rc, 0, "%s: %s: %.160s (%u)", c->where, what, mysql_error(c->my), e);
}

/* With want_text: the first column of every row of res as lines in
 * q->text (replacing an earlier result set's). Out of memory: text NULL. */
static void dlock_my_keep_text(dlock_my_query *q, MYSQL_RES *res)
{
	MYSQL_ROW row;
	size_t cap = 256;

	free(q->text);
	q->text_len = 0;
	if (!(q->text = malloc(cap))) {
		return;
	}
	q->text[0] = '\0';
	while ((row = mysql_fetch_row(res)) != NULL) { /* stored: no I/O */
		size_t n = row[0] ? strlen(row[0]) : 0;

		if (q->text_len + n + 2 > cap) {
			char *g = realloc(q->text, cap = (q->text_len + n + 2) * 2);

			if (!g) {
				free(q->text);
				q->text = NULL;
				return;
			}
			q->text = g;
		}
		memcpy(q->text + q->text_len, row[0] ? row[0] : "", n);
		q->text_len += n;
		q->text[q->text_len++] = '\n';
		q->text[q->text_len] = '\0';
	}
	mysql_data_seek(res, 0);
}

/* Keeps the first row of a stored result in q (integers; NULLs flagged). */
static void dlock_my_keep_row(dlock_my_query *q, MYSQL_RES *res)
{
	MYSQL_ROW row;
	unsigned int n = mysql_num_fields(res), i;

	if (q->want_text) {
		dlock_my_keep_text(q, res);
	}
	row = mysql_fetch_row(res); /* stored: no I/O */
	if (!row) {
		return;
	}
	q->rows++;
	for (i = 0; i < (unsigned int)q->nv; i++) {
		q->isnull[i] = i >= n || !row[i];
		q->v[i] = q->isnull[i] ? 0 : strtoll(row[i], NULL, 10);
	}
}

int dlock_my_query_run(dlock_sql_conn *c, dlock_my_query *q, int64_t deadline,
                       const dlock_interrupt *intr, const char *what, dlock_err *err)
{
	int rc;

	for (;;) {
		if (c->owner != getpid()) {
			return dlock_my_forked(c, err); /* forked (by a signal handler) mid-wait */
		}
		rc = dlock_my_pump(c->my, q, deadline, intr);
		if (c->owner != getpid()) {
			return dlock_my_forked(c, err);
		}
		if (rc != DLOCK_OK) {
			return rc;
		}
		if (q->op == DLOCK_MY_STORE) {
			if (q->res) {
				dlock_my_keep_row(q, q->res);
				mysql_free_result(q->res);
				q->res = NULL;
			} else if (mysql_field_count(c->my) != 0) {
				return dlock_my_fail(c, what, err); /* a result set that could not be read */
			}
			if (!mysql_more_results(c->my)) {
				return DLOCK_OK;
			}
			q->op = DLOCK_MY_NEXT;
			q->status = mysql_next_result_start(&q->iret, c->my);
			continue;
		}
		/* a query or next-result call finished */
		if (q->iret > 0 || (q->op == DLOCK_MY_QUERY && q->iret != 0)) {
			return dlock_my_fail(c, what, err); /* a statement failed: no more results */
		}
		if (q->op == DLOCK_MY_NEXT && q->iret < 0) {
			return DLOCK_OK;
		}
		q->op = DLOCK_MY_STORE;
		q->status = mysql_store_result_start(&q->res, c->my);
	}
}

int dlock_my_exec(dlock_sql_conn *c, dlock_my_query *q, int64_t deadline, const char *what,
                  dlock_err *err)
{
	int rc;

	if (c->broken) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: the connection was lost before",
		                     c->where);
	}
	dlock_my_query_start(c, q);
	rc = dlock_my_query_run(c, q, deadline, NULL, what, err);
	if (rc == DLOCK_ETIMEDOUT || rc == DLOCK_EINTR) {
		c->broken = 1; /* a reply is still on its way: the protocol state is lost */
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: %s: no reply in time", c->where, what);
	}
	return rc;
}

int dlock_my_cancel(dlock_sql_conn *c, int64_t deadline, dlock_err *err)
{
	dlock_sql_conn side;
	dlock_my_query q;
	char sql[64];
	int rc;

	if (c->owner != getpid()) {
		return dlock_my_forked(c, err); /* never cancel the parent's statement */
	}
	memset(&side, 0, sizeof(side));
	side.owner = getpid();
	snprintf(side.where, sizeof(side.where), "%s", c->where);
	if ((rc = dlock_my_open(&c->cfg, c->where, deadline, NULL, &side.my, err)) != DLOCK_OK) {
		return rc;
	}
	memset(&q, 0, sizeof(q));
	q.len = (unsigned long)snprintf(sql, sizeof(sql), "KILL QUERY %lld", (long long)c->id);
	q.sql = sql;
	rc = dlock_my_exec(&side, &q, deadline, "cancel (KILL QUERY)", err);
	mysql_close(side.my);
	return rc;
}
