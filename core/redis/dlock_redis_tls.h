/* dlock_redis_tls.h: TLS on a Redis connection (rediss://) through
 * hiredis_ssl and OpenSSL, for builds whose hiredis has hiredis_ssl
 * (DLOCK_WITH_REDIS_TLS). Used by dlock_redis_conn.c only. */
#ifndef DLOCK_REDIS_TLS_H
#define DLOCK_REDIS_TLS_H

#include <stdint.h>

#include <hiredis/hiredis.h>

#include "../dlock_backend.h"

/* Runs the TLS handshake on ctx, a freshly connected blocking context to
 * host (the address dialled), with t's params ("cacert", "cacertdir",
 * "cert", "key", "sni", "verify" lines, checked by the DSN parser): the
 * chain is checked against cacert/cacertdir (OpenSSL's default store when
 * neither is named) and the certificate must name sni, else host (a DNS
 * name or an IP address), unless verify=off. The handshake waits at most
 * until limit (ms on dlock_now_ms's clock). Afterwards ctx is non-blocking
 * (reads happen only after poll(), and TLS 1.3 tickets must not make a read
 * wait). On DLOCK_OK *ssl is the connection's SSL object (owned by ctx: it
 * lives until redisFree). Otherwise ctx is left for the caller to free and
 * the code is DLOCK_ECONNECT with a message naming where and why (files by
 * their path, never their contents), or DLOCK_ENOMEM. */
int dlock_redis_tls_start(redisContext *ctx, const dlock_target *t, const char *host, int64_t limit,
                          const char *where, void **ssl, dlock_err *err);

/* Non-zero when ssl holds decrypted bytes not yet read (a read must come
 * before the next poll() of the socket). */
int dlock_redis_tls_pending(void *ssl);

#endif
