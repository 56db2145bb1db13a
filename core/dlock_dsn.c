/* dlock_dsn.c: DSN parsing into a dlock_target (the pieces below it are
 * dlock_dsn_part.c; the target's lifetime and comparisons dlock_target.c). */
#include "dlock_dsn.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dlock_build.h"
#include "dlock_dsn_part.h"
#include "dlock_dsn_tls.h"
#include "dlock_name.h"

#ifdef DLOCK_WITH_REDIS
/* only for the version macros in the rediss:// message */
#include <hiredis/hiredis.h>
#endif

void dlock_dsn_mask(const char *dsn, size_t len, char *buf)
{
	const char *start = dsn, *at = NULL, *colon, *p;

	for (p = dsn; p + 3 <= dsn + len; p++) {
		if (memcmp(p, "://", 3) == 0) {
			start = p + 3;
			break;
		}
	}
	for (p = start; p < dsn + len; p++) {
		if (*p == '@') {
			at = p;
		}
	}
	colon = at ? memchr(start, ':', (size_t)(at - start)) : NULL;
	if (!colon) {
		memcpy(buf, dsn, len);
		buf[len] = '\0';
		return;
	}
	memcpy(buf, dsn, (size_t)(colon + 1 - dsn));
	buf += colon + 1 - dsn;
	memcpy(buf, "***", 3);
	memcpy(buf + 3, at, (size_t)(dsn + len - at));
	buf[3 + (dsn + len - at)] = '\0';
}

/* The credentials p[0..at) before a server DSN's "@": "user:password",
 * ":password", or for SQL (sql non-zero) "user" alone; *user and *password
 * set to malloc()ed copies (NULL when absent). DLOCK_OK, DLOCK_EINVAL or
 * DLOCK_ENOMEM with nothing left to free. */
static int dlock_dsn_creds(const char *scheme, int sql, const char *p, const char *at, char **user,
                           char **password, dlock_err *err)
{
	const char *colon = memchr(p, ':', (size_t)(at - p));
	int rc = DLOCK_OK;

	*user = *password = NULL;
	if (!colon && !sql) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis DSN credentials must be \"user:password@\" or "
		                     "\":password@\"");
	}
	if (!colon) {
		colon = at;
	}
	if (colon > p) {
		rc = dlock_dsn_unescape(scheme, "user", p, (size_t)(colon - p), user, err);
	}
	if (rc == DLOCK_OK && colon < at) {
		rc = dlock_dsn_unescape(scheme, "password", colon + 1, (size_t)(at - colon - 1), password,
		                        err);
	}
	if (rc != DLOCK_OK) {
		free(*user);
		*user = NULL;
	}
	return rc;
}

/* The host of host[0..host_end): a name, an address or "[IPv6]", into *h
 * (malloc()ed, possibly empty), and where its port starts after a ":" into
 * *port_at (NULL: none). DLOCK_OK, DLOCK_EINVAL or DLOCK_ENOMEM; *h is NULL
 * on failure. */
static int dlock_dsn_host(const char *scheme, const char *host, const char *host_end, char **h,
                          const char **port_at, dlock_err *err)
{
	*port_at = NULL;
	*h = NULL;
	if (host < host_end && *host == '[') {
		const char *close = memchr(host, ']', (size_t)(host_end - host));

		if (!close || close == host + 1) {
			return dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN has an unclosed or empty \"[\" host",
			                     scheme);
		}
		if (close + 1 < host_end) {
			if (close[1] != ':') {
				return dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN has text after \"]\"", scheme);
			}
			*port_at = close + 2;
		}
		*h = dlock_strndup(host + 1, (size_t)(close - host - 1));
	} else {
		const char *colon = memchr(host, ':', (size_t)(host_end - host));

		*h = dlock_strndup(host, (size_t)((colon ? colon : host_end) - host));
		*port_at = colon ? colon + 1 : NULL;
	}
	return *h ? DLOCK_OK : dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
}

/* Checks host h against a Unix socket sock from the query: one of them,
 * never both; a host name's characters. On DLOCK_OK *h is the address to
 * use (the socket's path replacing an empty host, which then owns sock);
 * DLOCK_EINVAL otherwise. */
