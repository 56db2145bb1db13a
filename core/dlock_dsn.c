/* dlock_dsn.c: DSN parsing, and the lifetime of a dlock_target. */
#include "dlock_dsn.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlock_name.h"

/* only for the version macros in the rediss:// message */
#include <hiredis/hiredis.h>

char *dlock_strndup(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

static void dlock_dsn_free_secret(char **s)
{
	if (*s) {
		memset(*s, 0, strlen(*s));
		free(*s);
		*s = NULL;
	}
}

int dlock_target_copy(dlock_target *dst, const dlock_target *src, dlock_err *err)
{
	*dst = *src;
	dst->hosts = src->hosts ? strdup(src->hosts) : NULL;
	dst->auth = src->auth ? strdup(src->auth) : NULL;
	dst->host = src->host ? strdup(src->host) : NULL;
	dst->user = src->user ? strdup(src->user) : NULL;
	dst->password = src->password ? strdup(src->password) : NULL;
	dst->sentinels = src->sentinels ? strdup(src->sentinels) : NULL;
	dst->master_name = src->master_name ? strdup(src->master_name) : NULL;
	dst->dbname = src->dbname ? strdup(src->dbname) : NULL;
	dst->params = src->params ? strdup(src->params) : NULL;
	if ((src->dbname && !dst->dbname) || (src->params && !dst->params) ||
	    (src->hosts && !dst->hosts) || (src->auth && !dst->auth) || (src->host && !dst->host) ||
	    (src->user && !dst->user) || (src->password && !dst->password) ||
	    (src->sentinels && !dst->sentinels) || (src->master_name && !dst->master_name)) {
		dlock_target_clear(dst);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	return DLOCK_OK;
}

void dlock_target_clear(dlock_target *t)
{
	free(t->hosts);
	free(t->host);
	free(t->user);
	free(t->sentinels);
	free(t->master_name);
	free(t->dbname);
	free(t->params);
	dlock_dsn_free_secret(&t->auth);
	dlock_dsn_free_secret(&t->password);
	memset(t, 0, sizeof(*t));
}

static int dlock_dsn_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int dlock_target_same_server(const dlock_target *a, const dlock_target *b)
{
	if (a->backend != b->backend) {
		return 0;
	}
	if (a->backend == DLOCK_BACKEND_ZOOKEEPER) {
		return dlock_dsn_eq(a->hosts, b->hosts);
	}
	return a->port == b->port && a->db == b->db && dlock_dsn_eq(a->host, b->host) &&
	       dlock_dsn_eq(a->dbname, b->dbname) &&
	       (a->backend == DLOCK_BACKEND_REDIS || dlock_dsn_eq(a->user, b->user)) &&
	       dlock_dsn_eq(a->sentinels, b->sentinels) &&
	       dlock_dsn_eq(a->master_name, b->master_name) && dlock_dsn_eq(a->params, b->params);
}

/* Writes host's lock-space spelling: lower case without a trailing dot;
 * "localhost" (and names under it), every 127.x.x.x form inet_aton() reads
 * ("127.1", "0x7f.1"), "::1" and "::ffff:127.x.x.x" as "loopback"; other
 * IPv4 forms dotted-decimal, other IPv6 addresses in inet_ntop() form. Only
 * literals: no lookup (a resolver may block or answer differently later),
 * so a name and its address stay two spellings. */
static void dlock_dsn_host_space(const char *host, char *buf, size_t size)
{
	char h[256];
	size_t n = strlen(host), i;
	struct in_addr a4;
	struct in6_addr a6;

	if (n >= sizeof(h) || host[0] == '/') {
		snprintf(buf, size, "%s", host); /* a socket path is case-sensitive */
		return;
	}
	for (i = 0; i < n; i++) {
		h[i] = (char)tolower((unsigned char)host[i]);
	}
	if (n > 1 && h[n - 1] == '.') {
		n--;
	}
	h[n] = '\0';
	if (strcmp(h, "localhost") == 0 || (n > 10 && strcmp(h + n - 10, ".localhost") == 0)) {
		snprintf(buf, size, "loopback");
	} else if (strspn(h, "0123456789abcdefx.") == n && inet_aton(h, &a4)) {
		if ((ntohl(a4.s_addr) >> 24) == 127) {
			snprintf(buf, size, "loopback");
		} else {
			inet_ntop(AF_INET, &a4, buf, (socklen_t)size);
		}
	} else if (inet_pton(AF_INET6, h, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6) || (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127)) {
			snprintf(buf, size, "loopback");
		} else if (IN6_IS_ADDR_V4MAPPED(&a6)) {
			inet_ntop(AF_INET, &a6.s6_addr[12], buf, (socklen_t)size);
		} else {
			inet_ntop(AF_INET6, &a6, buf, (socklen_t)size);
		}
	} else {
		snprintf(buf, size, "%s", h);
	}
}

static int dlock_dsn_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void dlock_zk_hosts_space(const char *hosts, char *buf, size_t size)
{
	char list[1024], *items[64], canon[64][300], host[256];
	const char *chroot = strchr(hosts, '/');
	size_t len = chroot ? (size_t)(chroot - hosts) : strlen(hosts), n = 0, i, off;
	char *tok, *save = NULL;

	if (len >= sizeof(list)) {
		snprintf(buf, size, "zookeeper://%s", hosts);
		return;
	}
	memcpy(list, hosts, len);
	list[len] = '\0';
	for (tok = strtok_r(list, ",", &save); tok && n < 64; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':');
		size_t hl = colon ? (size_t)(colon - tok) : strlen(tok);

		if (hl > 1 && tok[0] == '[' && tok[hl - 1] == ']') {
			tok++;
			hl -= 2;
		}
		snprintf(host, sizeof(host), "%.*s", (int)hl, tok);
		dlock_dsn_host_space(host, canon[n], sizeof(canon[n]));
		off = strlen(canon[n]);
		snprintf(canon[n] + off, sizeof(canon[n]) - off, ":%s", colon ? colon + 1 : "");
		items[n] = canon[n];
		n++;
	}
	qsort(items, n, sizeof(items[0]), dlock_dsn_cmp);
	off = (size_t)snprintf(buf, size, "zookeeper://");
	for (i = 0; i < n && off < size; i++) {
		if (i > 0 && strcmp(items[i], items[i - 1]) == 0) {
			continue; /* one server named twice is one server */
		}
		off += (size_t)snprintf(buf + off, size - off, "%s%s", off > 12 ? "," : "", items[i]);
	}
	if (chroot && off < size) {
		size_t cl = strlen(chroot);

		while (cl > 1 && chroot[cl - 1] == '/') {
			cl--;
		}
		snprintf(buf + off, size - off, "%.*s", (int)cl, chroot);
	}
}

