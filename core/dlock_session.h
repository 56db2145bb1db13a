/* dlock_session.h: one ZooKeeper session (handle, connection state, owner pid)
 * and the condition every blocked caller waits on; the ZooKeeper completion
 * thread only records events here and signals. */
#ifndef DLOCK_SESSION_H
#define DLOCK_SESSION_H

#include <stdint.h>
#include <stdio.h>

#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

#include "dlock_err.h"

typedef struct dlock_session dlock_session;

/* Called between wait slices on the waiting thread with no lock held; returns
 * non-zero to make the wait give up with DLOCK_EINTR. */
typedef int (*dlock_interrupt_fn)(void *arg);

typedef struct dlock_interrupt {
	dlock_interrupt_fn fn; /* may be NULL: never interrupted */
	void *arg;             /* passed to fn */
} dlock_interrupt;

/* Settings that identify a session; sessions with equal settings are shared. */
typedef struct dlock_session_cfg {
	const char *hosts;          /* connect string, already validated */
	int session_timeout_ms;     /* requested session timeout */
	int64_t connect_timeout_ms; /* how long open() waits for CONNECTED */
} dlock_session_cfg;

/* Milliseconds on a monotonic clock. */
int64_t dlock_now_ms(void);

/* Routes the ZooKeeper client's own log: to `path` (appended, INFO level) when
 * path is non-empty, otherwise nowhere. Process-wide. Returns DLOCK_OK or
 * DLOCK_EINVAL when the file cannot be opened (logging then stays off). */
int dlock_zklog_configure(const char *path, dlock_err *err);

/* Opens a session and waits until it is connected, at most
 * cfg->connect_timeout_ms, calling intr between slices. On success *out holds
 * the only reference. Returns DLOCK_OK, DLOCK_ECONNECT, DLOCK_EINTR,
 * DLOCK_ENOMEM or DLOCK_EINVAL (hosts the client cannot parse or resolve). */
int dlock_session_open(const dlock_session_cfg *cfg, const dlock_interrupt *intr,
                       dlock_session **out, dlock_err *err);

/* Reference counting. The last unref closes the handle (which ends the session
 * and removes its ephemeral nodes) unless the session belongs to another pid
 * (a fork parent): then the handle is deliberately forgotten, since closing it
 * from the child would end the parent's session. */
void dlock_session_ref(dlock_session *s);
void dlock_session_unref(dlock_session *s);

/* Settings the session was opened with (owned by the session). */
const char *dlock_session_hosts(const dlock_session *s);
int dlock_session_timeout_cfg(const dlock_session *s);

/* The handle, for ZooKeeper calls from the caller's thread. */
zhandle_t *dlock_session_zh(dlock_session *s);

/* Non-zero when this process (not a fork parent) opened the session. */
int dlock_session_owned(const dlock_session *s);

/* Non-zero when this process owns the session and it has not expired. */
int dlock_session_usable(dlock_session *s);

/* The server-assigned session id (0 before the first connect). */
int64_t dlock_session_id(dlock_session *s);

/* Waits until the session is connected or deadline_ms passes (<0: no
 * deadline). Returns DLOCK_OK, DLOCK_ETIMEDOUT, DLOCK_ESESSION, DLOCK_EINTR. */
int dlock_session_wait_connected(dlock_session *s, int64_t deadline_ms,
                                 const dlock_interrupt *intr);

/* Starts a new wait: returns the watcher context to pass with
 * dlock_session_watcher to a zoo_w*() call. Only events for the latest armed
 * context wake the waiter; older watches are counted and otherwise ignored. */
void *dlock_session_arm(dlock_session *s);
void dlock_session_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx);

/* Blocks until the watch armed as `ctx` fires, the session expires, the
 * deadline passes (<0: none) or intr asks to stop. Wakes at least every 50 ms
 * to call intr. On DLOCK_OK, *event_type (may be NULL) is the ZooKeeper event
 * type that fired. Returns DLOCK_OK, DLOCK_ETIMEDOUT, DLOCK_ESESSION or
 * DLOCK_EINTR. */
int dlock_session_wait(dlock_session *s, void *ctx, int64_t deadline_ms,
                       const dlock_interrupt *intr, int *event_type);

/* Node-watch notifications delivered to this session so far (for tests and
 * the benchmark's herd check). */
uint64_t dlock_session_notifications(dlock_session *s);

#endif
