/* dlock_zk_session_int.h: the session's state, shared by the two files that
 * implement it: dlock_zk_session.c (connect, health, waits, deletes) and
 * dlock_zk_watch.c (the per-node watch records). Nothing else includes it. */
#ifndef DLOCK_ZK_SESSION_INT_H
#define DLOCK_ZK_SESSION_INT_H

#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#include "dlock_zk_reaper.h"
#include "dlock_zk_session.h"

typedef enum sess_state {
	SESS_CONNECTING = 0, /* not (yet, or no longer) connected; session may be alive */
	SESS_CONNECTED,      /* connected, session alive */
	SESS_DEAD,           /* expired, auth failed, or declared dead locally: final */
} sess_state;

struct dlock_session {
	zhandle_t *zh;              /* the client handle; closed by the last unref */
	dlock_reaper *reaper;       /* guaranteed deletes; stopped before the close */
	char *hosts;                /* connect string (owned) */
	char *auth;                 /* "user:password" or NULL (owned; wiped on free) */
	int timeout_cfg;            /* requested session timeout, ms */
	int64_t connect_timeout_ms; /* how long connects are waited for */
	pid_t owner;                /* pid that opened the session */
	unsigned refs;              /* references; touched by the owning thread only */
	int closed;                 /* zh closed after the session was declared dead (owner thread) */
	struct ACL acl_entries[2];  /* ACL for nodes when auth is set */
	struct ACL_vector acl;      /* points at acl_entries */
	pthread_mutex_t mu;         /* guards the fields below, and the reaper pointer */
	pthread_cond_t cond;        /* signalled on any state change or watch event */
	sess_state state;           /* last state seen, or DEAD declared locally */
	int64_t disconnected_at;    /* when CONNECTED turned CONNECTING, ms */
	int negotiated_ms;          /* session timeout the server granted */
	int64_t session_id;         /* server-assigned id, set on the first connect */
	int auth_done;              /* the add_auth completion ran */
	int auth_rc;                /* its result */
	dlock_watch *watches;       /* watched nodes, each the context of its client watcher */
	uint64_t notifications;     /* node-watch events received */
	size_t inflight_deletes;    /* async deletes without a reply yet */
};

/* One node watched on this session: the context passed with
 * dlock_session_watcher for it, the same one every time, so the client keeps
 * one watcher object per node however often it is armed (it skips a watcher
 * already registered with the same function and context). Each waiter
 * remembers `fired` when it arms and waits until it changes: events are
 * never consumed, so waiters nested in one another (a signal handler that
 * waits inside a wait) each see their own. Freed once no waiter uses it, no
 * request to arm it is in flight and the client holds no watcher for it (it
 * fired, or was never set); every field is guarded by the session mutex. */
struct dlock_watch {
	dlock_watch *prev, *next; /* in s->watches */
	unsigned users;           /* waiters holding it (dlock_session_watch_get) */
	unsigned pending;         /* arming requests without a reply yet */
	int registered;           /* the client holds a watcher with this context */
	uint64_t fired;           /* node events delivered so far */
	int type;                 /* the last one's type */
	char path[];              /* the watched node */
};

#endif