void dlock_target_lock_space(const dlock_target *t, char *buf, size_t size)
{
	char host[256];

	if (t->backend == DLOCK_BACKEND_ZOOKEEPER) {
		dlock_zk_hosts_space(t->hosts ? t->hosts : "", buf, size);
		return;
	}
	if (t->backend == DLOCK_BACKEND_REDIS && t->sentinels) {
		dlock_target_where(t, buf, size);
		return;
	}
	dlock_dsn_host_space(t->host ? t->host : "", host, sizeof(host));
	if (t->backend == DLOCK_BACKEND_REDIS) {
		snprintf(buf, size, "redis://%s:%d/%d", host, t->port, t->db);
	} else {
		/* PostgreSQL's database defaults to the user's name */
		const char *db = t->dbname                                         ? t->dbname
		                 : t->backend == DLOCK_BACKEND_POSTGRES && t->user ? t->user
		                                                                   : "";

		snprintf(buf, size, "%s://%s:%d/%s",
		         t->backend == DLOCK_BACKEND_POSTGRES ? "postgres" : "mysql", host, t->port, db);
	}
}

int dlock_target_same_locks(const dlock_target *a, const dlock_target *b)
{
	char x[600], y[600];

	dlock_target_lock_space(a, x, sizeof(x));
	dlock_target_lock_space(b, y, sizeof(y));
	return strcmp(x, y) == 0;
}

