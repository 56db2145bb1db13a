/* dlock_zk_session.h: one ZooKeeper session: its handle, connection health
 * (alive, uncertain while disconnected, dead), credentials, owner pid, the
 * condition every blocked caller waits on, and asynchronous guaranteed
 * deletes. The completion thread only records events here and signals. */
#ifndef DLOCK_ZK_SESSION_H
#define DLOCK_ZK_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

#include "../dlock_err.h"
#include "../dlock_wait.h"

typedef struct dlock_session dlock_session;

/* Settings that identify a session; sessions with equal settings are shared. */
typedef struct dlock_session_cfg {
	const char *hosts;          /* connect string, already validated */
	int session_timeout_ms;     /* requested session timeout */
	int64_t connect_timeout_ms; /* how long open() waits for CONNECTED */
	const char *auth;           /* "user:password" for the digest scheme, or NULL */
} dlock_session_cfg;

/* How sure we are that the session (and every ephemeral node of it) lives. */
typedef enum dlock_health {
	DLOCK_HEALTH_ALIVE = 0, /* connected */
	DLOCK_HEALTH_UNCERTAIN, /* disconnected for less than the session timeout */
	DLOCK_HEALTH_DEAD       /* expired, disconnected for longer, closed, or a fork parent's */
} dlock_health;

/* Opens a session, waits until it is connected (and authenticated when
 * cfg->auth is set), at most cfg->connect_timeout_ms, calling intr between
 * slices. On success *out holds the only reference. Returns DLOCK_OK,
 * DLOCK_ECONNECT, DLOCK_EAUTH, DLOCK_EINTR or DLOCK_ENOMEM. */
int dlock_session_open(const dlock_session_cfg *cfg, const dlock_interrupt *intr,
                       dlock_session **out, dlock_err *err);

/* Reference counting. The last unref stops the reaper and closes the handle
 * (ending the session and its ephemeral nodes) unless the session belongs to
 * another pid (a fork parent): then it is deliberately forgotten, since
 * closing it from the child would end the parent's session. */
void dlock_session_ref(dlock_session *s);
void dlock_session_unref(dlock_session *s);

/* Non-zero when s was opened with settings equal to cfg. */
int dlock_session_matches(const dlock_session *s, const dlock_session_cfg *cfg);

/* The handle, for ZooKeeper calls from the caller's thread; NULL once the
 * session was closed as dead (see dlock_session_health). */
zhandle_t *dlock_session_zh(dlock_session *s);

/* The ACL for lock nodes and their parents: open, or with credentials
 * everything for the creator and read for the world. */
const struct ACL_vector *dlock_session_acl(dlock_session *s);

/* connect_timeout the session was opened with, ms. */
int64_t dlock_session_connect_timeout(const dlock_session *s);

/* The chroot of the session's connect string ("/a/b"), or NULL without one. */
const char *dlock_session_chroot(const dlock_session *s);

/* Non-zero when this process (not a fork parent) opened the session. */
int dlock_session_owned(const dlock_session *s);

/* Current health; DEAD is final. A disconnect longer than the negotiated
 * session timeout is declared DEAD locally (the client cannot hear the
 * server's expiry while disconnected). The first call that sees DEAD on the
 * owning process stops the reaper and closes the handle, so a session the
 * client gave up on can never reconnect and keep nodes; after that
 * dlock_session_zh() returns NULL. Call only from the thread that uses the
 * session (never from a ZooKeeper callback). */
int dlock_session_health(dlock_session *s);

/* The server-assigned session id (0 before the first connect). */
int64_t dlock_session_id(dlock_session *s);

/* Waits until the session is connected or deadline_ms passes (<0: no
 * deadline). Returns DLOCK_OK, DLOCK_ETIMEDOUT, DLOCK_ESESSION, DLOCK_EINTR. */
int dlock_session_wait_connected(dlock_session *s, int64_t deadline_ms,
                                 const dlock_interrupt *intr);

/* A node watched on the session (see dlock_session.c): one per path,
 * shared by every waiter on the session, so arming it again registers no
 * new watcher in the client. */
typedef struct dlock_watch dlock_watch;

/* Finds or makes the watch of `path` and takes a use of it (NULL: out of
 * memory). Give it back with dlock_session_watch_put. */
dlock_watch *dlock_session_watch_get(dlock_session *s, const char *path);
void dlock_session_watch_put(dlock_session *s, dlock_watch *w);
const char *dlock_watch_path(const dlock_watch *w);

/* The count of events w has delivered: read it before arming, wait until it
 * changes. Every waiter sees every event after its mark. */
uint64_t dlock_session_watch_mark(dlock_session *s, dlock_watch *w);

/* For the arming request (dlock_call_watch): sent, and its reply's code. */
void dlock_session_watch_sent(dlock_session *s, dlock_watch *w);
void dlock_session_watch_replied(dlock_session *s, dlock_watch *w, int zrc);

/* The watcher to pass with a dlock_watch as context to zoo_awget(). */
void dlock_session_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx);

/* Blocks until one of the n watches w fired since mark[i] was read, the
 * session dies, the deadline passes (<0: none) or intr asks to stop. Wakes at
 * least every 50 ms to call intr. On DLOCK_OK, *event_type (may be NULL) is
 * the type of the event that fired. Returns DLOCK_OK, DLOCK_ETIMEDOUT,
 * DLOCK_ESESSION or DLOCK_EINTR. */
int dlock_session_wait_watches(dlock_session *s, dlock_watch *const *w, const uint64_t *mark,
                               size_t n, int64_t deadline_ms, const dlock_interrupt *intr,
                               int *event_type);

/* Deletes `path` without waiting for the reply; a delete that meets a
 * connection loss is retried after every reconnect until it succeeds or the
 * session is gone. Requests on one session are ordered, so a create sent
 * after this is processed after the delete. */
void dlock_session_delete_async(dlock_session *s, const char *path);

/* Hands a delete to the retry thread: `path` itself, or with a guid every
 * child of `path` carrying it. Used when a delete met a connection loss. */
void dlock_session_delete_later(dlock_session *s, const char *path, const char *guid);

/* The session's monitor, for the call layer (dlock_call): lock/unlock its
 * mutex, and wake every waiter (call with the mutex held). */
void dlock_session_lock(dlock_session *s);
void dlock_session_unlock(dlock_session *s);
void dlock_session_broadcast(dlock_session *s);

/* Waits until done(arg), evaluated under the session mutex, is true; gives
 * up at deadline_ms (<0: never), when the session dies, or when intr asks.
 * Returns DLOCK_OK, DLOCK_ETIMEDOUT, DLOCK_ESESSION or DLOCK_EINTR. */
int dlock_session_wait_for(dlock_session *s, int (*done)(void *arg), void *arg, int64_t deadline_ms,
                           const dlock_interrupt *intr);

/* The negotiated session timeout (the requested one before the first connect), ms. */
int dlock_session_timeout_ms(dlock_session *s);

/* Deletes not yet confirmed by the server (in flight or waiting to retry). */
size_t dlock_session_pending_deletes(dlock_session *s);

/* Node-watch notifications delivered to this session so far (for tests and
 * the benchmark's herd check). */
uint64_t dlock_session_notifications(dlock_session *s);

#endif
