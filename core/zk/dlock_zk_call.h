/* dlock_zk_call.h: ZooKeeper requests with a deadline. Each request is sent
 * asynchronously on a session and waited for on the session's condition, so a
 * caller can give up at its deadline (a stalled server, a dead connection that
 * the client has not noticed yet) without ever blocking longer; a request given
 * up on is freed by its completion, which always comes (a reply, a connection
 * loss, or the handle's close). Requests sent one after another on a session
 * are processed by the server in that order, so several may be in flight at
 * once (pipelined). */
#ifndef DLOCK_ZK_CALL_H
#define DLOCK_ZK_CALL_H

#include <stddef.h>
#include <stdint.h>

#include "dlock_zk_session.h"

/* One request in flight, or done. Fields are read by the caller only after
 * dlock_call_wait() returned DLOCK_OK. */
typedef struct dlock_call {
	dlock_session *s;          /* the session it was sent on (not counted: outlives the call) */
	int done;                  /* the completion ran (under the session mutex) */
	int abandoned;             /* the caller gave up: the completion frees the call */
	int rc;                    /* ZooKeeper result code */
	char *created;             /* create: the created node's full path (owned) */
	struct Stat stat;          /* create, exists, get: the node's stat */
	struct String_vector kids; /* children: the listing (owned) */
	char *data;                /* get: the node's data, NUL-terminated (owned) */
	size_t data_len;           /* get: bytes of data */
	dlock_watch *watch;        /* watch: the watch it arms (the session's) */
} dlock_call;

/* Each sends one request and returns the call, or NULL when out of memory.
 * A request the client refuses at once (a closed or dead handle, bad
 * arguments) comes back already done with its code. */
dlock_call *dlock_call_create(dlock_session *s, const char *path, const char *data, size_t len,
                              int flags);
dlock_call *dlock_call_children(dlock_session *s, const char *path);
dlock_call *dlock_call_exists(dlock_session *s, const char *path);
dlock_call *dlock_call_delete(dlock_session *s, const char *path);
/* getData of w's node (data and stat copied into the call), arming w (its events come separately,
 * see dlock_session_wait_watches). The caller keeps its use of w until the call is released. */
dlock_call *dlock_call_watch(dlock_session *s, dlock_watch *w);
/* getChildren of `path`, arming w as a child watch (an event when a child
 * is added or removed, or the node is deleted). w must be a watch record of
 * its own, never one a data watch uses (a record tracks one client watcher):
 * dlock_zk_admin.c keys its records apart. The listing comes in c->kids. */
dlock_call *dlock_call_watch_children(dlock_session *s, dlock_watch *w, const char *path);
/* getData without a watch: the data and stat are copied into the call. */
dlock_call *dlock_call_get(dlock_session *s, const char *path);
/* setData of `path` (any version): a semaphore waiter granted after waiting
 * tells the waiter watching it (see dlock_lock.c). */
dlock_call *dlock_call_set(dlock_session *s, const char *path, const char *data, size_t len);
/* sync(path): later reads on this session see everything the leader had
 * committed when it was processed. */
dlock_call *dlock_call_sync(dlock_session *s, const char *path);

/* Waits for c's completion until deadline_ms (<0: as long as it takes; the
 * completion always comes). Returns DLOCK_OK (c->rc is the result),
 * DLOCK_ETIMEDOUT, DLOCK_ESESSION (the session was declared dead) or
 * DLOCK_EINTR. A NULL c (out of memory) returns DLOCK_ENOMEM. */
int dlock_call_wait(dlock_call *c, int64_t deadline_ms, const dlock_interrupt *intr);

/* Gives c back: frees it when done, else leaves it to its completion.
 * Results still owned by c (created, kids) are freed with it. NULL is fine. */
void dlock_call_release(dlock_call *c);

/* Takes the listing out of a done call (the call no longer owns it). */
struct String_vector dlock_call_take_kids(dlock_call *c);

/* Takes the created path out of a done call (the caller frees it). */
char *dlock_call_take_created(dlock_call *c);

/* Waits until s is connected again after a connection loss, until deadline_ms
 * (<0: none; the session's own timer bounds it). Returns DLOCK_OK, or with err
 * set: DLOCK_ECONNLOSS (not back by the deadline), DLOCK_ESESSION, DLOCK_EINTR. */
int dlock_call_reconnect(dlock_session *s, int64_t deadline_ms, const dlock_interrupt *intr,
                         dlock_err *err);

/* Describes in err why waiting for a request about `path` failed (the codes
 * of dlock_call_wait other than DLOCK_OK) and returns rc. */
int dlock_call_failed(int rc, const char *what, const char *path, dlock_err *err);

/* Non-zero for the codes after which a request's fate is unknown: it may or
 * may not have been applied (connection loss, operation timeout). */
int dlock_call_unknown(int zrc);

#endif
