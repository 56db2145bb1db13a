/* dlock_redis_conn.c: a deadline-bound Redis connection over hiredis's
 * synchronous context, read in poll() slices; over TLS (rediss://) through
 * dlock_redis_tls.c where the build has hiredis_ssl. */
#include "dlock_redis_conn.h"

#include "../dlock_build.h"
#ifdef DLOCK_WITH_REDIS_TLS
#include "dlock_redis_tls.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

int dlock_redis_conn_init(dlock_redis_conn *c, const dlock_target *t, dlock_err *err)
{
	int rc;

	memset(c, 0, sizeof(*c));
	if ((rc = dlock_target_copy(&c->cfg, t, err)) != DLOCK_OK) {
		return rc;
	}
	dlock_target_where(t, c->where, sizeof(c->where));
	return DLOCK_OK;
}

void dlock_redis_conn_drop(dlock_redis_conn *c)
{
	if (c->ctx) {
		redisFree(c->ctx); /* closes the fd; hiredis sends nothing on close (no TLS
		                      close_notify either: a fork child must stay silent) */
		c->ctx = NULL;
	}
	c->ssl = NULL; /* freed with ctx */
}

void dlock_redis_conn_clear(dlock_redis_conn *c)
{
	dlock_redis_conn_drop(c);
	dlock_target_clear(&c->cfg);
}

static int dlock_redis_str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int dlock_redis_conn_matches(const dlock_redis_conn *c, const dlock_target *t)
{
	return dlock_target_same_server(&c->cfg, t) && dlock_redis_str_eq(c->cfg.user, t->user) &&
	       dlock_redis_str_eq(c->cfg.password, t->password);
}

/* The end of a call in a fork child (a signal handler run inside the call
 * forked): the call, its reply and its server-side wait are the parent's. */
static int dlock_redis_conn_forked(dlock_redis_conn *c, dlock_err *err)
{
	return dlock_err_set(err, DLOCK_EFORKED, 0,
	                     "%s: the process forked during this call (in a signal handler?); the "
	                     "call is the parent's, the child leaves it alone",
	                     c->where);
}

/* Waits for the reply of what was appended to c->ctx. */
static int dlock_redis_conn_read(dlock_redis_conn *c, int64_t deadline, const dlock_interrupt *intr,
                                 redisReply **reply, dlock_err *err)
{
	int done = 0, late = 0;

	while (!done) {
		if (redisBufferWrite(c->ctx, &done) != REDIS_OK) {
			goto io;
		}
	}
	for (;;) {
		void *r = NULL;
		struct pollfd pfd;
		int64_t now, slice = DLOCK_WAIT_SLICE_MS;
		int n;

		if (redisGetReplyFromReader(c->ctx, &r) != REDIS_OK) {
			goto io;
		}
		if (r) {
			redisReply *e = r;

			if (e->type == REDIS_REPLY_ERROR &&
			    strncmp(e->str, "ERR max number of clients", 25) == 0) {
				/* over maxclients the server answers the connect with this
				 * and closes: a refused connection, not a failed command */
				dlock_err_set(err, DLOCK_ECONNECT, 0,
				              "%s: the server refused the connection: over its connection limit "
				              "(maxclients, default 10000; \"%.60s\")",
				              c->where, e->str);
				freeReplyObject(e);
				dlock_redis_conn_drop(c);
				c->broken_at = dlock_now_ms();
				return DLOCK_ECONNECT;
			}
			*reply = r;
			return DLOCK_OK;
		}
#ifdef DLOCK_WITH_REDIS_TLS
		if (dlock_redis_tls_pending(c->ssl)) {
			/* decrypted bytes wait inside OpenSSL: the socket may be quiet */
			if (redisBufferRead(c->ctx) != REDIS_OK) {
				goto io;
			}
			continue;
		}
#endif
		now = dlock_now_ms();
		if (deadline >= 0) {
			if (now >= deadline) {
				/* a process resumed after a pause may find the reply waiting */
				pfd.fd = c->ctx->fd;
				pfd.events = POLLIN;
				pfd.revents = 0;
				if (!late && poll(&pfd, 1, 0) > 0) {
					late = 1;
					if (redisBufferRead(c->ctx) != REDIS_OK) {
						goto io;
					}
					continue;
				}
				dlock_redis_conn_drop(c);
				return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: no reply in time", c->where);
			}
			if (deadline - now < slice) {
				slice = deadline - now;
			}
		}
		pfd.fd = c->ctx->fd;
		pfd.events = POLLIN;
		pfd.revents = 0;
		n = poll(&pfd, 1, (int)slice);
		if (n > 0) {
			if (redisBufferRead(c->ctx) != REDIS_OK) {
				goto io;
			}
		} else if (n < 0 && errno != EINTR) {
			goto io;
		}
		if (n <= 0 && dlock_interrupted(intr)) {
			dlock_redis_conn_drop(c);
			if (c->pid != getpid()) {
				return dlock_redis_conn_forked(c, err);
			}
			return dlock_err_set(err, DLOCK_EINTR, 0, "interrupted");
		}
		if (c->ctx && c->pid != getpid()) {
			/* a signal handler forked: the reply is the parent's */
			dlock_redis_conn_drop(c);
			return dlock_redis_conn_forked(c, err);
		}
		if (!c->ctx) {
			/* the hook closed it (it must not: the pool lends a busy
			 * connection to nobody else); the reply is lost */
			c->broken_at = dlock_now_ms();
			return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: connection closed during a call",
			                     c->where);
		}
	}
