/* dlock_session.c: a ZooKeeper session, its connection state and the single
 * condition variable that blocked callers wait on. The client's completion
 * thread runs only the two watchers below, which record and signal. */
#include "dlock_session.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define DLOCK_WAIT_SLICE_MS 50

typedef enum sess_state {
	SESS_CONNECTING = 0, /* not (yet, or no longer) connected; session may be alive */
	SESS_CONNECTED,      /* connected, session alive */
	SESS_EXPIRED,        /* expired or auth failed: the handle is dead */
} sess_state;

struct dlock_session {
	zhandle_t *zh;          /* the client handle; closed by the last unref */
	char *hosts;            /* connect string (owned) */
	int timeout_cfg;        /* requested session timeout, ms */
	pid_t owner;            /* pid that opened the session */
	unsigned refs;          /* references; guarded by the caller's thread only */
	pthread_mutex_t mu;     /* guards the fields below */
	pthread_cond_t cond;    /* signalled on any state change or watch event */
	sess_state state;       /* last session state seen by the watcher */
	uintptr_t armed;        /* generation of the current wait */
	uintptr_t fired;        /* generation whose watch fired last */
	int fired_type;         /* event type of that firing */
	uint64_t notifications; /* node-watch events received, any generation */
};

static FILE *zklog_stream;

int64_t dlock_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int dlock_zklog_configure(const char *path, dlock_err *err)
{
	FILE *f = NULL;
	int rc = DLOCK_OK;

	if (path && *path) {
		f = fopen(path, "a");
		if (!f) {
			rc = dlock_err_set(err, DLOCK_EINVAL, 0, "cannot open ZooKeeper log file: %s",
			                   strerror(errno));
		}
	}
	if (f) {
		setvbuf(f, NULL, _IOLBF, 0);
		zoo_set_log_stream(f);
		zoo_set_debug_level(ZOO_LOG_LEVEL_INFO);
	} else {
		zoo_set_debug_level((ZooLogLevel)0);
	}
	if (zklog_stream) {
		fclose(zklog_stream);
	}
	zklog_stream = f;
	return rc;
}

/* Default watcher: session events only. Runs on the completion thread. */
static void session_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	dlock_session *s = (dlock_session *)ctx;

	(void)zh;
	(void)path;
	if (type != ZOO_SESSION_EVENT || !s) {
		return;
	}
	pthread_mutex_lock(&s->mu);
	if (state == ZOO_CONNECTED_STATE) {
		s->state = SESS_CONNECTED;
	} else if (state == ZOO_EXPIRED_SESSION_STATE || state == ZOO_AUTH_FAILED_STATE) {
		s->state = SESS_EXPIRED;
	} else if (s->state != SESS_EXPIRED) {
		s->state = SESS_CONNECTING;
	}
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->mu);
}

void dlock_session_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	dlock_session *s = (dlock_session *)zoo_get_context(zh);

	(void)state;
	(void)path;
	if (type == ZOO_SESSION_EVENT || !s) {
		return; /* the default watcher handles session events */
	}
	pthread_mutex_lock(&s->mu);
	s->notifications++;
	if ((uintptr_t)ctx == s->armed) {
		s->fired = (uintptr_t)ctx;
		s->fired_type = type;
		pthread_cond_broadcast(&s->cond);
	}
	pthread_mutex_unlock(&s->mu);
}

