/* dlock_redis_revoke.c: revocation on Redis (see the header). A subscriber
 * (struct rv_sub) is a thread with its own connection, one per server, user
 * and database, alive while some revocable hold of this process on that
 * server is registered (struct rv_entry) and stopped at request end when none
 * is. The thread only reads pushes and, for a message whose channel and
 * field match a registration, raises its cell (atomics; see
 * core/dlock_revoke.c): it never calls into PHP. A broken subscription is
 * renewed after RV_RETRY_MS; a request published while it was down is not
 * delivered (Redis keeps no message for an absent subscriber): the holder
 * does not learn of it, and keeps the lock. Fork: the child forgets every
 * subscriber and registration (its threads did not survive the fork) and
 * closes its copies of their sockets. */
#include "dlock_redis_revoke.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dlock_redis_conn.h"
#include "dlock_redis_lock.h"
#include "dlock_redis_pool.h"

#define RV_PREFIX     "dlock_revoke__channel:"
#define RV_PATTERN    RV_PREFIX "*"
#define RV_RETRY_MS   250          /* between subscription attempts */
#define RV_STACK_SIZE (256 * 1024) /* a thread's stack: hiredis only */

/* One revocable hold (or attempt) of this process. */
typedef struct rv_entry {
	struct rv_entry *next;
	const void *owner;  /* the lock object's state */
	char *channel;      /* its lock's channel (owned) */
	char *field;        /* the hold's field (owned) */
	dlock_revoke *cell; /* reference */
	struct rv_sub *sub; /* the subscriber it relies on */
} rv_entry;

/* One subscriber thread and its connection. */
typedef struct rv_sub {
	struct rv_sub *next;
	dlock_redis_conn conn; /* the thread's; cfg is the subscriber's key */
	pthread_t thread;      /* joined by dlock_redis_revoke_stop */
	int stop;              /* asks the thread to end (atomic) */
	int ready;             /* subscribed now (rv_mu) */
	int sock_fd;           /* the subscribed socket's fd, -1: none yet (atomic) */
	long sock_ino;         /* and its inode: a fork child closes that fd only if it matches */
	char refused[100];     /* the server's NOPERM to PSUBSCRIBE; set: no retry (rv_mu) */
} rv_sub;

static pthread_mutex_t rv_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t rv_cond = PTHREAD_COND_INITIALIZER; /* a subscription's state changed */
static pthread_once_t rv_once = PTHREAD_ONCE_INIT;
static rv_entry *rv_entries; /* rv_mu */
static rv_sub *rv_subs;      /* rv_mu */

static void rv_atfork_prepare(void)
{
	pthread_mutex_lock(&rv_mu);
}

static void rv_atfork_parent(void)
{
	pthread_mutex_unlock(&rv_mu);
}

/* Closes the child's copy of s's subscribed socket (no traffic: the parent's
 * connection is unaffected; without this the server keeps queueing every
 * request into it while the child lives). Only the fd the thread recorded
 * and only if it is still that socket (same inode): the thread may have
 * replaced it just before the fork. */
static void rv_close_inherited(const rv_sub *s)
{
	int fd = __atomic_load_n(&s->sock_fd, __ATOMIC_ACQUIRE);
	long ino = __atomic_load_n(&s->sock_ino, __ATOMIC_ACQUIRE);
	struct stat st;

	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) && (long)st.st_ino == ino) {
		close(fd);
	}
}

/* The child has no subscriber threads: it closes its copies of their
 * sockets (the hiredis contexts are the parent's, left alone); the
 * registrations are the parent's holds. */
static void rv_atfork_child(void)
{
	while (rv_subs) {
		rv_sub *s = rv_subs;

		rv_subs = s->next;
		rv_close_inherited(s);
		free(s);
	}
	while (rv_entries) {
		rv_entry *e = rv_entries;

		rv_entries = e->next;
		dlock_revoke_put(e->cell);
		free(e->channel);
		free(e->field);
		free(e);
	}
	pthread_mutex_unlock(&rv_mu);
	pthread_mutex_init(&rv_mu, NULL);
	pthread_cond_init(&rv_cond, NULL);
}

