/* dlock_dsn_part.c: the pieces of a DSN below its parser (dlock_dsn.c):
 * decimal numbers, %XX escapes of credentials and values, and a SQL DSN's
 * query parameters (checked against each server's list, stored in
 * dlock_target.params, split again by the drivers). */
#include "dlock_dsn_part.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Decodes the %XX escapes of a DSN's user or password (what names it, e.g.
 * "password") s[0..len) into *out, a new string. A "%" not followed by two
 * hex digits, or an escape of a NUL byte (which would cut the credential
 * short where the client library reads it), is DLOCK_EINVAL with a message
 * that does not echo the text; DLOCK_ENOMEM when out of memory. */
int dlock_dsn_unescape(const char *scheme, const char *what, const char *s, size_t len, char **out,
                       dlock_err *err)
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

/* Parses a decimal number of at most 9 digits in s[0..len) into *out. */
int dlock_dsn_number(const char *s, size_t len, long *out)
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
	char file;           /* 'f': a TLS file, 'd': a TLS directory, 0: neither */
} dlock_dsn_key;

/* libpq's keywords for TLS (the values libpq takes; files are read by libpq
 * when connecting), and the socket directory "host" with its "port". */
static const dlock_dsn_key dlock_dsn_pg_keys[] = {
    {"sslmode", "disable|allow|prefer|require|verify-ca|verify-full", 0},
    {"sslrootcert", NULL, 'f'},
    {"sslcert", NULL, 'f'},
    {"sslkey", NULL, 'f'},
    {"sslcrl", NULL, 'f'},
    {"sslcrldir", NULL, 'd'},
    {"sslsni", "0|1", 0},
    {"ssl_min_protocol_version", "TLSv1|TLSv1.1|TLSv1.2|TLSv1.3", 0},
    {"ssl_max_protocol_version", "TLSv1|TLSv1.1|TLSv1.2|TLSv1.3", 0},
    {"channel_binding", "disable|prefer|require", 0},
    {"host", NULL, 0},
    {"port", NULL, 0},
    {NULL, NULL, 0}};

/* The MySQL client's option names (mysql --ssl-mode=...), mapped by the
 * driver onto Connector/C's MYSQL_OPT_SSL_* options, and the socket file. */
static const dlock_dsn_key dlock_dsn_my_keys[] = {
    {"ssl-mode", "DISABLED|PREFERRED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY", 0},
    {"ssl-ca", NULL, 'f'},
    {"ssl-capath", NULL, 'd'},
    {"ssl-cert", NULL, 'f'},
    {"ssl-key", NULL, 'f'},
    {"ssl-cipher", NULL, 0},
    {"ssl-crl", NULL, 'f'},
    {"ssl-crlpath", NULL, 'd'},
    {"tls-version", "TLSv1.2|TLSv1.3|TLSv1.2,TLSv1.3|TLSv1.3,TLSv1.2", 0},
    {"socket", NULL, 0},
    {NULL, NULL, 0}};

/* A rediss:// DSN's TLS knobs, named as redis-cli names them (--cacert,
 * --cacertdir, --cert, --key, --sni), and "verify": "full" (the default:
 * chain and name checked) or "off" (nothing checked; loud). */
static const dlock_dsn_key dlock_dsn_redis_keys[] = {
    {"cacert", NULL, 'f'}, {"cacertdir", NULL, 'd'},  {"cert", NULL, 'f'}, {"key", NULL, 'f'},
    {"sni", NULL, 0},      {"verify", "full|off", 0}, {NULL, NULL, 0}};

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

/* Checks the TLS file or directory parameter name = path (kind 'f' or 'd')
 * before the client library open()s it while connecting: a FIFO there
 * blocks that open() for ever, past every timeout. A path that does not
 * exist is left to the library (it fails at once; libpq also takes
 * "system" and engine key names). Returns DLOCK_OK or DLOCK_EINVAL naming
 * the parameter, never its value. */
static int dlock_dsn_tls_path(const char *scheme, const char *name, char kind, const char *path,
                              dlock_err *err)
{
	struct stat st;

	if (stat(path, &st) != 0 || (kind == 'f' ? S_ISREG(st.st_mode) : S_ISDIR(st.st_mode))) {
		return DLOCK_OK;
	}
	return dlock_err_set(err, DLOCK_EINVAL, 0,
	                     "%s DSN parameter \"%s\" must name a %s (a FIFO, device or %s there "
	                     "would block or break the TLS handshake)",
	                     scheme, name, kind == 'f' ? "regular file" : "directory",
	                     kind == 'f' ? "directory" : "file");
}

/* Non-zero when the parameter name=v turns TLS off: PostgreSQL
 * sslmode=disable, MySQL ssl-mode=DISABLED (any case). */
static int dlock_dsn_tls_off(const char *name, const char *v)
{
	return (strcmp(name, "sslmode") == 0 && strcasecmp(v, "disable") == 0) ||
	       (strcmp(name, "ssl-mode") == 0 && strcasecmp(v, "DISABLED") == 0);
}

int dlock_dsn_has(const char *params, const char *key)
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

