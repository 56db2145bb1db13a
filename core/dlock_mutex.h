/* dlock_mutex.h: the fair exclusive lock recipe (Curator InterProcessMutex
 * compatible): an EPHEMERAL_SEQUENTIAL node per contender, the lowest sequence
 * holds, every other contender watches only its predecessor. */
#ifndef DLOCK_MUTEX_H
#define DLOCK_MUTEX_H

#include <stddef.h>
#include <stdint.h>

#include "dlock_err.h"
#include "dlock_session.h"

typedef struct dlock_mutex dlock_mutex;

/* Validates `path` (see dlock_path_validate) and makes an unheld lock for it
 * in *out, owned by the caller (dlock_mutex_free). Nothing touches the server. */
int dlock_mutex_new(const char *path, size_t len, dlock_mutex **out, dlock_err *err);

/* Frees m. A lock still held is released first (errors ignored); in a forked
 * child the parent's node is left alone. m may be NULL. */
void dlock_mutex_free(dlock_mutex *m);

/* Acquires m on session s (the lock takes its own reference while it has a
 * node). Already held: counts one more hold and returns at once. Otherwise
 * creates its node (parents as containers), then waits for every predecessor
 * to go: timeout_ms < 0 waits for ever, 0 tries once, > 0 waits that long.
 * `data` is stored in the node. Returns DLOCK_OK (held), DLOCK_ETIMEDOUT (not
 * held, node removed), DLOCK_EINTR (intr stopped it; node removed), or an error
 * (DLOCK_ECONNLOSS, DLOCK_ESESSION, DLOCK_EAUTH, DLOCK_EZK, ...) with no hold. */
int dlock_mutex_acquire(dlock_mutex *m, dlock_session *s, const char *data, size_t data_len,
                        int64_t timeout_ms, const dlock_interrupt *intr, dlock_err *err);

/* Drops one hold; the last one deletes the node. Returns DLOCK_OK,
 * DLOCK_ENOTHELD (no hold), DLOCK_EFORKED (the hold belongs to a fork parent;
 * nothing done), DLOCK_ELOST (the node was gone: the session had expired; local
 * state cleared), or DLOCK_ECONNLOSS/DLOCK_EZK (delete failed; still held). */
int dlock_mutex_release(dlock_mutex *m, dlock_err *err);

/* Drops every hold at once (request end). Same codes as dlock_mutex_release;
 * DLOCK_ENOTHELD when there was nothing to release. */
int dlock_mutex_release_all(dlock_mutex *m, dlock_err *err);

/* Non-zero when m holds the lock on a live session owned by this process. */
int dlock_mutex_held(const dlock_mutex *m);

/* Current hold count (0 when not held). */
unsigned dlock_mutex_holds(const dlock_mutex *m);

/* Fencing token of the current hold: the node's creation zxid; 0 if none. */
int64_t dlock_mutex_token(const dlock_mutex *m);

/* The lock path, and the full path of the node while it has one (else NULL). */
const char *dlock_mutex_path(const dlock_mutex *m);
const char *dlock_mutex_node(const dlock_mutex *m);

#endif