static int dlock_dsn_address(const char *scheme, dlock_backend_id backend, char **h, char **sock,
                             dlock_err *err)
{
	if (*sock && (*h)[0]) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "%s DSN names both a host and a Unix socket (\"%s\" parameter): leave "
		                     "the host out, e.g. %s",
		                     scheme, backend == DLOCK_BACKEND_POSTGRES ? "host" : "socket",
		                     backend == DLOCK_BACKEND_POSTGRES
		                         ? "postgres://user@/db?host=/run/postgresql"
		                         : "mysql://user@/db?socket=/run/mysqld/"
		                           "mysqld.sock");
	}
	if (*sock) {
		free(*h);
		*h = *sock; /* a Unix socket: the address is the path */
		*sock = NULL;
		return DLOCK_OK;
	}
	if (!(*h)[0]) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN has no host", scheme);
	}
	if (strspn(*h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:%") !=
	    strlen(*h)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "%s DSN host has characters a host name cannot have", scheme);
	}
	return DLOCK_OK;
}

/* The database after a server DSN's "/", d[0..len) (len 0: none): for SQL
 * a name of 1 to 64 characters into *dbname (malloc()ed, NULL when none),
 * for Redis a number into *db. DLOCK_OK, DLOCK_EINVAL or DLOCK_ENOMEM. */
