/* dlock_dsn_tls.c: the TLS policy of DSNs (docs/security.md): which mode a
 * DSN with TLS parameters but no mode gets (verified), the once-per-process
 * warning of a mode that checks no certificate, ZooKeeper TLS DSNs (refused:
 * the C client links no TLS library), and what this build can encrypt. */
#include "dlock_dsn_tls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dlock_build.h"
#include "dlock_dsn.h"
#include "dlock_dsn_part.h"

#ifdef DLOCK_WITH_REDIS
/* only for the version macros in the phpinfo() row */
#include <hiredis/hiredis.h>
#endif

#define DLOCK_DSN_STR2(x) #x
#define DLOCK_DSN_STR(x)  DLOCK_DSN_STR2(x)

/* The glue's warning function (dlock_dsn_set_warn), or NULL. */
static void (*dlock_dsn_warn_fn)(const char *msg);

void dlock_dsn_set_warn(void (*fn)(const char *msg))
{
	dlock_dsn_warn_fn = fn;
}

/* The TLS mode a DSN's params give when they name TLS files or versions but
 * no mode: verified (chain and name). Returns DLOCK_OK or DLOCK_ENOMEM; a
 * DSN without TLS parameters is left alone (the client library's default).
 * rediss:// always gets "verify=full" unless it says "verify=off". */
int dlock_dsn_tls_default(dlock_backend_id backend, char **params, dlock_err *err)
{
	const char *mode = backend == DLOCK_BACKEND_POSTGRES ? "sslmode=verify-full\n"
	                   : backend == DLOCK_BACKEND_MYSQL  ? "ssl-mode=VERIFY_IDENTITY\n"
	                                                     : "verify=full\n";
	const char *key = backend == DLOCK_BACKEND_POSTGRES ? "sslmode"
	                  : backend == DLOCK_BACKEND_MYSQL  ? "ssl-mode"
	                                                    : "verify";
	size_t n = *params ? strlen(*params) : 0;
	char *grown;

	if ((!*params && backend != DLOCK_BACKEND_REDIS) || dlock_dsn_has(*params, key)) {
		return DLOCK_OK;
	}
	if (!(grown = realloc(*params, n + strlen(mode) + 1))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	memcpy(grown + n, mode, strlen(mode) + 1);
	*params = grown;
	return DLOCK_OK;
}

/* Says once per process and backend, through the glue's warning function,
 * that params choose TLS without the server's certificate and name checked:
 * PostgreSQL sslmode allow, prefer, require or verify-ca; MySQL ssl-mode
 * PREFERRED or REQUIRED; rediss:// verify=off. What the user wrote is done
 * (it is libpq's and the MySQL client's meaning), but not silently. */
void dlock_dsn_tls_warn(dlock_backend_id backend, const char *params)
{
	static unsigned warned;
	const char *keys[16], *vals[16], *weak = NULL;
	char *buf = NULL, msg[400];
	int n, i;

	if (!dlock_dsn_warn_fn || (warned & (1u << backend)) ||
	    (n = dlock_dsn_params_split(params, &buf, keys, vals, 16)) <= 0) {
		return;
	}
	for (i = 0; i < n; i++) {
		if ((strcmp(keys[i], "sslmode") == 0 && strcasecmp(vals[i], "disable") != 0 &&
		     strcasecmp(vals[i], "verify-full") != 0) ||
		    (strcmp(keys[i], "ssl-mode") == 0 &&
		     (strcasecmp(vals[i], "PREFERRED") == 0 || strcasecmp(vals[i], "REQUIRED") == 0)) ||
		    (strcmp(keys[i], "verify") == 0 && strcasecmp(vals[i], "off") == 0)) {
			weak = vals[i];
			snprintf(msg, sizeof(msg),
			         "%s DSN %s=%s: TLS without checking the server's certificate%s, so "
			         "anyone on the path can pose as the server; %s (docs/security.md; said "
			         "once per process)",
			         backend == DLOCK_BACKEND_POSTGRES ? "postgres"
			         : backend == DLOCK_BACKEND_MYSQL  ? "mysql"
			                                           : "rediss",
			         keys[i], weak, strcasecmp(weak, "verify-ca") == 0 ? "'s name" : " and name",
			         backend == DLOCK_BACKEND_POSTGRES ? "use sslmode=verify-full with sslrootcert"
			         : backend == DLOCK_BACKEND_MYSQL
			             ? "use ssl-mode=VERIFY_IDENTITY with ssl-ca"
			             : "leave verify out and name the CA with cacert");
			break;
		}
	}
	free(buf);
	if (weak) {
		warned |= 1u << backend;
		dlock_dsn_warn_fn(msg);
	}
}

/* Non-zero when dsn[0..len) asks for ZooKeeper over TLS: a scheme such as
 * zookeeper+tls://, zookeepers:// or zk+ssl://, or a zookeeper:// DSN with a
 * query that says tls, ssl or secure (as Java clients' settings do). */
int dlock_dsn_zk_tls(const char *dsn, size_t len)
{
	static const char *const schemes[] = {"zookeeper+tls://", "zookeeper+ssl://", "zookeepers://",
	                                      "zk+tls://",        "zk+ssl://",        "zks://"};
	size_t i;

	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		if (len >= strlen(schemes[i]) && strncasecmp(dsn, schemes[i], strlen(schemes[i])) == 0) {
			return 1;
		}
	}
	if (len <= 12 || strncasecmp(dsn, "zookeeper://", 12) != 0 || !memchr(dsn, '?', len)) {
		return 0;
	}
	for (i = 0; i + 3 <= len; i++) {
		if (strncasecmp(dsn + i, "tls", 3) == 0 || strncasecmp(dsn + i, "ssl", 3) == 0 ||
		    (i + 6 <= len && strncasecmp(dsn + i, "secure", 6) == 0)) {
			return 1;
		}
	}
	return 0;
}

const char *dlock_dsn_tls_support(void)
{
	static char buf[400];

	snprintf(buf, sizeof(buf), "%s%s%s; ZooKeeper: no (the C client links no TLS library)",
#ifdef DLOCK_WITH_POSTGRES
	         "PostgreSQL: yes (libpq); ",
#else
	         "",
#endif
#ifdef DLOCK_WITH_MYSQL
	         "MySQL: yes (Connector/C); ",
#else
	         "",
#endif
#if defined(DLOCK_WITH_REDIS_TLS)
	         "Redis: yes (rediss://, hiredis " DLOCK_DSN_STR(HIREDIS_MAJOR) "." DLOCK_DSN_STR(
	             HIREDIS_MINOR) "." DLOCK_DSN_STR(HIREDIS_PATCH) " with hiredis_ssl)"
#elif defined(DLOCK_WITH_REDIS)
	         "Redis: no (hiredis " DLOCK_DSN_STR(HIREDIS_MAJOR) "." DLOCK_DSN_STR(
	             HIREDIS_MINOR) "." DLOCK_DSN_STR(HIREDIS_PATCH) " without hiredis_ssl)"
#else
	         "Redis: not built"
#endif
	);
	return buf;
}