static void rv_init(void)
{
	pthread_atfork(rv_atfork_prepare, rv_atfork_parent, rv_atfork_child);
}

char *dlock_redis_revoke_channel(const char *name)
{
	return dlock_redis_key(RV_PREFIX, name, "");
}

static int rv_stopping(void *arg)
{
	rv_sub *s = arg;

	return __atomic_load_n(&s->stop, __ATOMIC_ACQUIRE);
}

static void rv_set_ready(rv_sub *s, int ready)
{
	pthread_mutex_lock(&rv_mu);
	s->ready = ready;
	pthread_cond_broadcast(&rv_cond);
	pthread_mutex_unlock(&rv_mu);
}

/* A pushed message: raises the cell of every registration it names. */
static void rv_deliver(const redisReply *r)
{
	const redisReply *ch, *msg;
	rv_entry *e;

	if (r->type != REDIS_REPLY_ARRAY || r->elements != 4 ||
	    r->element[0]->type != REDIS_REPLY_STRING || strcmp(r->element[0]->str, "pmessage") != 0) {
		return;
	}
	ch = r->element[2];
	msg = r->element[3];
	if (ch->type != REDIS_REPLY_STRING || msg->type != REDIS_REPLY_STRING) {
		return;
	}
	pthread_mutex_lock(&rv_mu);
	for (e = rv_entries; e; e = e->next) {
		if (strlen(e->channel) == ch->len && memcmp(e->channel, ch->str, ch->len) == 0 &&
		    strlen(e->field) == msg->len && memcmp(e->field, msg->str, msg->len) == 0) {
			dlock_revoke_raise(e->cell);
		}
	}
	pthread_mutex_unlock(&rv_mu);
}

/* Waits ms before a reconnect, or less when the thread is told to stop
 * (dlock_redis_revoke_stop broadcasts rv_cond): a wait on the condition,
 * not a polling loop. */
static void rv_pause(rv_sub *s, int64_t ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)(ms / 1000);
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&rv_mu);
	while (!rv_stopping(s) && pthread_cond_timedwait(&rv_cond, &rv_mu, &ts) != ETIMEDOUT) {
	}
	pthread_mutex_unlock(&rv_mu);
}

/* Records the subscribed socket for a fork child (rv_close_inherited). */
static void rv_record_socket(rv_sub *s)
{
	struct stat st;

	__atomic_store_n(&s->sock_fd, -1, __ATOMIC_RELEASE);
	if (s->conn.ctx && fstat(s->conn.ctx->fd, &st) == 0) {
		__atomic_store_n(&s->sock_ino, (long)st.st_ino, __ATOMIC_RELEASE);
		__atomic_store_n(&s->sock_fd, s->conn.ctx->fd, __ATOMIC_RELEASE);
	}
}

/* The server refused the subscription for want of a right (an ACL user
 * without the channel): waiting or retrying cannot help. Records why (the
 * acquires that wait for this subscriber fail at once) and returns once
 * the subscriber is stopped (request end when no hold needs it). */
static void rv_refused(rv_sub *s, const redisReply *r)
{
	pthread_mutex_lock(&rv_mu);
	snprintf(s->refused, sizeof(s->refused), "%.*s", (int)(r->len < 99 ? r->len : 99), r->str);
	pthread_cond_broadcast(&rv_cond);
	pthread_mutex_unlock(&rv_mu);
	dlock_redis_conn_drop(&s->conn);
	while (!rv_stopping(s)) {
		rv_pause(s, RV_RETRY_MS);
	}
}