static int dlock_dsn_database(const char *scheme, int sql, const char *d, size_t len, char **dbname,
                              long *db, dlock_err *err)
{
	*dbname = NULL;
	if (len == 0) {
		return DLOCK_OK;
	}
	if (!sql) {
		if (!dlock_dsn_number(d, len, db) || *db > 1000000) {
			return dlock_err_set(
			    err, DLOCK_EINVAL, 0,
			    "redis DSN database (after \"/\") must be a number from 0 to 1000000");
		}
		return DLOCK_OK;
	}
	if (len > 64 ||
	    strspn(d, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-$") < len) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "%s DSN database (after \"/\") must be 1 to 64 letters, digits, "
		                     "\"_\", \"-\" or \"$\"",
		                     scheme);
	}
	*dbname = dlock_strndup(d, len);
	return *dbname ? DLOCK_OK : dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
}

/* "[[user]:password@]host[:port][/db]" for backend (Redis, or a SQL server
 * where "user@" alone is allowed and /db is a database name); scheme names
 * the DSN in messages. */
static int dlock_dsn_server(const char *scheme, dlock_backend_id backend, const char *p, size_t len,
                            dlock_target *t, dlock_err *err)
{
	const char *end, *at, *host, *host_end, *slash, *port_at = NULL, *query;
	char *user = NULL, *password = NULL, *h = NULL, *dbname = NULL, *params = NULL, *sock = NULL;
	int sql = backend != DLOCK_BACKEND_REDIS, tls = strcmp(scheme, "rediss") == 0;
	long port = backend == DLOCK_BACKEND_POSTGRES ? 5432
	            : backend == DLOCK_BACKEND_MYSQL  ? 3306
	                                              : 6379,
	     db = 0;
	int rc;

	query = memchr(p, '?', len);
	if ((query && !sql && !tls) || memchr(p, '#', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN must not have a %s (\"%s\")", scheme,
		                     sql || tls ? "fragment" : "query or fragment",
		                     sql || tls ? "#" : "?\", \"#");
	}
	end = query ? query : p + len;
	if (query && (rc = dlock_dsn_query(scheme, backend, query + 1, (size_t)(p + len - query - 1),
	                                   &params, &sock, &port, err)) != DLOCK_OK) {
		return rc;
	}
	if ((sql || tls) && (rc = dlock_dsn_tls_default(backend, &params, err)) != DLOCK_OK) {
		free(params);
		free(sock);
		return rc;
	}
	len = (size_t)(end - p);
	slash = memchr(p, '/', len);
	at = memchr(p, '@', (size_t)((slash ? slash : end) - p));
	host = at ? at + 1 : p;
	host_end = slash ? slash : end;
	if ((at && (rc = dlock_dsn_creds(scheme, sql, p, at, &user, &password, err)) != DLOCK_OK) ||
	    (rc = dlock_dsn_host(scheme, host, host_end, &h, &port_at, err)) != DLOCK_OK ||
	    (rc = dlock_dsn_address(scheme, backend, &h, &sock, err)) != DLOCK_OK) {
		goto fail;
	}
	if (port_at && (!dlock_dsn_number(port_at, (size_t)(host_end - port_at), &port) || port < 1 ||
	                port > 65535)) {
		rc = dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN port must be a number from 1 to 65535",
		                   scheme);
		goto fail;
	}
	if (slash && (rc = dlock_dsn_database(scheme, sql, slash + 1, (size_t)(end - slash - 1),
	                                      &dbname, &db, err)) != DLOCK_OK) {
		goto fail;
	}
	t->backend = backend;
	free(t->dbname);
	t->dbname = dbname;
	free(t->host);
	free(t->user);
	free(t->params);
	dlock_target_free_secret(&t->password);
	t->host = h;
	t->user = user;
	t->password = password;
	t->params = params;
	t->port = (int)port;
	t->db = (int)db;
	dlock_dsn_tls_warn(backend, params);
	return DLOCK_OK;
fail:
	free(h);
	free(dbname);
	free(user);
	free(params);
	free(sock);
	dlock_target_free_secret(&password);
	return rc;
}

/* Parses the credentials p[0..len) ("[user]:password", before a Redis
 * DSN's "@") into t as those of "redis://creds@x:1"; the copy that holds
 * them is wiped. Returns what dlock_dsn_server() returns, or DLOCK_ENOMEM. */
static int dlock_dsn_redis_creds(const char *p, size_t len, dlock_target *t, dlock_err *err)
{
	char *buf = malloc(len + sizeof("@x:1"));
	int rc;

	if (!buf) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	memcpy(buf, p, len);
	memcpy(buf + len, "@x:1", sizeof("@x:1"));
	rc = dlock_dsn_server("redis", DLOCK_BACKEND_REDIS, buf, strlen(buf), t, err);
	memset(buf, 0, strlen(buf));
	free(buf);
	return rc;
}

/* A Redis Unix socket, "[[user]:password@]/path/to.sock[?db=N]" (after
 * "redis://" or "unix://"): credentials as in a redis:// DSN, the path
 * absolute (at most 107 bytes, sun_path's room), the database only as a
 * "db" parameter (a "/N" would be part of the path). The path goes to
 * t->host (a host starting with "/" is a socket), the port is 0. */
static int dlock_dsn_redis_socket(const char *p, size_t len, dlock_target *t, dlock_err *err)
{
	const char *end = p + len, *query = memchr(p, '?', len), *path, *at;
	char *sock;
	long db = 0;
	size_t i;
	int rc;

	if (query) {
		end = query;
	}
	path = memchr(p, '/', (size_t)(end - p));
	at = memchr(p, '@', (size_t)(end - p));
	if (at && at > path) {
		at = NULL; /* an "@" inside the path */
	}
	if (query &&
	    (len - (size_t)(query - p) < 5 || memcmp(query, "?db=", 4) != 0 ||
	     !dlock_dsn_number(query + 4, len - (size_t)(query - p) - 4, &db) || db > 1000000)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis socket DSN takes one parameter, db=N (0 to 1000000): "
		                     "redis:///path/to.sock?db=2");
	}
	if ((size_t)(end - path) > 107 || memchr(path, '#', (size_t)(end - path))) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis socket path must be an absolute path of at most 107 bytes");
	}
	for (i = 0; path + i < end; i++) {
		if ((unsigned char)path[i] < 0x20 || path[i] == 0x7f) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "redis socket path must not contain control characters");
		}
	}
	if (!(sock = dlock_strndup(path, (size_t)(end - path)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if (at) {
		if ((rc = dlock_dsn_redis_creds(p, (size_t)(at - p), t, err)) != DLOCK_OK) {
			free(sock);
			return rc;
		}
	} else {
		free(t->user);
		dlock_target_free_secret(&t->password);
		t->user = NULL;
	}
	free(t->host);
	free(t->sentinels);
	free(t->master_name);
	t->sentinels = t->master_name = NULL;
	t->host = sock;
	t->port = 0;
	t->db = (int)db;
	t->backend = DLOCK_BACKEND_REDIS;
	return DLOCK_OK;
}

/* "[[user]:password@]host:port[,host:port...]/master[/db]" */
static int dlock_dsn_sentinel(const char *p, size_t len, dlock_target *t, dlock_err *err)
{
	const char *end = p + len, *slash, *name, *name_end, *list, *at;
	char *sentinels = NULL, *master = NULL;
	long db = 0;
	int rc;

	slash = memchr(p, '/', len);
	if (!slash) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis-sentinel DSN must name the master: "
		                     "redis-sentinel://host:port[,host:port...]/master[/db]");
	}
	at = memchr(p, '@', (size_t)(slash - p));
	list = at ? at + 1 : p;
	if (list == slash) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "redis-sentinel DSN has no sentinel address");
	}
	/* the sentinel list reuses the ZooKeeper host-list check: host:port,... */
	if (dlock_hosts_validate(list, (size_t)(slash - list), err) != DLOCK_OK ||
	    memchr(list, '/', (size_t)(slash - list))) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis-sentinel DSN sentinels must be host:port[,host:port...]");
	}
	name = slash + 1;
	name_end = memchr(name, '/', (size_t)(end - name));
	if (!name_end) {
		name_end = end;
	}
	if (name_end == name || memchr(name, '?', (size_t)(end - name))) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis-sentinel DSN must name the master after the sentinels");
	}
	if (name_end < end && name_end + 1 < end &&
	    (!dlock_dsn_number(name_end + 1, (size_t)(end - name_end - 1), &db) || db > 1000000)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "redis-sentinel DSN database (after the master) must be a number "
		                     "from 0 to 1000000");
	}
	if (!(sentinels = dlock_strndup(list, (size_t)(slash - list))) ||
	    !(master = dlock_strndup(name, (size_t)(name_end - name)))) {
		free(sentinels);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	/* credentials (for the master) as in a redis:// DSN */
	if (at) {
		if ((rc = dlock_dsn_redis_creds(p, (size_t)(at - p), t, err)) != DLOCK_OK) {
			free(sentinels);
			free(master);
			return rc;
		}
		free(t->host);
		t->host = NULL;
	} else {
		free(t->host);
		free(t->user);
		dlock_target_free_secret(&t->password);
		t->host = NULL;
		t->user = NULL;
	}
	free(t->sentinels);
	free(t->master_name);
	t->sentinels = sentinels;
	t->master_name = master;
	t->port = 0;
	t->db = (int)db;
	t->backend = DLOCK_BACKEND_REDIS;
	return DLOCK_OK;
}

