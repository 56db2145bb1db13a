/* dlock_dsn.h: data source names that choose a backend and its server:
 *   zookeeper://host:port[,host:port...][/chroot]
 *   redis://[[user]:password@]host[:port][/db]
 *   rediss://[[user]:password@]host[:port][/db][?param=value&...]
 *       (TLS, when hiredis has hiredis_ssl) params: cacert, cacertdir,
 *       cert, key, sni, verify=full|off
 *   redis-sentinel://[[user]:password@]host:port[,host:port...]/master[/db]
 *   postgres://[user[:password]@]host[:port][/dbname][?param=value&...]
 *       (also postgresql://) params: libpq's sslmode, sslrootcert, sslcert,
 *       sslkey, sslcrl, sslcrldir, sslsni, ssl_min/max_protocol_version,
 *       channel_binding; host=/socket/dir (host left empty) and port
 *   mysql://[user[:password]@]host[:port][/dbname][?param=value&...]
 *       (also mariadb://) params: ssl-mode, ssl-ca, ssl-capath, ssl-cert,
 *       ssl-key, ssl-cipher, ssl-crl, ssl-crlpath, tls-version ("_" for
 *       "-" too); socket=/socket/file (host left empty)
 * A leaf apart from dlock_backend.h's target type. */
#ifndef DLOCK_DSN_H
#define DLOCK_DSN_H

#include <stddef.h>

#include "dlock_backend.h"

#define DLOCK_DSN_MAX 4096 /* longest DSN accepted, bytes */

/* Parses dsn[0..len) into t's backend and server fields (owned strings: the
 * caller frees them with dlock_target_clear; fields the DSN does not name
 * are left as they were, and strings it replaces are freed). Returns DLOCK_OK or
 * DLOCK_EINVAL with msg naming the problem (never echoing a password), or
 * DLOCK_ENOMEM. */
int dlock_dsn_parse(const char *dsn, size_t len, dlock_target *t, dlock_err *err);

/* Writes dsn[0..len) to buf (at least len + 4 bytes) with its password,
 * everything between the user's ":" and the last "@", replaced by "***",
 * NUL-terminated: what may be shown (phpinfo()). Without an "@" or a ":"
 * before it, a copy. Also for a DSN that does not parse (it masks at least
 * what the parser would take for the password). */
void dlock_dsn_mask(const char *dsn, size_t len, char *buf);

/* Splits a copy of a target's params ("key=value\n" lines, or NULL) into
 * at most max pairs: keys[i] and vals[i] point into *buf, a malloc()ed copy
 * the caller frees (NULL when there are none). Returns the number of pairs,
 * or -1 when out of memory. */
int dlock_dsn_params_split(const char *params, char **buf, const char **keys, const char **vals,
                           int max);

/* Sets the function that shows a warning to the user (the glue's; NULL:
 * none). A DSN that asks for TLS without the server's certificate and name
 * checked (PostgreSQL sslmode allow/prefer/require/verify-ca, MySQL ssl-mode
 * PREFERRED/REQUIRED, rediss:// verify=off) is parsed as written and makes
 * dlock_dsn_parse() call it once per process and backend. Call it only on
 * the thread that parses DSNs (the PHP thread). */
void dlock_dsn_set_warn(void (*fn)(const char *msg));

/* Which backends of this build can connect over TLS, and with what client
 * library, as one line for phpinfo() (a static buffer). */
const char *dlock_dsn_tls_support(void);

/* A malloc()ed NUL-terminated copy of s[0..len), or NULL when out of memory. */
char *dlock_strndup(const char *s, size_t len);

/* Wipes and frees *s (a credential) and sets it to NULL; *s may be NULL. */
void dlock_target_free_secret(char **s);

#endif
