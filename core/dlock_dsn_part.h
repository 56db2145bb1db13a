/* dlock_dsn_part.h: the pieces of a DSN (dlock_dsn_part.c), for the DSN
 * parser only. */
#ifndef DLOCK_DSN_PART_H
#define DLOCK_DSN_PART_H

#include <stddef.h>

#include "dlock_dsn.h"

/* Parses a decimal number of at most 9 digits in s[0..len) into *out. */
int dlock_dsn_number(const char *s, size_t len, long *out);

/* Decodes the %XX escapes of a DSN's user or password (what names it, e.g.
 * "password") s[0..len) into *out, a new string. A "%" not followed by two
 * hex digits, or an escape of a NUL byte (which would cut the credential
 * short where the client library reads it), is DLOCK_EINVAL with a message
 * that does not echo the text; DLOCK_ENOMEM when out of memory. */
int dlock_dsn_unescape(const char *scheme, const char *what, const char *s, size_t len, char **out,
                       dlock_err *err);

/* Non-zero when params ("key=value\n" lines, or NULL) has key. */
int dlock_dsn_has(const char *params, const char *key);

/* Parses a SQL (or rediss://: backend Redis) DSN's query q[0..len) ("key=value&...", values
 * %-escaped) for backend: appends each parameter to *params as "key=value\n" (a new string, NULL
 * when none), except the address ones, which go to *host (PostgreSQL "host", MySQL "socket": an
 * absolute path) and *port. Returns DLOCK_OK, or DLOCK_EINVAL naming the parameter (never its
 * value: a value may be a secret someone put there), or DLOCK_ENOMEM. */
int dlock_dsn_query(const char *scheme, dlock_backend_id backend, const char *q, size_t len,
                    char **params, char **host, long *port, dlock_err *err);

#endif