/* A rediss:// DSN after the scheme: a redis:// DSN over TLS, with the TLS
 * knobs in its query (dlock_dsn_part.c's list); never a Unix socket. When
 * this build's hiredis has no hiredis_ssl, a DLOCK_EINVAL that names the
 * hiredis version found. */
static int dlock_dsn_rediss(const char *p, size_t len, dlock_target *t, dlock_err *err)
{
#if defined(DLOCK_WITH_REDIS) && !defined(DLOCK_WITH_REDIS_TLS)
	(void)p;
	(void)len;
	(void)t;
	return dlock_err_set(err, DLOCK_EINVAL, 0,
	                     "rediss:// is not supported: dlock was built with hiredis %d.%d.%d, "
	                     "without TLS (hiredis_ssl needs 1.0+); use a local TLS proxy "
	                     "(stunnel) or a private network: docs/security.md",
	                     HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
#else
	const char *slash = memchr(p, '/', len);
	int rc;

	if (slash && (slash == p || slash[-1] == '@')) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "rediss DSN cannot name a Unix socket (Redis has no TLS on its "
		                     "socket): use redis:///path/to.sock");
	}
	if ((rc = dlock_dsn_server("rediss", DLOCK_BACKEND_REDIS, p, len, t, err)) == DLOCK_OK) {
		free(t->sentinels);
		free(t->master_name);
		t->sentinels = t->master_name = NULL;
	}
	return rc;
#endif
}

