/* dlock_redis_watchdog.c: the lease renewal thread (see the header). */
#include "dlock_redis_watchdog.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlock_redis_conn.h"
#include "dlock_redis_script.h"

#define WD_BATCH    64   /* leases renewed by one script call at most */
#define WD_IDLE_MS  1000 /* longest sleep with nothing due */
#define WD_RETRY_MS 250  /* next try after a failed renewal, at most */

typedef struct wd_conn {
	struct wd_conn *next;
	dlock_redis_conn conn;
} wd_conn;

static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wd_cond;
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;
static pthread_t wd_thread;
static int wd_running;             /* the thread exists */
static int wd_stop;                /* asks it to end */
static dlock_redis_lease *wd_list; /* registered leases */
static uint64_t wd_gen;            /* last registration number */
static wd_conn *wd_conns;          /* the thread's connections (only it uses them while running) */

static void wd_free_conns(void)
{
	while (wd_conns) {
		wd_conn *c = wd_conns;

		wd_conns = c->next;
		dlock_redis_conn_clear(&c->conn);
		free(c);
	}
}

static void wd_cond_init(void)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(&wd_cond, &a);
	pthread_condattr_destroy(&a);
}

static void wd_atfork_prepare(void)
{
	pthread_mutex_lock(&wd_mu);
}

static void wd_atfork_parent(void)
{
	pthread_mutex_unlock(&wd_mu);
}

/* The child has no watchdog thread and holds nothing: forget every lease
 * (the parent keeps renewing its own) and the thread's sockets. */
static void wd_atfork_child(void)
{
	dlock_redis_lease *l;

	for (l = wd_list; l; l = l->next) {
		l->registered = 0;
	}
	wd_list = NULL;
	wd_running = 0;
	wd_stop = 0;
	wd_free_conns();
	/* the parent's watchdog may have been waiting on the condition: its
	 * state came along, so the child starts with a fresh one */
	wd_cond_init();
	pthread_mutex_unlock(&wd_mu);
}

static void wd_init(void)
{
	wd_cond_init();
	pthread_atfork(wd_atfork_prepare, wd_atfork_parent, wd_atfork_child);
}

static wd_conn *wd_conn_for(const dlock_target *t)
{
	wd_conn *c;

	for (c = wd_conns; c; c = c->next) {
		if (dlock_redis_conn_matches(&c->conn, t)) {
			return c;
		}
	}
	if (!(c = calloc(1, sizeof(*c))) || dlock_redis_conn_init(&c->conn, t, NULL) != DLOCK_OK) {
		free(c);
		return NULL;
	}
	c->next = wd_conns;
	wd_conns = c;
	return c;
}

/* One renewal round for the due leases of one server; called and returns
 * with wd_mu held, drops it during the call. Returns the number renewed or
 * found lost (0: nothing was due). */
static int wd_round(int64_t now)
{
	dlock_redis_lease *l, *batch[WD_BATCH];
	uint64_t gens[WD_BATCH];
	const char *kv[WD_BATCH * 4];
	char leases[WD_BATCH][24];
	const dlock_target *t = NULL;
	redisReply *r = NULL;
	wd_conn *c;
	int n = 0, n_copied, i, rc;
	int64_t sent, timeout = -1;

	for (l = wd_list; l && n < WD_BATCH; l = l->next) {
		if (l->lost || l->renew_at > now || (l->max_until >= 0 && now >= l->max_until)) {
			continue;
		}
		if (!t) {
			t = l->target;
		} else if (!dlock_target_same_server(t, l->target)) {
			continue; /* another server: its own round */
		}
		batch[n] = l;
		gens[n] = l->gen;
		kv[n] = l->key;
		snprintf(leases[n], sizeof(leases[n]), "%lld", (long long)l->lease_ms);
		if (timeout < 0 || l->lease_ms / 3 < timeout) {
			timeout = l->lease_ms / 3;
		}
		l->renew_at = now + l->lease_ms / 3; /* not picked again while in flight */
		n++;
	}
	if (!n) {
		return 0;
	}
	/* keys and fields are copied while the mutex is held: a lock may be
	 * released and freed while the call is under way */
	for (i = 0; i < n; i++) {
		size_t kl = strlen(batch[i]->key) + 1, fl = strlen(batch[i]->field) + 1;
		char *copy = malloc(kl + fl);

		if (!copy) {
			break;
		}
		memcpy(copy, batch[i]->key, kl);
		memcpy(copy + kl, batch[i]->field, fl);
		kv[i] = copy;
		kv[n + 3 * i] = leases[i];
		kv[n + 3 * i + 1] = copy + kl;
		kv[n + 3 * i + 2] = batch[i]->format[0] ? batch[i]->format : "r";
	}
	c = i == n ? wd_conn_for(t) : NULL;
	n_copied = i;
	pthread_mutex_unlock(&wd_mu);
	sent = dlock_now_ms();
	rc = c ? dlock_redis_script_call(&c->conn, DLOCK_RS_RENEW, n, 3 * n, kv,
	                                 sent + (timeout > 200 ? timeout : 200), NULL, &r, NULL)
	       : DLOCK_ENOMEM;
	pthread_mutex_lock(&wd_mu);
	for (i = 0; i < n; i++) {
		for (l = wd_list; l && !(l == batch[i] && l->gen == gens[i]); l = l->next) {
		}
		if (!l) {
			continue; /* released meanwhile */
		}
		if (rc != DLOCK_OK || r->type != REDIS_REPLY_ARRAY || r->elements != (size_t)n) {
			int64_t retry = l->lease_ms / 10 < WD_RETRY_MS ? l->lease_ms / 10 : WD_RETRY_MS;

			l->renew_at = dlock_now_ms() + retry; /* the certainty lapses on its own */
		} else if (r->element[i]->type == REDIS_REPLY_INTEGER && r->element[i]->integer == 1) {
			int64_t v = sent + l->lease_ms - DLOCK_REDIS_DRIFT(l->lease_ms);

			if (v > l->valid_until) {
				l->valid_until = v;
			}
		} else {
			l->lost = 1;
		}
	}
	if (r) {
		freeReplyObject(r);
	}
	for (i = 0; i < n_copied; i++) {
		free((char *)kv[i]);
	}
	return n;
}