static void *rv_main(void *arg)
{
	rv_sub *s = arg;
	dlock_interrupt intr = {rv_stopping, s};
	const char *argv[2] = {"PSUBSCRIBE", RV_PATTERN};

	while (!rv_stopping(s)) {
		redisReply *r = NULL;
		dlock_err err;
		int rc;

		if (!s->conn.ctx) {
			rc = dlock_redis_conn_call(&s->conn, 2, argv, NULL,
			                           dlock_now_ms() + s->conn.cfg.connect_timeout_ms, &intr, &r,
			                           &err);
			if (rc == DLOCK_OK && r->type == REDIS_REPLY_ARRAY) {
				rv_record_socket(s);
				rv_set_ready(s, 1);
			} else if (rc == DLOCK_OK && r->type == REDIS_REPLY_ERROR &&
			           strncmp(r->str, "NOPERM", 6) == 0) {
				rv_refused(s, r);
			} else {
				dlock_redis_conn_drop(&s->conn);
				rv_set_ready(s, 0);
				rv_pause(s, RV_RETRY_MS);
			}
		} else if (dlock_redis_conn_next(&s->conn, &intr, &r, &err) == DLOCK_OK) {
			rv_deliver(r);
		} else {
			rv_set_ready(s, 0); /* dropped: subscribe again */
		}
		if (r) {
			freeReplyObject(r);
		}
	}
	return NULL;
}

/* The subscriber for t in *out, started when missing. Called with rv_mu
 * held. Returns DLOCK_OK or DLOCK_ENOMEM. */
