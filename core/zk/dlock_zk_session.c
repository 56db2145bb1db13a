/* dlock_zk_session.c: a ZooKeeper session, its health and the single condition
 * variable that blocked callers wait on. The client's completion thread runs
 * only the watchers and completions below (and the node watcher of
 * dlock_zk_watch.c), which record and signal. */
#include "dlock_zk_session.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dlock_zk_probe.h"
#include "dlock_zk_reaper.h"
#include "dlock_zk_session_int.h"

/* An asynchronous delete in flight; freed by its completion. */
typedef struct delete_op {
	dlock_session *s; /* outlives the op: the close waits for completions */
	char path[];      /* node to delete */
} delete_op;

/* Declares the session dead when it has been disconnected for longer than its
 * timeout: the server has expired it by now, but the client cannot hear that
 * until it reconnects. Called with s->mu held. */
static void session_check_timer(dlock_session *s)
{
	if (s->state == SESS_CONNECTING && s->disconnected_at > 0 && s->negotiated_ms > 0 &&
	    dlock_now_ms() - s->disconnected_at >= s->negotiated_ms) {
		s->state = SESS_DEAD;
	}
}

/* Default watcher: session events only. Runs on the completion thread. */
static void session_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	dlock_session *s = (dlock_session *)ctx;
	int connected = 0;

	(void)path;
	if (type != ZOO_SESSION_EVENT || !s) {
		return;
	}
	pthread_mutex_lock(&s->mu);
	if (s->state == SESS_DEAD) {
		/* final, even if the client later reconnects to the same session */
	} else if (state == ZOO_CONNECTED_STATE) {
		const clientid_t *id = zoo_client_id(zh);

		s->state = SESS_CONNECTED;
		s->disconnected_at = 0;
		s->negotiated_ms = zoo_recv_timeout(zh);
		s->session_id = id ? id->client_id : 0;
		connected = 1;
	} else if (state == ZOO_EXPIRED_SESSION_STATE || state == ZOO_AUTH_FAILED_STATE) {
		s->state = SESS_DEAD;
	} else if (s->state == SESS_CONNECTED) {
		s->state = SESS_CONNECTING;
		s->disconnected_at = dlock_now_ms();
	}
	if (connected && s->reaper) {
		dlock_reaper_connected(s->reaper); /* under mu: the close clears it under mu */
	}
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->mu);
}

static void auth_completion(int rc, const void *data)
{
	dlock_session *s = (dlock_session *)data;

	pthread_mutex_lock(&s->mu);
	s->auth_done = 1;
	s->auth_rc = rc;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->mu);
}

static void delete_completion(int rc, const void *data)
{
	delete_op *op = (delete_op *)data;
	dlock_session *s = op->s;

	pthread_mutex_lock(&s->mu);
	if ((rc == ZCONNECTIONLOSS || rc == ZOPERATIONTIMEOUT) && s->reaper) {
		dlock_reaper_add(s->reaper, op->path, NULL); /* retried after the reconnect */
	}
	s->inflight_deletes--;
	pthread_cond_broadcast(&s->cond);
	pthread_mutex_unlock(&s->mu);
	free(op);
}