void dlock_target_where(const dlock_target *t, char *buf, size_t size)
{
	if (t->backend == DLOCK_BACKEND_REDIS && t->sentinels) {
		snprintf(buf, size, "redis-sentinel://%s/%s/%d", t->sentinels,
		         t->master_name ? t->master_name : "", t->db);
	} else if (t->backend == DLOCK_BACKEND_REDIS && t->host && t->host[0] == '/') {
		snprintf(buf, size, "redis://%s?db=%d", t->host, t->db); /* a Unix socket */
	} else if (t->backend == DLOCK_BACKEND_REDIS) {
		snprintf(buf, size, "redis://%s%s%s:%d/%d", strchr(t->host ? t->host : "", ':') ? "[" : "",
		         t->host ? t->host : "", strchr(t->host ? t->host : "", ':') ? "]" : "", t->port,
		         t->db);
	} else if (t->backend == DLOCK_BACKEND_POSTGRES || t->backend == DLOCK_BACKEND_MYSQL) {
		snprintf(buf, size, "%s://%s%s%s%s%s:%d/%s",
		         t->backend == DLOCK_BACKEND_POSTGRES ? "postgres" : "mysql",
		         t->user ? t->user : "", t->user ? "@" : "",
		         strchr(t->host ? t->host : "", ':') ? "[" : "", t->host ? t->host : "",
		         strchr(t->host ? t->host : "", ':') ? "]" : "", t->port,
		         t->dbname ? t->dbname : "");
	} else {
		snprintf(buf, size, "zookeeper://%s", t->hosts ? t->hosts : "");
	}
}

/* Decodes the %XX escapes of a DSN's user or password (what names it, e.g.
 * "password") s[0..len) into *out, a new string. A "%" not followed by two
 * hex digits, or an escape of a NUL byte (which would cut the credential
 * short where the client library reads it), is DLOCK_EINVAL with a message
 * that does not echo the text; DLOCK_ENOMEM when out of memory. */
