/* dlock_dsn_tls.h: the TLS policy of DSNs, for the DSN parser (dlock_dsn.c);
 * dlock_dsn_set_warn() and dlock_dsn_tls_support() are public in dlock_dsn.h. */
#ifndef DLOCK_DSN_TLS_H
#define DLOCK_DSN_TLS_H

#include "dlock_backend.h"

/* Gives *params (owned "key=value\n" lines, may be NULL) the verified mode
 * when they name TLS files or versions but no mode (postgres verify-full,
 * mysql VERIFY_IDENTITY); rediss:// always gets "verify=full" unless it says
 * "verify=off". A SQL DSN without TLS parameters is left alone (the client
 * library's default). Returns DLOCK_OK or DLOCK_ENOMEM. */
int dlock_dsn_tls_default(dlock_backend_id backend, char **params, dlock_err *err);

/* Warns once per process and backend, through the glue's warning function,
 * when params choose TLS without the certificate and name checked. */
void dlock_dsn_tls_warn(dlock_backend_id backend, const char *params);

/* Non-zero when dsn[0..len) asks for ZooKeeper over TLS (a TLS scheme, or a
 * zookeeper:// query that says tls, ssl or secure). */
int dlock_dsn_zk_tls(const char *dsn, size_t len);

#endif