static void deadline_ts(struct timespec *ts, int64_t deadline_ms)
{
	int64_t now = dlock_now_ms(), rel = DLOCK_WAIT_SLICE_MS;
	struct timespec cur;

	if (deadline_ms >= 0 && deadline_ms - now < rel) {
		rel = deadline_ms - now < 0 ? 0 : deadline_ms - now;
	}
	clock_gettime(CLOCK_MONOTONIC, &cur);
	ts->tv_sec = cur.tv_sec + (time_t)(rel / 1000);
	ts->tv_nsec = cur.tv_nsec + (long)(rel % 1000) * 1000000L;
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

/* Waits for `done(s, arg)` under s->mu; the common loop of every wait.
 * Returns DLOCK_OK when done() held, else the reason it stopped
 * (DLOCK_EFORKED at once in a child of the session's owner, e.g. one an
 * interrupt handler forked mid-wait). */
static int wait_until(dlock_session *s, int (*done)(dlock_session *, void *), void *arg,
                      int64_t deadline_ms, const dlock_interrupt *intr)
{
	struct timespec ts;
	int rc;

	if (s->owner != getpid()) {
		return DLOCK_EFORKED; /* a fork parent's session: never waited on */
	}
	pthread_mutex_lock(&s->mu);
	for (;;) {
		if (done(s, arg)) {
			rc = DLOCK_OK;
			break;
		}
		session_check_timer(s);
		if (s->state == SESS_DEAD) {
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
			stop = intr->fn(intr->arg); /* always returns (see dlock_interrupt_fn) */
			if (s->owner != getpid()) {
				/* a handler forked: this child has none of the session's
				 * threads, nothing it waits for can come */
				return DLOCK_EFORKED;
			}
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

static int is_authed(dlock_session *s, void *arg)
{
	(void)arg;
	return s->auth_done;
}

typedef struct watch_set {
	dlock_watch *const *w; /* the waiter's watches */
	const uint64_t *mark;  /* fired counts when armed */
	size_t n;              /* how many */
	size_t which;          /* the first that fired */
} watch_set;

static int has_fired(dlock_session *s, void *arg)
{
	watch_set *ws = arg;
	size_t i;

	(void)s;
	for (i = 0; i < ws->n; i++) {
		if (ws->w[i]->fired != ws->mark[i]) {
			ws->which = i;
			return 1;
		}
	}
	return 0;
}

static int session_authenticate(dlock_session *s, int64_t deadline, const dlock_interrupt *intr,
                                dlock_err *err)
{
	int zrc = zoo_add_auth(s->zh, "digest", s->auth, (int)strlen(s->auth), auth_completion, s);
	int rc;

	if (zrc != ZOK) {
		return dlock_err_set(err, DLOCK_EAUTH, zrc, "cannot send credentials: %s", zerror(zrc));
	}
	rc = wait_until(s, is_authed, NULL, deadline, intr);
	if (rc == DLOCK_EINTR) {
		return dlock_err_set(err, rc, 0, "interrupted while authenticating");
	}
	if (rc != DLOCK_OK) {
		return dlock_err_set(err, DLOCK_ECONNECT, ZCONNECTIONLOSS,
		                     "no answer to the credentials within the connect timeout");
	}
	if (s->auth_rc != ZOK) {
		return dlock_err_set(err, DLOCK_EAUTH, s->auth_rc, "the server refused the credentials: %s",
		                     zerror(s->auth_rc));
	}
	return DLOCK_OK;
}

/* Waits for the first CONNECTED. When it has not come with half the connect
 * timeout (at most 1 s) left, asks the servers why (dlock_zk_probe), then
 * waits out the rest: a refusal that a slot freed meanwhile ends in a
 * connection after all. Returns what the wait did, or DLOCK_ECONNECT with
 * the reason in err. */
static int session_wait_or_explain(dlock_session *s, const dlock_session_cfg *cfg, int64_t deadline,
                                   const dlock_interrupt *intr, dlock_err *err)
{
	int64_t budget = cfg->connect_timeout_ms / 2 < 1000 ? cfg->connect_timeout_ms / 2 : 1000;
	dlock_zk_probe_result why;
	char where[300] = "";
	int rc = dlock_session_wait_connected(s, deadline - budget, intr);

	if (rc != DLOCK_ETIMEDOUT && rc != DLOCK_ESESSION) {
		return rc;
	}
	why = dlock_zk_probe(s->hosts, budget - budget / 8, where, sizeof(where));
	rc = dlock_session_wait_connected(s, deadline, intr);
	if (rc != DLOCK_ETIMEDOUT && rc != DLOCK_ESESSION) {
		return rc;
	}
	if (why == DLOCK_ZK_PROBE_REFUSED) { /* err->msg holds 255 characters */
		return dlock_err_set(err, DLOCK_ECONNECT, ZCONNECTIONLOSS,
		                     "ZooKeeper at %.64s closed every connection at once for %lld ms: over "
		                     "its connection limit (maxClientCnxns, default 60 per client "
		                     "address); raise it or keep fewer sessions (dlock.idle_close)",
		                     where, (long long)cfg->connect_timeout_ms);
	}
	return dlock_err_set(err, DLOCK_ECONNECT, ZCONNECTIONLOSS,
	                     "could not connect to ZooKeeper at \"%.96s\" within %lld ms%s", s->hosts,
	                     (long long)cfg->connect_timeout_ms,
	                     why == DLOCK_ZK_PROBE_DOWN ? ": nothing listens there"
	                     : why == DLOCK_ZK_PROBE_SILENT
	                         ? ": the server takes TCP connections but no session came "
	                           "(overloaded, or a queue of connections over maxClientCnxns)"
	                         : "");
}

int dlock_session_open(const dlock_session_cfg *cfg, const dlock_interrupt *intr,
                       dlock_session **out, dlock_err *err)
{
	pthread_condattr_t ca;
	dlock_session *s;
	sigset_t all, old;
	int64_t deadline = dlock_now_ms() + cfg->connect_timeout_ms;
	int rc, e;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s || !(s->hosts = strdup(cfg->hosts)) ||
	    (cfg->auth && *cfg->auth && !(s->auth = strdup(cfg->auth)))) {
		if (s) {
			free(s->hosts);
		}
		free(s);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	s->timeout_cfg = cfg->session_timeout_ms;
	s->connect_timeout_ms = cfg->connect_timeout_ms;
	s->owner = getpid();
	s->refs = 1;
	s->acl_entries[0].perms = ZOO_PERM_ALL;
	s->acl_entries[0].id.scheme = (char *)"auth";
	s->acl_entries[0].id.id = (char *)"";
	s->acl_entries[1].perms = ZOO_PERM_READ;
	s->acl_entries[1].id.scheme = (char *)"world";
	s->acl_entries[1].id.id = (char *)"anyone";
	s->acl.count = 2;
	s->acl.data = s->acl_entries;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_mutex_init(&s->mu, NULL);

	/* the client's two threads inherit this mask: they never take our signals */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	errno = 0;
	s->zh = zookeeper_init(s->hosts, session_watcher, cfg->session_timeout_ms, NULL, s, 0);
	e = errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->zh) {
		/* the client resolves every host here: unresolvable ones fail now */
		rc = dlock_err_set(err, e == ENOMEM ? DLOCK_ENOMEM : DLOCK_ECONNECT, 0,
		                   "cannot connect to ZooKeeper at \"%.128s\": %s", s->hosts,
		                   e == ENOMEM ? "out of memory" : "no server address could be resolved");
		goto fail;
	}
	/* By default the client resolves the host names again every time it
	 * polls, in its I/O thread: a fork() that lands inside that
	 * getaddrinfo() leaves glibc's resolver lock held in the child, whose
	 * first getaddrinfo() (its own new session) then hangs for ever. Resolve
	 * only on connection loss. */
	zoo_set_servers_resolution_delay(s->zh, -1);
	s->reaper = dlock_reaper_start(s->zh);
	if (!s->reaper) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "cannot start the cleanup thread");
		goto fail;
	}
	rc = session_wait_or_explain(s, cfg, deadline, intr, err);
	if (rc == DLOCK_ECONNECT) {
		goto fail;
	}
	if (rc == DLOCK_EINTR) {
		dlock_err_set(err, rc, 0, "interrupted while connecting");
		goto fail;
	}
	if (s->auth) {
		rc = session_authenticate(s, deadline, intr, err);
		if (rc != DLOCK_OK) {
			goto fail;
		}
	}
	*out = s;
	return DLOCK_OK;
fail:
	dlock_session_unref(s);
	return rc;
}

/* Stops the reaper and closes the handle, once, on the owning thread with no
 * lock held (the close runs pending completions, which take s->mu). The
 * reaper pointer is cleared under s->mu first, so no callback can reach the
 * reaper after it is stopped; the reaper goes before the handle because it
 * may be inside a call on it. */
static void session_close(dlock_session *s)
{
	dlock_reaper *r;

	if (s->closed || s->owner != getpid()) {
		return;
	}
	pthread_mutex_lock(&s->mu);
	r = s->reaper;
	s->reaper = NULL;
	pthread_mutex_unlock(&s->mu);
	dlock_reaper_stop(r);
	s->closed = 1;
	if (s->zh) {
		zookeeper_close(s->zh); /* runs pending completions; none after this */
	}
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
	session_close(s);
	while (s->watches) { /* the close ran every completion: no watcher runs any more */
		dlock_watch *w = s->watches;

		s->watches = w->next;
		free(w);
	}
	pthread_cond_destroy(&s->cond);
	pthread_mutex_destroy(&s->mu);
	free(s->hosts);
	if (s->auth) {
		memset(s->auth, 0, strlen(s->auth));
		free(s->auth);
	}
	free(s);
}

int dlock_session_matches(const dlock_session *s, const dlock_session_cfg *cfg)
{
	const char *a = s->auth ? s->auth : "", *b = cfg->auth ? cfg->auth : "";

	return s->timeout_cfg == cfg->session_timeout_ms && strcmp(s->hosts, cfg->hosts) == 0 &&
	       strcmp(a, b) == 0;
}

zhandle_t *dlock_session_zh(dlock_session *s)
{
	return s->closed ? NULL : s->zh;
}

const struct ACL_vector *dlock_session_acl(dlock_session *s)
{
	return s->auth ? &s->acl : &ZOO_OPEN_ACL_UNSAFE;
}

int64_t dlock_session_connect_timeout(const dlock_session *s)
{
	return s->connect_timeout_ms;
}

const char *dlock_session_chroot(const dlock_session *s)
{
	return strchr(s->hosts, '/');
}

int dlock_session_owned(const dlock_session *s)
{
	return s->owner == getpid();
}

int dlock_session_health(dlock_session *s)
{
	int h;

	if (s->owner != getpid()) {
		return DLOCK_HEALTH_DEAD;
	}
	pthread_mutex_lock(&s->mu);
	session_check_timer(s);
	h = s->state == SESS_CONNECTED    ? DLOCK_HEALTH_ALIVE
	    : s->state == SESS_CONNECTING ? DLOCK_HEALTH_UNCERTAIN
	                                  : DLOCK_HEALTH_DEAD;
	pthread_mutex_unlock(&s->mu);
	if (h == DLOCK_HEALTH_DEAD) {
		/* Closed now, not at the last unref: a session declared dead locally
		 * (disconnected past its timeout) can still be revived by a server
		 * that restarted with fresh timers, and its nodes with it; a closed
		 * handle never reconnects, so the server expires them. */
		session_close(s);
	}
	return h;
}

int64_t dlock_session_id(dlock_session *s)
{
	int64_t id;

	pthread_mutex_lock(&s->mu);
	id = s->session_id;
	pthread_mutex_unlock(&s->mu);
	return id;
}

int dlock_session_wait_connected(dlock_session *s, int64_t deadline_ms, const dlock_interrupt *intr)
{
	return wait_until(s, is_connected, NULL, deadline_ms, intr);
}

int dlock_session_wait_watches(dlock_session *s, dlock_watch *const *w, const uint64_t *mark,
                               size_t n, int64_t deadline_ms, const dlock_interrupt *intr,
                               int *event_type)
{
	watch_set ws = {w, mark, n, 0};
	int rc = wait_until(s, has_fired, &ws, deadline_ms, intr);

	if (rc == DLOCK_OK && event_type) {
		pthread_mutex_lock(&s->mu);
		*event_type = w[ws.which]->type;
		pthread_mutex_unlock(&s->mu);
	}
	return rc;
}

void dlock_session_delete_async(dlock_session *s, const char *path)
{
	size_t len = strlen(path);
	delete_op *op;
	int zrc;

	if (s->closed) {
		return; /* the session is dead: its nodes are gone, or go with it */
	}
	op = malloc(sizeof(*op) + len + 1);
	if (!op) {
		dlock_session_delete_later(s, path, NULL);
		return;
	}
	op->s = s;
	memcpy(op->path, path, len + 1);
	pthread_mutex_lock(&s->mu);
	s->inflight_deletes++;
	pthread_mutex_unlock(&s->mu);
	zrc = zoo_adelete(s->zh, op->path, -1, delete_completion, op);
	if (zrc != ZOK) { /* not even queued: no completion will run */
		pthread_mutex_lock(&s->mu);
		if (s->reaper) {
			dlock_reaper_add(s->reaper, path, NULL);
		}
		s->inflight_deletes--;
		pthread_mutex_unlock(&s->mu);
		free(op);
	}
}

void dlock_session_delete_later(dlock_session *s, const char *path, const char *guid)
{
	pthread_mutex_lock(&s->mu);
	if (s->reaper) { /* none once closed: the nodes went with the session */
		dlock_reaper_add(s->reaper, path, guid);
	}
	pthread_mutex_unlock(&s->mu);
}

int dlock_session_timeout_ms(dlock_session *s)
{
	int ms;

	pthread_mutex_lock(&s->mu);
	ms = s->negotiated_ms > 0 ? s->negotiated_ms : s->timeout_cfg;
	pthread_mutex_unlock(&s->mu);
	return ms;
}

size_t dlock_session_pending_deletes(dlock_session *s)
{
	size_t n;

	pthread_mutex_lock(&s->mu);
	n = s->inflight_deletes + (s->reaper ? dlock_reaper_pending(s->reaper) : 0);
	pthread_mutex_unlock(&s->mu);
	return n;
}

uint64_t dlock_session_notifications(dlock_session *s)
{
	uint64_t n;

	pthread_mutex_lock(&s->mu);
	n = s->notifications;
	pthread_mutex_unlock(&s->mu);
	return n;
}

void dlock_session_lock(dlock_session *s)
{
	pthread_mutex_lock(&s->mu);
}

void dlock_session_unlock(dlock_session *s)
{
	pthread_mutex_unlock(&s->mu);
}

void dlock_session_broadcast(dlock_session *s)
{
	pthread_cond_broadcast(&s->cond);
}

typedef struct cond_arg {
	int (*done)(void *); /* the caller's predicate */
	void *arg;           /* its argument */
} cond_arg;

static int cond_done(dlock_session *s, void *arg)
{
	cond_arg *c = arg;

	(void)s;
	return c->done(c->arg);
}

int dlock_session_wait_for(dlock_session *s, int (*done)(void *arg), void *arg, int64_t deadline_ms,
                           const dlock_interrupt *intr)
{
	cond_arg c = {done, arg};

	return wait_until(s, cond_done, &c, deadline_ms, intr);
}