static int dlock_dsn_unescape(const char *scheme, const char *what, const char *s, size_t len,
                              char **out, dlock_err *err)
{
	char *d, *o;
	size_t i;

	for (i = 0; i < len; i++) {
		if (s[i] != '%') {
			continue;
		}
		if (i + 2 >= len || !isxdigit((unsigned char)s[i + 1]) ||
		    !isxdigit((unsigned char)s[i + 2])) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "%s DSN %s has a \"%%\" that is not followed by two hex digits "
			                     "(write \"%%25\" for a \"%%\")",
			                     scheme, what);
		}
		if (s[i + 1] == '0' && s[i + 2] == '0') {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "%s DSN %s must not contain \"%%00\" (a NUL byte)", scheme, what);
		}
		i += 2;
	}
	if (!(o = d = malloc(len + 1))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (i = 0; i < len; i++) {
		if (s[i] == '%') {
			char hex[3] = {s[i + 1], s[i + 2], 0};

			*o++ = (char)strtol(hex, NULL, 16);
			i += 2;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	*out = d;
	return DLOCK_OK;
}

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

/* Parses a decimal number of at most 9 digits in s[0..len) into *out. */
static int dlock_dsn_number(const char *s, size_t len, long *out)
{
	size_t i;
	long v = 0;

	if (len == 0 || len > 9) {
		return 0;
	}
	for (i = 0; i < len; i++) {
		if (!isdigit((unsigned char)s[i])) {
			return 0;
		}
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 1;
}

/* A query parameter a SQL DSN may carry. */
typedef struct dlock_dsn_key {
	const char *name;    /* as stored in dlock_target.params (MySQL: also with "_") */
	const char *choices; /* "|"-separated allowed values (case-insensitive), or NULL */
} dlock_dsn_key;

/* libpq's keywords for TLS (the values libpq takes; files are read by libpq
 * when connecting), and the socket directory "host" with its "port". */
static const dlock_dsn_key dlock_dsn_pg_keys[] = {
    {"sslmode", "disable|allow|prefer|require|verify-ca|verify-full"},
    {"sslrootcert", NULL},
    {"sslcert", NULL},
    {"sslkey", NULL},
    {"sslcrl", NULL},
    {"sslcrldir", NULL},
    {"sslsni", "0|1"},
    {"ssl_min_protocol_version", "TLSv1|TLSv1.1|TLSv1.2|TLSv1.3"},
    {"ssl_max_protocol_version", "TLSv1|TLSv1.1|TLSv1.2|TLSv1.3"},
    {"channel_binding", "disable|prefer|require"},
    {"host", NULL},
    {"port", NULL},
    {NULL, NULL}};

/* The MySQL client's option names (mysql --ssl-mode=...), mapped by the
 * driver onto Connector/C's MYSQL_OPT_SSL_* options, and the socket file. */
static const dlock_dsn_key dlock_dsn_my_keys[] = {
    {"ssl-mode", "DISABLED|PREFERRED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY"},
    {"ssl-ca", NULL},
    {"ssl-capath", NULL},
    {"ssl-cert", NULL},
    {"ssl-key", NULL},
    {"ssl-cipher", NULL},
    {"ssl-crl", NULL},
    {"ssl-crlpath", NULL},
    {"tls-version", NULL},
    {"socket", NULL},
    {NULL, NULL}};

/* Non-zero when v is one of choices ("a|b|c", case-insensitive). */
static int dlock_dsn_choice(const char *choices, const char *v)
{
	size_t n = strlen(v);

	while (*choices) {
		size_t m = strcspn(choices, "|");

		if (m == n && strncasecmp(choices, v, n) == 0) {
			return 1;
		}
		choices += m + (choices[m] == '|');
	}
	return 0;
}

/* Non-zero when params ("key=value\n" lines, or NULL) has key. */
static int dlock_dsn_has(const char *params, const char *key)
{
	size_t n = strlen(key);

	while (params && *params) {
		if (strncmp(params, key, n) == 0 && params[n] == '=') {
			return 1;
		}
		params = strchr(params, '\n');
		params = params ? params + 1 : NULL;
	}
	return 0;
}

/* Parses a SQL DSN's query q[0..len) ("key=value&...", values %-escaped)
 * for backend: appends each parameter to *params as "key=value\n" (a new
 * string, NULL when none), except the address ones, which go to *host
 * (PostgreSQL "host", MySQL "socket": an absolute path) and *port. Returns
 * DLOCK_OK, or DLOCK_EINVAL naming the parameter (never its value: a value
 * may be a secret someone put there), or DLOCK_ENOMEM. */
static int dlock_dsn_query(const char *scheme, dlock_backend_id backend, const char *q, size_t len,
                           char **params, char **host, long *port, dlock_err *err)
{
	const dlock_dsn_key *keys =
	    backend == DLOCK_BACKEND_POSTGRES ? dlock_dsn_pg_keys : dlock_dsn_my_keys;
	const char *end = q + len;
	char *out = NULL, *v = NULL;
	size_t used = 0;
	int rc = DLOCK_EINVAL;

	*params = NULL;
	*host = NULL;
	while (q < end) {
		const char *amp = memchr(q, '&', (size_t)(end - q)), *eq, *item_end = amp ? amp : end;
		char name[32];
		size_t nlen, i;

		eq = memchr(q, '=', (size_t)(item_end - q));
		nlen = (size_t)((eq ? eq : item_end) - q);
		if (nlen == 0 || nlen >= sizeof(name) || !eq) {
			dlock_err_set(err, DLOCK_EINVAL, 0,
			              "%s DSN query must be key=value pairs joined by \"&\"", scheme);
			goto fail;
		}
		for (i = 0; i < nlen; i++) {
			/* MySQL's options are spelled with "-" or "_": one name */
			name[i] = backend == DLOCK_BACKEND_MYSQL && q[i] == '_'
			              ? '-'
			              : (char)tolower((unsigned char)q[i]);
		}
		name[nlen] = '\0';
		for (i = 0; keys[i].name && strcmp(keys[i].name, name) != 0; i++) {
		}
		if (strcmp(name, "connect-timeout") == 0 || strcmp(name, "connect_timeout") == 0) {
			dlock_err_set(err, DLOCK_EINVAL, 0,
			              "%s DSN parameter \"connect_timeout\" is not taken from the DSN: use "
			              "the connect_timeout option",
			              scheme);
			goto fail;
		}
		if (!keys[i].name ||
		    strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-") < nlen) {
			dlock_err_set(err, DLOCK_EINVAL, 0,
			              "%s DSN parameter \"%.*s\" is not supported (see docs/security.md for "
			              "the parameters a %s DSN takes)",
			              scheme,
			              (int)(strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-"
			                              "0123456789.") < nlen
			                        ? 0
			                        : nlen),
			              q, backend == DLOCK_BACKEND_POSTGRES ? "postgres" : "mysql");
			goto fail;
		}
		if ((rc = dlock_dsn_unescape(scheme, "parameter value", eq + 1, (size_t)(item_end - eq - 1),
		                             &v, err)) != DLOCK_OK) {
			goto fail;
		}
		rc = DLOCK_EINVAL;
		if (!v[0]) {
			dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN parameter \"%s\" has no value", scheme,
			              name);
			goto fail;
		}
		{
			const char *c;

			for (c = v; *c; c++) {
				if ((unsigned char)*c < 0x20 || *c == 0x7f) {
					dlock_err_set(err, DLOCK_EINVAL, 0,
					              "%s DSN parameter \"%s\" must not contain control characters",
					              scheme, name);
					goto fail;
				}
			}
		}
		if (keys[i].choices && !dlock_dsn_choice(keys[i].choices, v)) {
			dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN parameter \"%s\" must be one of %s", scheme,
			              name, keys[i].choices);
			goto fail;
		}
		if (strcmp(name, "host") == 0 || strcmp(name, "socket") == 0) {
			if (v[0] != '/' || *host) {
				dlock_err_set(err, DLOCK_EINVAL, 0,
				              "%s DSN parameter \"%s\" must be given once, as an absolute path "
				              "(%s); a host name goes before the \"/\"",
				              scheme, name,
				              backend == DLOCK_BACKEND_POSTGRES ? "the socket's directory"
				                                                : "the socket file");
				goto fail;
			}
			*host = v;
			v = NULL;
		} else if (strcmp(name, "port") == 0) {
			if (!dlock_dsn_number(v, strlen(v), port) || *port < 1 || *port > 65535) {
				dlock_err_set(err, DLOCK_EINVAL, 0,
				              "%s DSN parameter \"port\" must be a number from 1 to 65535", scheme);
				goto fail;
			}
		} else {
			size_t need = used + strlen(name) + strlen(v) + 3;
			char *grown;

			if (dlock_dsn_has(out, name)) {
				dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN parameter \"%s\" is given twice",
				              scheme, name);
				goto fail;
			}
			if (!(grown = realloc(out, need))) {
				rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
				goto fail;
			}
			out = grown;
			used += (size_t)snprintf(out + used, need - used, "%s=%s\n", name, v);
		}
		free(v);
		v = NULL;
		q = amp ? amp + 1 : end;
	}
	*params = out;
	return DLOCK_OK;