io:
	dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: %s", c->where,
	              c->ctx->errstr[0] ? c->ctx->errstr : "connection lost");
	dlock_redis_conn_drop(c);
	c->broken_at = dlock_now_ms();
	return DLOCK_ECONNLOSS;
}

/* The decimal digits of v. */
static size_t conn_dec_len(size_t v)
{
	size_t n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* Writes v in decimal and CRLF at p; returns the end. */
static char *conn_put_dec(char *p, size_t v)
{
	size_t n = conn_dec_len(v), i;

	for (i = n; i > 0; i--) {
		p[i - 1] = (char)('0' + v % 10);
		v /= 10;
	}
	p[n] = '\r';
	p[n + 1] = '\n';
	return p + n + 2;
}

/* Appends one command (argv, with lens or NUL-terminated) to ctx's output
 * buffer in RESP, the bytes redisAppendCommandArgv() would write: hiredis
 * 0.14 formats them through sdscatfmt, ~9,000 instructions for one lock
 * script's arguments, which is plain copying here. REDIS_OK, or REDIS_ERR out
 * of memory. */
static int conn_append(redisContext *ctx, int argc, const char **argv, const size_t *lens)
{
	char stack[1024], *buf = stack, *p;
	size_t len = 1 + conn_dec_len((size_t)argc) + 2, n;
	int i, rc;

	for (i = 0; i < argc; i++) {
		n = lens ? lens[i] : strlen(argv[i]);
		len += 1 + conn_dec_len(n) + 2 + n + 2;
	}
	if (len > sizeof(stack) && !(buf = malloc(len))) {
		return REDIS_ERR;
	}
	p = buf;
	*p++ = '*';
	p = conn_put_dec(p, (size_t)argc);
	for (i = 0; i < argc; i++) {
		n = lens ? lens[i] : strlen(argv[i]);
		*p++ = '$';
		p = conn_put_dec(p, n);
		memcpy(p, argv[i], n);
		p += n;
		*p++ = '\r';
		*p++ = '\n';
	}
	rc = redisAppendFormattedCommand(ctx, buf, len);
	if (buf != stack) {
		free(buf);
	}
	return rc;
}

/* Sends one command on an open connection; for the hand-shake. */
static int dlock_redis_conn_simple(dlock_redis_conn *c, int argc, const char **argv,
                                   int64_t deadline, dlock_err *err)
{
	redisReply *r = NULL;
	int rc;

	if (conn_append(c->ctx, argc, argv, NULL) != REDIS_OK) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if ((rc = dlock_redis_conn_read(c, deadline, NULL, &r, err)) != DLOCK_OK) {
		return rc;
	}
	if (r->type == REDIS_REPLY_ERROR) {
		/* any refusal of AUTH is about the credentials (WRONGPASS, or a
		 * password given to a server or user that has none): not reachability */
		rc = dlock_err_set(err,
		                   strcasecmp(argv[0], "AUTH") == 0 ||
		                           strncmp(r->str, "WRONGPASS", 9) == 0 ||
		                           strncmp(r->str, "NOAUTH", 6) == 0
		                       ? DLOCK_EAUTH
		                       : DLOCK_ECONNECT,
		                   0, "%s: %s refused: %.160s", c->where, argv[0], r->str);
		freeReplyObject(r);
		dlock_redis_conn_drop(c);
		return rc;
	}
	freeReplyObject(r);
	return DLOCK_OK;
}

static struct timeval dlock_redis_tv(int64_t limit)
{
	int64_t ms = limit - dlock_now_ms();
	struct timeval tv;

	if (ms < 1) {
		ms = 1;
	}
	tv.tv_sec = ms / 1000;
	tv.tv_usec = (suseconds_t)(ms % 1000) * 1000;
	return tv;
}

int dlock_redis_sentinel_master(const dlock_target *t, int64_t limit, char *host, size_t size,
                                int *port, dlock_err *err)
{
	const char *p = t->sentinels;

	while (p && *p) {
		const char *comma = strchr(p, ','), *colon;
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		char addr[300];
		redisContext *sc;
		redisReply *r;

		snprintf(addr, sizeof(addr), "%.*s", (int)n, p);
		p = comma ? comma + 1 : NULL;
		if (!(colon = strrchr(addr, ':'))) {
			continue;
		}
		addr[colon - addr] = '\0';
		sc = redisConnectWithTimeout(addr, atoi(colon + 1), dlock_redis_tv(limit));
		if (!sc || sc->err) {
			if (sc) {
				redisFree(sc);
			}
			continue;
		}
		(void)fcntl(sc->fd, F_SETFD, fcntl(sc->fd, F_GETFD) | FD_CLOEXEC);
		redisSetTimeout(sc, dlock_redis_tv(limit));
		r = redisCommand(sc, "SENTINEL get-master-addr-by-name %s", t->master_name);
		if (r && r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
		    r->element[0]->type == REDIS_REPLY_STRING &&
		    r->element[1]->type == REDIS_REPLY_STRING) {
			snprintf(host, size, "%s", r->element[0]->str);
			*port = atoi(r->element[1]->str);
			freeReplyObject(r);
			redisFree(sc);
			return DLOCK_OK;
		}
		if (r) {
			freeReplyObject(r);
		}
		redisFree(sc);
	}
	return dlock_err_set(err, DLOCK_ECONNECT, 0, "no sentinel of %s named its master",
	                     t->master_name ? t->master_name : "?");
}

static int dlock_redis_conn_open(dlock_redis_conn *c, int64_t deadline, dlock_err *err)
{
	char master[256];
	const char *host = c->cfg.host;
	int port = c->cfg.port;
	int64_t now = dlock_now_ms(), limit = now + c->cfg.connect_timeout_ms;
	struct timeval tv;
	char db[16];
	int rc;

	if (c->ctx && c->pid == getpid()) {
		return DLOCK_OK;
	}
	dlock_redis_conn_drop(c); /* a fork parent's socket: never shared */
	if (deadline >= 0 && deadline < limit) {
		limit = deadline;
	}
	if (limit <= now) {
		limit = now + 1;
	}
	if (c->cfg.sentinels) {
		if ((rc = dlock_redis_sentinel_master(&c->cfg, limit, master, sizeof(master), &port,
		                                      err)) != DLOCK_OK) {
			return rc;
		}
		host = master;
	}
	tv = dlock_redis_tv(limit);
	/* a host starting with "/" is a Unix socket (redis:///path/to.sock) */
	c->ctx = host && host[0] == '/' ? redisConnectUnixWithTimeout(host, tv)
	                                : redisConnectWithTimeout(host, port, tv);
	if (!c->ctx) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if (c->ctx->err) {
		dlock_err_set(err, DLOCK_ECONNECT, 0, "cannot connect to %s: %s", c->where, c->ctx->errstr);
		dlock_redis_conn_drop(c);
		return DLOCK_ECONNECT;
	}
	c->pid = getpid();
	/* a program this process exec()s must not inherit the connection (it
	 * would keep a socket to the server open past this process) */
	(void)fcntl(c->ctx->fd, F_SETFD, fcntl(c->ctx->fd, F_GETFD) | FD_CLOEXEC);
#ifdef DLOCK_WITH_REDIS_TLS
	/* rediss:// (only such a target has params): the handshake before AUTH,
	 * so the password travels encrypted to a verified server */
	if (c->cfg.params && (rc = dlock_redis_tls_start(c->ctx, &c->cfg, host, limit, c->where,
	                                                 &c->ssl, err)) != DLOCK_OK) {
		dlock_redis_conn_drop(c);
		return rc;
	}
#endif
	if (c->cfg.password) {
		const char *auth[3] = {"AUTH", c->cfg.user ? c->cfg.user : c->cfg.password,
		                       c->cfg.password};

		if ((rc = dlock_redis_conn_simple(c, c->cfg.user ? 3 : 2, auth, limit, err)) != DLOCK_OK) {
			return rc == DLOCK_ECONNLOSS ? DLOCK_ECONNECT : rc;
		}
	}
	if (c->cfg.db != 0) {
		const char *sel[2] = {"SELECT", db};

		snprintf(db, sizeof(db), "%d", c->cfg.db);
		if ((rc = dlock_redis_conn_simple(c, 2, sel, limit, err)) != DLOCK_OK) {
			return rc == DLOCK_ECONNLOSS ? DLOCK_ECONNECT : rc;
		}
	}
	if (c->cfg.sentinels) {
		/* a fail-over in progress: the old master may still answer */
		const char *role[1] = {"ROLE"};
		redisReply *r = NULL;

		if (conn_append(c->ctx, 1, role, NULL) != REDIS_OK) {
			dlock_redis_conn_drop(c);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		if ((rc = dlock_redis_conn_read(c, limit, NULL, &r, err)) != DLOCK_OK) {
			return DLOCK_ECONNECT;
		}
		rc = r->type == REDIS_REPLY_ARRAY && r->elements > 0 &&
		     r->element[0]->type == REDIS_REPLY_STRING && strcmp(r->element[0]->str, "master") == 0;
		freeReplyObject(r);
		if (!rc) {
			dlock_redis_conn_drop(c);
			return dlock_err_set(err, DLOCK_ECONNECT, 0,
			                     "%s: %s:%d is not a master (fail-over under way)", c->where, host,
			                     port);
		}
	}
	c->broken_at = 0;
	return DLOCK_OK;
}

int dlock_redis_conn_call(dlock_redis_conn *c, int argc, const char **argv, const size_t *lens,
                          int64_t deadline, const dlock_interrupt *intr, redisReply **reply,
                          dlock_err *err)
{
	int attempt, rc = DLOCK_OK;

	*reply = NULL;
	for (attempt = 0; attempt < 2; attempt++) {
		/* a pooled connection may have died while idle (server restart,
		 * fail-over, idle timeout): one more try on a fresh one */
		int reused = c->ctx && c->pid == getpid();

		if ((rc = dlock_redis_conn_open(c, deadline, err)) != DLOCK_OK) {
			return rc;
		}
		if (conn_append(c->ctx, argc, argv, lens) != REDIS_OK) {
			dlock_redis_conn_drop(c);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		rc = dlock_redis_conn_read(c, deadline, intr, reply, err);
		if (rc != DLOCK_ECONNLOSS || !reused || (deadline >= 0 && dlock_now_ms() >= deadline)) {
			break;
		}
	}
	return rc;
}

int dlock_redis_conn_next(dlock_redis_conn *c, const dlock_interrupt *intr, redisReply **reply,
                          dlock_err *err)
{
	*reply = NULL;
	if (!c->ctx) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: not connected", c->where);
	}
	return dlock_redis_conn_read(c, -1, intr, reply, err);
}