static void *wd_main(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&wd_mu);
	while (!wd_stop) {
		int64_t now = dlock_now_ms(), next = now + WD_IDLE_MS;
		dlock_redis_lease *l;
		struct timespec ts;

		if (wd_round(now) > 0) {
			continue;
		}
		for (l = wd_list; l; l = l->next) {
			if (!l->lost && (l->max_until < 0 || l->renew_at < l->max_until) &&
			    l->renew_at < next) {
				next = l->renew_at;
			}
		}
		if (next <= now) {
			next = now + 1;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (next - now) / 1000;
		ts.tv_nsec += ((next - now) % 1000) * 1000000;
		if (ts.tv_nsec >= 1000000000) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&wd_cond, &wd_mu, &ts);
	}
	pthread_mutex_unlock(&wd_mu);
	return NULL;
}

int dlock_redis_watchdog_register(dlock_redis_lease *l, int64_t sent_at, dlock_err *err)
{
	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	if (!wd_running) {
		sigset_t all, old;
		int rc;

		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits: no signal reaches it */
		wd_stop = 0;
		rc = pthread_create(&wd_thread, NULL, wd_main, NULL);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (rc != 0) {
			pthread_mutex_unlock(&wd_mu);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "cannot start the lease watchdog thread");
		}
		wd_running = 1;
	}
	l->valid_until = sent_at + l->lease_ms - DLOCK_REDIS_DRIFT(l->lease_ms);
	l->renew_at = sent_at + l->lease_ms / 3;
	l->lost = 0;
	l->gen = ++wd_gen;
	l->registered = 1;
	l->next = wd_list;
	wd_list = l;
	pthread_cond_signal(&wd_cond);
	pthread_mutex_unlock(&wd_mu);
	return DLOCK_OK;
}

void dlock_redis_watchdog_unregister(dlock_redis_lease *l)
{
	dlock_redis_lease **p;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	if (l->registered) {
		for (p = &wd_list; *p; p = &(*p)->next) {
			if (*p == l) {
				*p = l->next;
				break;
			}
		}
		l->registered = 0;
	}
	pthread_mutex_unlock(&wd_mu);
}

int dlock_redis_watchdog_valid(dlock_redis_lease *l)
{
	int ok;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	ok = l->registered && !l->lost && dlock_now_ms() < l->valid_until;
	pthread_mutex_unlock(&wd_mu);
	return ok;
}

int64_t dlock_redis_watchdog_until(dlock_redis_lease *l)
{
	int64_t until;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	until = l->registered && !l->lost ? l->valid_until : 0;
	pthread_mutex_unlock(&wd_mu);
	return until;
}

void dlock_redis_watchdog_confirm(dlock_redis_lease *l, int64_t sent_at, int held)
{
	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	if (l->registered) {
		if (!held) {
			l->lost = 1;
		} else if (!l->lost &&
		           sent_at + l->lease_ms - DLOCK_REDIS_DRIFT(l->lease_ms) > l->valid_until) {
			l->valid_until = sent_at + l->lease_ms - DLOCK_REDIS_DRIFT(l->lease_ms);
		}
	}
	pthread_mutex_unlock(&wd_mu);
}

void dlock_redis_watchdog_stop(int force)
{
	pthread_t t;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	if (force) {
		dlock_redis_lease *l;

		for (l = wd_list; l; l = l->next) {
			l->registered = 0;
		}
		wd_list = NULL;
	}
	if (!wd_running || wd_list) {
		pthread_mutex_unlock(&wd_mu);
		return;
	}
	wd_stop = 1;
	t = wd_thread;
	pthread_cond_signal(&wd_cond);
	pthread_mutex_unlock(&wd_mu);
	pthread_join(t, NULL);
	pthread_mutex_lock(&wd_mu);
	wd_running = 0;
	wd_stop = 0;
	wd_free_conns();
	pthread_mutex_unlock(&wd_mu);
}

unsigned dlock_redis_watchdog_connections(void)
{
	unsigned n = 0;
	wd_conn *c;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	for (c = wd_conns; c; c = c->next) {
		n += c->conn.ctx != NULL;
	}
	pthread_mutex_unlock(&wd_mu);
	return n;
}