int dlock_dsn_parse(const char *dsn, size_t len, dlock_target *t, dlock_err *err)
{
	static const char zk[] = "zookeeper://", redis[] = "redis://", sentinel[] = "redis-sentinel://",
	                  rediss[] = "rediss://";
	static const struct {
		const char *scheme;
		dlock_backend_id backend;
	} sql[] = {{"postgres", DLOCK_BACKEND_POSTGRES},
	           {"postgresql", DLOCK_BACKEND_POSTGRES},
	           {"mysql", DLOCK_BACKEND_MYSQL},
	           {"mariadb", DLOCK_BACKEND_MYSQL}};
	const char *colon;
	size_t i;

	if (len > DLOCK_DSN_MAX || memchr(dsn, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "DSN must be at most %d bytes without NUL",
		                     DLOCK_DSN_MAX);
	}
	for (i = 0; i < 2; i++) {
		/* a Unix socket: "redis://" or "unix://", then [creds@]/path */
		const char *scheme = i ? "unix://" : redis, *rest, *slash;
		size_t n = strlen(scheme);

		if (len > n && strncasecmp(dsn, scheme, n) == 0) {
			rest = dsn + n;
			slash = memchr(rest, '/', len - n);
			if (i || (slash && (slash == rest || slash[-1] == '@'))) {
				if (!slash || (slash != rest && slash[-1] != '@')) {
					return dlock_err_set(err, DLOCK_EINVAL, 0,
					                     "unix DSN must be unix://[[user]:password@]/path/to.sock");
				}
				return dlock_dsn_redis_socket(rest, len - n, t, err);
			}
		}
	}
	if (len >= sizeof(rediss) - 1 && strncasecmp(dsn, rediss, sizeof(rediss) - 1) == 0) {
		return dlock_dsn_rediss(dsn + sizeof(rediss) - 1, len - (sizeof(rediss) - 1), t, err);
	}
	if (len >= sizeof(redis) - 1 && strncasecmp(dsn, redis, sizeof(redis) - 1) == 0) {
		int rc = dlock_dsn_server("redis", DLOCK_BACKEND_REDIS, dsn + sizeof(redis) - 1,
		                          len - (sizeof(redis) - 1), t, err);

		if (rc == DLOCK_OK) {
			free(t->sentinels);
			free(t->master_name);
			t->sentinels = t->master_name = NULL;
		}
		return rc;
	}
	for (i = 0; i < sizeof(sql) / sizeof(sql[0]); i++) {
		size_t n = strlen(sql[i].scheme);

		if (len > n + 3 && strncasecmp(dsn, sql[i].scheme, n) == 0 &&
		    memcmp(dsn + n, "://", 3) == 0) {
			return dlock_dsn_server(sql[i].scheme, sql[i].backend, dsn + n + 3, len - n - 3, t,
			                        err);
		}
	}
	if (len >= sizeof(sentinel) - 1 && strncasecmp(dsn, sentinel, sizeof(sentinel) - 1) == 0) {
		return dlock_dsn_sentinel(dsn + sizeof(sentinel) - 1, len - (sizeof(sentinel) - 1), t, err);
	}
	if (dlock_dsn_zk_tls(dsn, len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "ZooKeeper over TLS is not supported (dlock's ZooKeeper client has no "
		                     "TLS): use a private network, or a local TLS proxy (stunnel) to the "
		                     "secureClientPort and a zookeeper:// DSN naming it: docs/security.md");
	}
	if (len >= sizeof(zk) - 1 && strncasecmp(dsn, zk, sizeof(zk) - 1) == 0) {
		const char *hosts = dsn + sizeof(zk) - 1;
		size_t n = len - (sizeof(zk) - 1);
		char *copy;
		int rc;

		if ((rc = dlock_hosts_validate(hosts, n, err)) != DLOCK_OK) {
			return rc;
		}
		if (!(copy = dlock_strndup(hosts, n))) {
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		free(t->hosts);
		t->hosts = copy;
		t->backend = DLOCK_BACKEND_ZOOKEEPER;
		return DLOCK_OK;
	}
	colon = memchr(dsn, ':', len);
	if (!colon || colon - dsn > 32 || colon == dsn) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "DSN must start with a scheme: zookeeper://, redis://, "
		                     "redis-sentinel://, postgres:// or mysql://");
	}
	return dlock_err_set(err, DLOCK_EINVAL, 0,
	                     "DSN scheme \"%.*s\" is not supported (zookeeper://, redis://, "
	                     "redis-sentinel://, postgres:// or mysql://)",
	                     (int)(colon - dsn), dsn);
}