fail:
	free(v);
	free(out);
	free(*host);
	*host = NULL;
	return rc;
}

int dlock_dsn_params_split(const char *params, char **buf, const char **keys, const char **vals,
                           int max)
{
	char *p, *line, *save = NULL;
	int n = 0;

	*buf = NULL;
	if (!params) {
		return 0;
	}
	if (!(*buf = strdup(params))) {
		return -1;
	}
	p = *buf;
	for (line = strtok_r(p, "\n", &save); line && n < max; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');

		if (eq) {
			*eq = '\0';
			keys[n] = line;
			vals[n++] = eq + 1;
		}
	}
	return n;
}

/* "[[user]:password@]host[:port][/db]" for backend (Redis, or a SQL server
 * where "user@" alone is allowed and /db is a database name); scheme names
 * the DSN in messages. */
static int dlock_dsn_server(const char *scheme, dlock_backend_id backend, const char *p, size_t len,
                            dlock_target *t, dlock_err *err)
{
	const char *end, *at, *host, *host_end, *slash, *port_at = NULL, *query;
	char *user = NULL, *password = NULL, *h = NULL, *dbname = NULL, *params = NULL, *sock = NULL;
	int sql = backend != DLOCK_BACKEND_REDIS;
	long port = backend == DLOCK_BACKEND_POSTGRES ? 5432
	            : backend == DLOCK_BACKEND_MYSQL  ? 3306
	                                              : 6379,
	     db = 0;
	int rc = DLOCK_EINVAL;

	query = memchr(p, '?', len);
	if ((query && !sql) || memchr(p, '#', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN must not have a %s (\"%s\")", scheme,
		                     sql ? "fragment" : "query or fragment", sql ? "#" : "?\", \"#");
	}
	end = query ? query : p + len;
	if (query && (rc = dlock_dsn_query(scheme, backend, query + 1, (size_t)(p + len - query - 1),
	                                   &params, &sock, &port, err)) != DLOCK_OK) {
		return rc;
	}
	rc = DLOCK_EINVAL;
	len = (size_t)(end - p);
	slash = memchr(p, '/', len);
	at = memchr(p, '@', (size_t)((slash ? slash : end) - p));
	host = p;
	if (at) {
		const char *colon = memchr(p, ':', (size_t)(at - p));

		if (!colon && !sql) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "redis DSN credentials must be \"user:password@\" or "
			                     "\":password@\"");
		}
		if (!colon) {
			colon = at;
		}
		if (colon > p && (rc = dlock_dsn_unescape(scheme, "user", p, (size_t)(colon - p), &user,
		                                          err)) != DLOCK_OK) {
			goto fail;
		}
		if (colon < at &&
		    (rc = dlock_dsn_unescape(scheme, "password", colon + 1, (size_t)(at - colon - 1),
		                             &password, err)) != DLOCK_OK) {
			goto fail;
		}
		rc = DLOCK_EINVAL;
		host = at + 1;
	}
	host_end = slash ? slash : end;
	if (host < host_end && *host == '[') {
		const char *close = memchr(host, ']', (size_t)(host_end - host));

		if (!close || close == host + 1) {
			dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN has an unclosed or empty \"[\" host",
			              scheme);
			goto fail;
		}
		h = dlock_strndup(host + 1, (size_t)(close - host - 1));
		if (close + 1 < host_end) {
			if (close[1] != ':') {
				dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN has text after \"]\"", scheme);
				goto fail;
			}
			port_at = close + 2;
		}
	} else {
		const char *colon = memchr(host, ':', (size_t)(host_end - host));

		h = dlock_strndup(host, (size_t)((colon ? colon : host_end) - host));
		port_at = colon ? colon + 1 : NULL;
	}
	if (!h) {
		goto nomem;
	}
	if (sock && h[0]) {
		dlock_err_set(err, DLOCK_EINVAL, 0,
		              "%s DSN names both a host and a Unix socket (\"%s\" parameter): leave "
		              "the host out, e.g. %s",
		              scheme, backend == DLOCK_BACKEND_POSTGRES ? "host" : "socket",
		              backend == DLOCK_BACKEND_POSTGRES ? "postgres://user@/db?host=/run/postgresql"
		                                                : "mysql://user@/db?socket=/run/mysqld/"
		                                                  "mysqld.sock");
		goto fail;
	}
	if (sock) {
		free(h);
		h = sock; /* a Unix socket: the address is the path */
		sock = NULL;
	} else if (!h[0]) {
		dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN has no host", scheme);
		goto fail;
	} else if (strspn(h, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_:%") !=
	           strlen(h)) {
		dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN host has characters a host name cannot have",
		              scheme);
		goto fail;
	}
	if (port_at && (!dlock_dsn_number(port_at, (size_t)(host_end - port_at), &port) || port < 1 ||
	                port > 65535)) {
		dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN port must be a number from 1 to 65535", scheme);
		goto fail;
	}
	if (sql && slash && slash + 1 < end) {
		if (end - slash - 1 > 64 ||
		    strspn(slash + 1, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-$") <
		        (size_t)(end - slash - 1)) {
			dlock_err_set(err, DLOCK_EINVAL, 0,
			              "%s DSN database (after \"/\") must be 1 to 64 letters, digits, "
			              "\"_\", \"-\" or \"$\"",
			              scheme);
			goto fail;
		}
		if (!(dbname = dlock_strndup(slash + 1, (size_t)(end - slash - 1)))) {
			goto nomem;
		}
	} else if (!sql && slash && slash + 1 < end &&
	           (!dlock_dsn_number(slash + 1, (size_t)(end - slash - 1), &db) || db > 1000000)) {
		dlock_err_set(err, DLOCK_EINVAL, 0,
		              "redis DSN database (after \"/\") must be a number from 0 to 1000000");
		goto fail;
	}
	t->backend = backend;
	free(t->dbname);
	t->dbname = dbname;
	free(t->host);
	free(t->user);
	free(t->params);
	dlock_dsn_free_secret(&t->password);
	t->host = h;
	t->user = user;
	t->password = password;
	t->params = params;
	t->port = (int)port;
	t->db = (int)db;
	return DLOCK_OK;
nomem:
	rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
fail:
	free(h);
	free(dbname);
	free(user);
	free(params);
	free(sock);
	dlock_dsn_free_secret(&password);
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
		/* credentials: parsed as those of "redis://creds@x:1" */
		char *buf = malloc((size_t)(at - p) + sizeof("@x:1"));

		if (!buf) {
			free(sock);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		memcpy(buf, p, (size_t)(at - p));
		memcpy(buf + (at - p), "@x:1", sizeof("@x:1"));
		rc = dlock_dsn_server("redis", DLOCK_BACKEND_REDIS, buf, strlen(buf), t, err);
		memset(buf, 0, strlen(buf));
		free(buf);
		if (rc != DLOCK_OK) {
			free(sock);
			return rc;
		}
	} else {
		free(t->user);
		dlock_dsn_free_secret(&t->password);
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
		char *buf = malloc((size_t)(at - p) + sizeof("@x:1"));

		if (!buf) {
			free(sentinels);
			free(master);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		memcpy(buf, p, (size_t)(at - p));
		memcpy(buf + (at - p), "@x:1", sizeof("@x:1"));
		rc = dlock_dsn_server("redis", DLOCK_BACKEND_REDIS, buf, strlen(buf), t, err);
		memset(buf, 0, strlen(buf));
		free(buf);
		if (rc != DLOCK_OK) {
			free(sentinels);
			free(master);
			return rc;
		}
		free(t->host);
		t->host = NULL;
	} else {
		free(t->host);
		free(t->user);
		dlock_dsn_free_secret(&t->password);
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
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "rediss:// is not supported: dlock was built with hiredis %d.%d.%d, "
		                     "without TLS (hiredis_ssl needs 1.0+); use a local TLS proxy "
		                     "(stunnel) or a private network: docs/security.md",
		                     HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH);
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

int dlock_redis_name_validate(const char *name, size_t len, dlock_err *err)
{
	static const char *const reserved[] = {"redisson_lock_token:",
	                                       "redisson_lock__channel:",
	                                       "redisson_unlock_latch:",
	                                       "dlock_queue:",
	                                       "dlock_wait:",
	                                       "dlock_wake:"};
	size_t i;

	if (len == 0 || len > DLOCK_REDIS_NAME_MAX || memchr(name, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "a Redis lock name must be 1 to %d bytes without NUL bytes",
		                     DLOCK_REDIS_NAME_MAX);
	}
	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		if (len >= strlen(reserved[i]) && strncmp(name, reserved[i], strlen(reserved[i])) == 0) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "a Redis lock name must not start with \"%s\": dlock keeps its "
			                     "own keys there",
			                     reserved[i]);
		}
	}
	return DLOCK_OK;
}
