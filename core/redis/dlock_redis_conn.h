/* dlock_redis_conn.h: one connection to a Redis server, used by one thread:
 * connect (TLS for rediss://, AUTH, SELECT) within connect_timeout, and commands whose reply is
 * awaited in short poll() slices, so every call obeys a deadline and the
 * caller's interrupt hook. A connection that missed a reply is dropped
 * (never reused with a reply in flight) and reopened by the next call. */
#ifndef DLOCK_REDIS_CONN_H
#define DLOCK_REDIS_CONN_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <hiredis/hiredis.h>

#include "../dlock_backend.h"

typedef struct dlock_redis_conn {
	redisContext *ctx; /* NULL while not connected */
	void *ssl;         /* ctx's OpenSSL object over TLS (owned by ctx), else NULL */
	pid_t pid;         /* process that opened ctx */
	dlock_target cfg;  /* owned copy of the server settings */
	char where[300];   /* "redis://host:port/db", for messages and matching */
	int64_t broken_at; /* when a call last failed on I/O (ms), 0 while healthy */
	char sha[8][41];   /* script SHA1s loaded on this server (dlock_redis_script's cache) */
	int busy;          /* lent out by the pool to a call of the PHP thread: a signal handler
	                      run inside that call is lent another connection, never this one */
} dlock_redis_conn;

/* Makes c a closed connection to t's server (settings copied). Returns
 * DLOCK_OK or DLOCK_ENOMEM. */
int dlock_redis_conn_init(dlock_redis_conn *c, const dlock_target *t, dlock_err *err);

/* Closes and frees what c owns (c itself is the caller's). */
void dlock_redis_conn_clear(dlock_redis_conn *c);

/* Non-zero when c talks to the server and credentials of t. */
int dlock_redis_conn_matches(const dlock_redis_conn *c, const dlock_target *t);

/* Closes the socket (a reply in flight is abandoned). In a fork child the
 * inherited socket is closed without a word to the server. */
void dlock_redis_conn_drop(dlock_redis_conn *c);

/* Sends argv and waits for its reply until deadline (ms on dlock_now_ms's
 * clock; < 0: none), calling intr between slices; connects first when
 * needed; a pooled connection found dead on use is replaced once (the
 * callers' commands are all safe to repeat). On DLOCK_OK *reply is the reply (freeReplyObject by
 * the caller; a server error reply is returned as such). Otherwise *reply is NULL and the code is
 * DLOCK_ECONNECT (could not connect or authenticate), DLOCK_ECONNLOSS (I/O failed, or no reply by
 * the deadline: the command may or may not have run), DLOCK_EINTR (stopped by intr: same
 * uncertainty), DLOCK_EFORKED (intr forked: this is the child, which must send nothing more
 * for the call; the parent's socket is left to the parent) or DLOCK_ENOMEM. */
int dlock_redis_conn_call(dlock_redis_conn *c, int argc, const char **argv, const size_t *lens,
                          int64_t deadline, const dlock_interrupt *intr, redisReply **reply,
                          dlock_err *err);

/* Waits for the next reply or push (a subscriber's message) on a connected c
 * without sending anything, until intr asks to stop (checked between wait
 * slices; no deadline). Codes as dlock_redis_conn_call; any failure drops
 * the connection. */
int dlock_redis_conn_next(dlock_redis_conn *c, const dlock_interrupt *intr, redisReply **reply,
                          dlock_err *err);

/* Asks t's sentinels, in order, which master they name now (t must have
 * sentinels): the first answer is copied to host (size bytes) and *port.
 * Each sentinel is given what is left until limit (ms on dlock_now_ms's
 * clock). Returns DLOCK_OK or DLOCK_ECONNECT (no sentinel answered). */
int dlock_redis_sentinel_master(const dlock_target *t, int64_t limit, char *host, size_t size,
                                int *port, dlock_err *err);

#endif