/* Lower-cases the parameter name q[0..nlen) into name (MySQL's "_" read as
 * "-") and finds it in keys: its index, or -1 with err set (DLOCK_EINVAL). */
static int dsn_param_key(const char *scheme, dlock_backend_id backend, const dlock_dsn_key *keys,
                         const char *q, size_t nlen, char *name, dlock_err *err)
{
	size_t i;

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
		return -1;
	}
	if (strspn(q, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-0123456789.") < nlen) {
		/* not echoed: it may be anything, a %-escape included */
		dlock_err_set(err, DLOCK_EINVAL, 0,
		              "%s DSN parameter names are letters, digits, \"_\", \"-\" and \".\" "
		              "(no %%-escapes): one is not, and none such is supported",
		              scheme);
		return -1;
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
		              q,
		              backend == DLOCK_BACKEND_POSTGRES ? "postgres"
		              : backend == DLOCK_BACKEND_MYSQL  ? "mysql"
		                                                : "rediss");
		return -1;
	}
	return (int)i;
}

/* Checks value v of parameter name (keys entry k): not empty, no control
 * characters, one of its choices, a file or directory where it names one.
 * DLOCK_OK or DLOCK_EINVAL with err set. */
static int dsn_param_value(const char *scheme, const char *name, const dlock_dsn_key *k,
                           const char *v, dlock_err *err)
{
	const char *c;

	if (!v[0]) {
		dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN parameter \"%s\" has no value", scheme, name);
		return DLOCK_EINVAL;
	}
	for (c = v; *c; c++) {
		if ((unsigned char)*c < 0x20 || *c == 0x7f) {
			dlock_err_set(err, DLOCK_EINVAL, 0,
			              "%s DSN parameter \"%s\" must not contain control characters", scheme,
			              name);
			return DLOCK_EINVAL;
		}
	}
	if (k->choices && !dlock_dsn_choice(k->choices, v)) {
		dlock_err_set(err, DLOCK_EINVAL, 0, "%s DSN parameter \"%s\" must be one of %s", scheme,
		              name, k->choices);
		return DLOCK_EINVAL;
	}
	if (k->file && dlock_dsn_tls_path(scheme, name, k->file, v, err) != DLOCK_OK) {
		return DLOCK_EINVAL;
	}
	return DLOCK_OK;
}

/* Parses a SQL (or rediss://) DSN's query q[0..len) ("key=value&...", values %-escaped)
 * for backend: appends each parameter to *params as "key=value\n" (a new
 * string, NULL when none), except the address ones, which go to *host
 * (PostgreSQL "host", MySQL "socket": an absolute path) and *port. Returns
 * DLOCK_OK, or DLOCK_EINVAL naming the parameter (never its value: a value
 * may be a secret someone put there), or DLOCK_ENOMEM. */
int dlock_dsn_query(const char *scheme, dlock_backend_id backend, const char *q, size_t len,
                    char **params, char **host, long *port, dlock_err *err)
{
	const dlock_dsn_key *keys = backend == DLOCK_BACKEND_POSTGRES ? dlock_dsn_pg_keys
	                            : backend == DLOCK_BACKEND_MYSQL  ? dlock_dsn_my_keys
	                                                              : dlock_dsn_redis_keys;
	const char *end = q + len;
	char *out = NULL, *v = NULL;
	const char *tls_file = NULL, *off = NULL;
	size_t used = 0;
	int rc = DLOCK_EINVAL;

	*params = NULL;
	*host = NULL;
	while (q < end) {
		const char *amp = memchr(q, '&', (size_t)(end - q)), *eq, *item_end = amp ? amp : end;
		char name[32];
		size_t nlen;
		int ki;

		eq = memchr(q, '=', (size_t)(item_end - q));
		nlen = (size_t)((eq ? eq : item_end) - q);
		if (nlen == 0 || nlen >= sizeof(name) || !eq) {
			dlock_err_set(err, DLOCK_EINVAL, 0,
			              "%s DSN query must be key=value pairs joined by \"&\"", scheme);
			goto fail;
		}
		if ((ki = dsn_param_key(scheme, backend, keys, q, nlen, name, err)) < 0) {
			goto fail;
		}
		if ((rc = dlock_dsn_unescape(scheme, "parameter value", eq + 1, (size_t)(item_end - eq - 1),
		                             &v, err)) != DLOCK_OK) {
			goto fail;
		}
		rc = DLOCK_EINVAL;
		if (dsn_param_value(scheme, name, &keys[ki], v, err) != DLOCK_OK) {
			goto fail;
		}
		tls_file = keys[ki].file ? keys[ki].name : tls_file;
		off = dlock_dsn_tls_off(name, v) ? keys[ki].name : off;
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
	if (tls_file && off) {
		/* a CA or certificate named next to "no TLS": the DSN contradicts
		 * itself, and going on would send the lock's traffic in clear text */
		dlock_err_set(err, DLOCK_EINVAL, 0,
		              "%s DSN both asks for TLS (parameter \"%s\") and turns it off (\"%s\"); "
		              "drop one of them",
		              scheme, tls_file, off);
		goto fail;
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