static int rv_sub_get(const dlock_target *t, rv_sub **out, dlock_err *err)
{
	pthread_attr_t ta;
	sigset_t all, old;
	rv_sub *s;
	int rc;

	for (s = rv_subs; s; s = s->next) {
		if (dlock_redis_conn_matches(&s->conn, t)) {
			*out = s;
			return DLOCK_OK;
		}
	}
	if (!(s = calloc(1, sizeof(*s)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	s->sock_fd = -1;
	if ((rc = dlock_redis_conn_init(&s->conn, t, err)) != DLOCK_OK) {
		free(s);
		return rc;
	}
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, RV_STACK_SIZE);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits: no signal reaches it */
	rc = pthread_create(&s->thread, &ta, rv_main, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (rc != 0) {
		dlock_redis_conn_clear(&s->conn);
		free(s);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "cannot start the revocation subscriber thread");
	}
	s->next = rv_subs;
	rv_subs = s;
	*out = s;
	return DLOCK_OK;
}

/* Unlinks owner's registration. Called with rv_mu held; returns it or NULL. */
static rv_entry *rv_unlink(const void *owner)
{
	rv_entry **p;

	for (p = &rv_entries; *p; p = &(*p)->next) {
		if ((*p)->owner == owner) {
			rv_entry *e = *p;

			*p = e->next;
			return e;
		}
	}
	return NULL;
}

static void rv_entry_free(rv_entry *e)
{
	if (e) {
		dlock_revoke_put(e->cell);
		free(e->channel);
		free(e->field);
		free(e);
	}
}

int dlock_redis_revoke_watch(const void *owner, const dlock_target *t, const char *name,
                             const char *field, dlock_revoke *cell, int64_t deadline,
                             dlock_err *err)
{
	rv_entry *e = calloc(1, sizeof(*e)), *old;
	rv_sub *s = NULL;
	int rc = DLOCK_OK;

	pthread_once(&rv_once, rv_init);
	if (!e || !(e->channel = dlock_redis_revoke_channel(name)) || !(e->field = strdup(field))) {
		if (e) {
			free(e->channel);
			free(e);
		}
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	e->owner = owner;
	dlock_revoke_ref(cell);
	e->cell = cell;
	pthread_mutex_lock(&rv_mu);
	old = rv_unlink(owner);
	if ((rc = rv_sub_get(t, &s, err)) != DLOCK_OK) {
		goto done;
	}
	e->sub = s;
	while (!s->ready && !s->refused[0] && dlock_now_ms() < deadline) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 10 * 1000 * 1000;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&rv_cond, &rv_mu, &ts);
	}
	if (s->refused[0]) {
		rc = dlock_err_set(err, DLOCK_ESERVER, 0,
		                   "%s: a revocable lock needs the ACL right to the channels '&" RV_PATTERN
		                   "' (resetchannels takes it away); PSUBSCRIBE: %s",
		                   s->conn.where, s->refused);
		goto done;
	}
	if (!s->ready) {
		rc = dlock_err_set(err, DLOCK_ECONNECT, 0,
		                   "%s: cannot subscribe to revocation requests within connect_timeout",
		                   s->conn.where);
		goto done;
	}
	e->next = rv_entries;
	rv_entries = e;
	e = NULL;
done:
	pthread_mutex_unlock(&rv_mu);
	rv_entry_free(e);
	rv_entry_free(old);
	return rc;
}

void dlock_redis_revoke_unwatch(const void *owner)
{
	rv_entry *e;

	pthread_once(&rv_once, rv_init);
	pthread_mutex_lock(&rv_mu);
	e = rv_unlink(owner);
	pthread_mutex_unlock(&rv_mu);
	rv_entry_free(e);
}

int dlock_redis_revoke_publish(const dlock_target *t, const char *name, const dlock_participant *p,
                               size_t count, const dlock_interrupt *intr, int *asked,
                               dlock_err *err)
{
	dlock_redis_conn *c = NULL;
	char *channel = NULL;
	size_t i;
	int rc;

	*asked = 0;
	if (!(channel = dlock_redis_revoke_channel(name))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if ((rc = dlock_redis_pool_get(t, &c, err)) != DLOCK_OK) {
		free(channel);
		return rc;
	}
	for (i = 0; i < count && rc == DLOCK_OK; i++) {
		const char *argv[3] = {"PUBLISH", channel, p[i].name};
		redisReply *r = NULL;

		if (!p[i].holder) {
			continue;
		}
		rc = dlock_redis_conn_call(c, 3, argv, NULL, dlock_now_ms() + t->connect_timeout_ms, intr,
		                           &r, err);
		if (rc == DLOCK_OK) {
			if (r->type == REDIS_REPLY_ERROR) {
				rc = dlock_err_set(err, DLOCK_ESERVER, 0, "PUBLISH: %.200s", r->str);
			} else {
				(*asked)++;
			}
			freeReplyObject(r);
		}
	}
	dlock_redis_pool_put(c);
	free(channel);
	return rc;
}

void dlock_redis_revoke_stop(int force)
{
	rv_sub *stopped = NULL, **p;
	rv_entry *e;

	pthread_once(&rv_once, rv_init);
	pthread_mutex_lock(&rv_mu);
	for (p = &rv_subs; *p;) {
		rv_sub *s = *p;
		int used = 0;

		for (e = rv_entries; e && !used; e = e->next) {
			used = e->sub == s;
		}
		if (used && !force) {
			p = &s->next;
			continue;
		}
		*p = s->next;
		__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
		s->next = stopped;
		stopped = s;
	}
	if (force) {
		while (rv_entries) {
			e = rv_entries;
			rv_entries = e->next;
			rv_entry_free(e);
		}
	}
	pthread_cond_broadcast(&rv_cond); /* wakes a stopped thread out of rv_pause */
	pthread_mutex_unlock(&rv_mu);
	while (stopped) { /* joined without rv_mu: the thread may be waiting for it */
		rv_sub *s = stopped;

		stopped = s->next;
		pthread_join(s->thread, NULL);
		dlock_redis_conn_clear(&s->conn);
		free(s);
	}
}

unsigned dlock_redis_revoke_connections(void)
{
	unsigned n = 0;
	rv_sub *s;

	pthread_once(&rv_once, rv_init);
	pthread_mutex_lock(&rv_mu);
	for (s = rv_subs; s; s = s->next) {
		n += s->conn.ctx != NULL;
	}
	pthread_mutex_unlock(&rv_mu);
	return n;
}