static void deadline_ts(struct timespec *ts, int64_t deadline_ms)
{
	int64_t now = dlock_now_ms(), until = now + DLOCK_WAIT_SLICE_MS;
	struct timespec cur;

	if (deadline_ms >= 0 && deadline_ms < until) {
		until = deadline_ms;
	}
	clock_gettime(CLOCK_MONOTONIC, &cur);
	/* convert the relative wait into an absolute CLOCK_MONOTONIC time */
	int64_t rel = until - now;
	if (rel < 0) {
		rel = 0;
	}
	ts->tv_sec = cur.tv_sec + (time_t)(rel / 1000);
	ts->tv_nsec = cur.tv_nsec + (long)(rel % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* Waits for `done(s, arg)` under s->mu; the common loop of both waits.
 * Returns DLOCK_OK when done() held, else the reason it stopped. */
static int wait_until(dlock_session *s, int (*done)(dlock_session *, void *), void *arg,
                      int64_t deadline_ms, const dlock_interrupt *intr)
{
	struct timespec ts;
	int rc;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		if (done(s, arg)) {
			rc = DLOCK_OK;
			break;
		}
		if (s->state == SESS_EXPIRED) {
			rc = DLOCK_ESESSION;
			break;
		}
		if (deadline_ms >= 0 && dlock_now_ms() >= deadline_ms) {
			rc = DLOCK_ETIMEDOUT;
			break;
		}
		deadline_ts(&ts, deadline_ms);
		if (pthread_cond_timedwait(&s->cond, &s->mu, &ts) == ETIMEDOUT && intr && intr->fn) {
			int stop;

			pthread_mutex_unlock(&s->mu);
			stop = intr->fn(intr->arg);
			pthread_mutex_lock(&s->mu);
			if (stop) {
				rc = DLOCK_EINTR;
				break;
			}
		}
	}
	pthread_mutex_unlock(&s->mu);
	return rc;
}

static int is_connected(dlock_session *s, void *arg)
{
	(void)arg;
	return s->state == SESS_CONNECTED;
}

static int has_fired(dlock_session *s, void *arg)
{
	return s->fired == (uintptr_t)arg;
}

int dlock_session_open(const dlock_session_cfg *cfg, const dlock_interrupt *intr,
                       dlock_session **out, dlock_err *err)
{
	dlock_session *s;
	sigset_t all, old;
	int rc;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->hosts = strdup(cfg->hosts))) {
		free(s);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	s->timeout_cfg = cfg->session_timeout_ms;
	s->owner = getpid();
	s->refs = 1;
	s->armed = 1;
	{
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&s->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	pthread_mutex_init(&s->mu, NULL);

	/* the client's two threads inherit this mask: they never take our signals */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = 0;
	s->zh = zookeeper_init(s->hosts, session_watcher, cfg->session_timeout_ms, NULL, s, 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->zh) {
		int e = errno;

		/* the client resolves every host here: unresolvable ones fail now */
		rc = dlock_err_set(err, e == ENOMEM ? DLOCK_ENOMEM : DLOCK_ECONNECT, 0,
		                   "cannot connect to ZooKeeper at \"%.128s\": %s", s->hosts,
		                   e == ENOMEM ? "out of memory" : "no server address could be resolved");
		goto fail;
	}
	rc = dlock_session_wait_connected(s, dlock_now_ms() + cfg->connect_timeout_ms, intr);
	if (rc == DLOCK_ETIMEDOUT || rc == DLOCK_ESESSION) {
		rc = dlock_err_set(err, DLOCK_ECONNECT, ZCONNECTIONLOSS,
		                   "could not connect to ZooKeeper at \"%.128s\" within %lld ms", s->hosts,
		                   (long long)cfg->connect_timeout_ms);
		goto fail;
	}
	if (rc == DLOCK_EINTR) {
		dlock_err_set(err, rc, 0, "interrupted while connecting");
		goto fail;
	}
	*out = s;
	return DLOCK_OK;
fail:
	dlock_session_unref(s);
	return rc;
}

void dlock_session_ref(dlock_session *s)
{
	s->refs++;
}

void dlock_session_unref(dlock_session *s)
{
	if (!s || --s->refs > 0) {
		return;
	}
	if (s->owner != getpid()) {
		/* inherited across fork(): the handle's threads do not exist here and
		 * closing it would end the parent's session; leak it on purpose */
		return;
	}
	if (s->zh) {
		zookeeper_close(s->zh); /* no callback runs after this returns */
	}
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->mu);
	free(s->hosts);
	free(s);
}

const char *dlock_session_hosts(const dlock_session *s)
{
	return s->hosts;
}

int dlock_session_timeout_cfg(const dlock_session *s)
{
	return s->timeout_cfg;
}

zhandle_t *dlock_session_zh(dlock_session *s)
{
	return s->zh;
}

int dlock_session_owned(const dlock_session *s)
{
	return s->owner == getpid();
}

int dlock_session_usable(dlock_session *s)
{
	int ok;

	if (s->owner != getpid()) {
		return 0;
	}
	pthread_mutex_lock(&s->mu);
	ok = s->state != SESS_EXPIRED;
	pthread_mutex_unlock(&s->mu);
	return ok;
}

int64_t dlock_session_id(dlock_session *s)
{
	const clientid_t *id = zoo_client_id(s->zh);

	return id ? id->client_id : 0;
}

int dlock_session_wait_connected(dlock_session *s, int64_t deadline_ms, const dlock_interrupt *intr)
{
	return wait_until(s, is_connected, NULL, deadline_ms, intr);
}

void *dlock_session_arm(dlock_session *s)
{
	uintptr_t gen;

	pthread_mutex_lock(&s->mu);
	gen = ++s->armed;
	pthread_mutex_unlock(&s->mu);
	return (void *)gen;
}

int dlock_session_wait(dlock_session *s, void *ctx, int64_t deadline_ms,
                       const dlock_interrupt *intr, int *event_type)
{
	int rc = wait_until(s, has_fired, ctx, deadline_ms, intr);

	if (rc == DLOCK_OK && event_type) {
		pthread_mutex_lock(&s->mu);
		*event_type = s->fired_type;
		pthread_mutex_unlock(&s->mu);
	}
	return rc;
}

uint64_t dlock_session_notifications(dlock_session *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->mu);
	n = s->notifications;
	pthread_mutex_unlock(&s->mu);
	return n;
}
