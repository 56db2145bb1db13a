/* dlock_redis_watchdog.c: the lease renewal threads, one per group of leases
 * sent as the same user to the same server and database (see the header).
 *
 * Sentinel. A demoted master accepts writes for seconds after a graceful
 * fail-over, and ROLE says "master" there until Sentinel converts it, so a
 * renewal there proves nothing. Each round on a Sentinel target therefore
 * asks the sentinels first (at S, its send time), renews only on the master
 * they name (the socket is closed and reopened otherwise, with a ROLE check),
 * and dates the certainty it earns from S. When they name another master
 * than at the group's previous round, every lease of the group loses its
 * certainty at once and is renewed on the new master right away: found there
 * it is held again (the promoted replica had it), else it is lost.
 *
 * The window that remains. Replication is asynchronous and a renewal is not
 * WAITed: the promoted replica may lack the renewal of the round before the
 * promotion, and Sentinel names the new master up to about a second after
 * promoting it (it learns of it from the replica's INFO), so the new master's
 * copy can expire about lease/3 (plus that second) before the certainty the
 * old master's renewal gave. Another process is granted the lock there only
 * after that copy expired, which is at least 2/3 of a lease after the last
 * renewal it has; our next round starts lease/3 after the last one and, if
 * the sentinels already name the new master, voids the certainty first. A
 * second holder while we still report the lock held therefore needs that
 * round to come late: the thread stalled, no sentinel reachable (a failed
 * lookup renews nothing and the certainty lapses on its own, as late as
 * S + lease), or lease/3 shorter than Sentinel's switch. Even then the
 * second holder's fencing token is the higher one. */
#include "dlock_redis_watchdog.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dlock_redis_conn.h"
#include "dlock_redis_pool.h"
#include "dlock_redis_script.h"

#define WD_BATCH      64           /* leases renewed by one script call at most */
#define WD_IDLE_MS    1000         /* longest sleep with leases but nothing due */
#define WD_RETRY_MS   250          /* next try after a failed renewal, at most */
#define WD_STACK_SIZE (256 * 1024) /* a thread's stack: hiredis and one batch */

/* The leases renewed as one user of one server and database; the thread, its
 * connection and its list are the group's. */
typedef struct dlock_redis_wd_group {
	struct dlock_redis_wd_group *next; /* in wd_groups */
	dlock_redis_conn conn;             /* its connection; cfg is the group's key */
	dlock_redis_lease *leases;         /* registered leases (wd_mu) */
	pthread_cond_t cond;               /* wakes the thread: a new lease, stop */
	pthread_t thread;                  /* joined by dlock_redis_watchdog_stop */
	int stop;                          /* asks the thread to end (atomic: read unlocked) */
	int in_call;                       /* the thread uses conn outside wd_mu (wd_mu) */
	int connected;                     /* conn has a socket (wd_mu) */
	int64_t wake_at;                   /* the thread sleeps until then (INT64_MAX: until signalled;
	                                      0: awake, it looks at the leases before it sleeps) (wd_mu) */
	char master[280];                  /* Sentinel: "host:port" last named, "" before (thread) */
} wd_group;

static pthread_mutex_t wd_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;
static wd_group *wd_groups; /* every group with a running thread (wd_mu) */
static uint64_t wd_gen;     /* last registration number (wd_mu) */

static void wd_atfork_prepare(void)
{
	pthread_mutex_lock(&wd_mu);
}

static void wd_atfork_parent(void)
{
	pthread_mutex_unlock(&wd_mu);
}

/* The child has no watchdog threads and holds nothing: forget every lease
 * (the parent keeps renewing its own), every group and its socket. A
 * connection the parent's thread was using at the fork may be half-way
 * through a call: it is left alone (leaked in the child), never freed. */
static void wd_atfork_child(void)
{
	while (wd_groups) {
		wd_group *g = wd_groups;
		dlock_redis_lease *l;

		wd_groups = g->next;
		for (l = g->leases; l; l = l->next) {
			l->registered = 0;
			l->group = NULL;
		}
		if (g->in_call) {
			dlock_target_clear(&g->conn.cfg);
		} else {
			dlock_redis_conn_clear(&g->conn);
		}
		free(g); /* its condition may have had the parent's waiter: not destroyed */
	}
	pthread_mutex_unlock(&wd_mu);
}

static void wd_init(void)
{
	pthread_atfork(wd_atfork_prepare, wd_atfork_parent, wd_atfork_child);
}

/* The interrupt hook of a renewal: the group is asked to stop. */
static int wd_stopping(void *arg)
{
	wd_group *g = arg;

	return __atomic_load_n(&g->stop, __ATOMIC_ACQUIRE);
}

#define WD_MOVED 1000 /* wd_follow: the sentinels name another master than before */

/* Before a renewal on a Sentinel target (any other: DLOCK_OK at once): asks
 * the sentinels which master they name and closes g's socket when it is to
 * another one, so the renewal goes to that master (reconnect, ROLE check) and
 * never to a demoted master, which accepts writes until Sentinel converts it
 * (seconds later). Runs without wd_mu, on g's thread. Returns DLOCK_OK,
 * WD_MOVED (the master changed since the last answer: the caller voids the
 * group's certainty) or the lookup's error (no renewal this round). */
static int wd_follow(wd_group *g, int64_t limit)
{
	char host[256], now[sizeof(g->master)];
	int port = 0, rc;

	if (!g->conn.cfg.sentinels) {
		return DLOCK_OK;
	}
	if ((rc = dlock_redis_sentinel_follow(&g->conn, limit, host, sizeof(host), &port, NULL)) !=
	    DLOCK_OK) {
		return rc;
	}
	snprintf(now, sizeof(now), "%s:%d", host, port);
	rc = g->master[0] && strcmp(g->master, now) != 0 ? WD_MOVED : DLOCK_OK;
	memcpy(g->master, now, sizeof(now));
	if (rc == WD_MOVED) {
		dlock_redis_conn_drop(&g->conn);
	}
	return rc;
}

/* One renewal round for the due leases of g; called and returns with wd_mu
 * held, drops it during the call. Returns the number renewed or found lost
 * (0: nothing was due). */
static int wd_round(wd_group *g, int64_t now)
{
	dlock_redis_lease *l, *batch[WD_BATCH];
	uint64_t gens[WD_BATCH];
	int wants[WD_BATCH], need = 0;
	long long acked = 0;
	const char *kv[WD_BATCH * 4];
	char leases[WD_BATCH][24];
	redisReply *r = NULL;
	dlock_interrupt intr = {wd_stopping, g};
	int n = 0, n_copied, i, rc;
	int64_t sent, timeout = -1;

	for (l = g->leases; l && n < WD_BATCH; l = l->next) {
		if (l->lost || l->renew_at > now || (l->max_until >= 0 && now >= l->max_until)) {
			continue;
		}
		batch[n] = l;
		gens[n] = l->gen;
		wants[n] = l->wait_replicas;
		need = l->wait_replicas > need ? l->wait_replicas : need;
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
	/* a reply is awaited no longer than connect_timeout either: a dead
	 * connection is replaced in time for another try within the lease */
	if (g->conn.cfg.connect_timeout_ms < timeout) {
		timeout = g->conn.cfg.connect_timeout_ms;
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
	n_copied = i;
	g->in_call = 1;
	pthread_mutex_unlock(&wd_mu);
	sent = dlock_now_ms();
	rc = n_copied == n ? wd_follow(g, sent + (timeout > 200 ? timeout : 200)) : DLOCK_ENOMEM;
	if (rc == WD_MOVED) {
		/* a fail-over: nothing renewed before it counts any longer (those
		 * renewals may have gone to a master that was no longer the
		 * sentinels' one); every hold of the group is uncertain until a
		 * renewal on the new master finds it, which starts now */
		pthread_mutex_lock(&wd_mu);
		for (l = g->leases; l; l = l->next) {
			if (l->valid_until > sent) {
				l->valid_until = sent;
			}
			l->renew_at = sent;
		}
		pthread_mutex_unlock(&wd_mu);
		rc = DLOCK_OK;
	}
	rc = rc == DLOCK_OK
	         ? dlock_redis_script_call(&g->conn, DLOCK_RS_RENEW, n, 3 * n, kv,
	                                   sent + (timeout > 200 ? timeout : 200), &intr, &r, NULL)
	         : rc;
	if (rc == DLOCK_OK && need > 0 && r->type == REDIS_REPLY_ARRAY) {
		/* the renewals count only as far as the replicas have them: a
		 * replica promoted while replication lags must not hold an older
		 * expiry than the one we trust (review: a lag past the lease, then
		 * a master crash, gave a second holder while this one said held) */
		char nb[16], ms[24];
		const char *wv[3] = {"WAIT", nb, ms};
		redisReply *w = NULL;
		int64_t wait = timeout > 1 ? timeout : 1;

		snprintf(nb, sizeof(nb), "%d", need);
		snprintf(ms, sizeof(ms), "%lld", (long long)wait);
		if (dlock_redis_conn_call(&g->conn, 3, wv, NULL, dlock_now_ms() + wait + 200, &intr, &w,
		                          NULL) == DLOCK_OK &&
		    w->type == REDIS_REPLY_INTEGER) {
			acked = w->integer;
		}
		if (w) {
			freeReplyObject(w);
		}
	}
	pthread_mutex_lock(&wd_mu);
	g->in_call = 0;
	g->connected = g->conn.ctx != NULL;
	for (i = 0; i < n; i++) {
		for (l = g->leases; l && !(l == batch[i] && l->gen == gens[i]); l = l->next) {
		}
		if (!l) {
			continue; /* released meanwhile */
		}
		if (rc != DLOCK_OK || r->type != REDIS_REPLY_ARRAY || r->elements != (size_t)n) {
			int64_t retry = l->lease_ms / 10 < WD_RETRY_MS ? l->lease_ms / 10 : WD_RETRY_MS;

			l->renew_at = dlock_now_ms() + retry; /* the certainty lapses on its own */
		} else if (r->element[i]->type == REDIS_REPLY_INTEGER && r->element[i]->integer == 1 &&
		           wants[i] > acked) {
			int64_t retry = l->lease_ms / 10 < WD_RETRY_MS ? l->lease_ms / 10 : WD_RETRY_MS;

			l->renew_at = dlock_now_ms() + retry; /* renewed, not replicated: not counted */
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

/* Sleeps on g's condition until abs_ms (< 0: until signalled); wd_mu held.
 * g->wake_at says until when while it sleeps, so that a new lease due later
 * need not wake it (dlock_redis_watchdog_register). */
static void wd_sleep(wd_group *g, int64_t now, int64_t until)
{
	struct timespec ts;

	if (until < 0) {
		g->wake_at = INT64_MAX;
		pthread_cond_wait(&g->cond, &wd_mu);
		g->wake_at = 0;
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (until - now) / 1000;
	ts.tv_nsec += ((until - now) % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	g->wake_at = until;
	pthread_cond_timedwait(&g->cond, &wd_mu, &ts);
	g->wake_at = 0;
}

static void *wd_main(void *arg)
{
	wd_group *g = arg;

	pthread_mutex_lock(&wd_mu);
	while (!__atomic_load_n(&g->stop, __ATOMIC_ACQUIRE)) {
		int64_t now = dlock_now_ms(), next = now + WD_IDLE_MS;
		dlock_redis_lease *l;

		if (wd_round(g, now) > 0) {
			continue;
		}
		for (l = g->leases; l; l = l->next) {
			if (!l->lost && (l->max_until < 0 || l->renew_at < l->max_until) &&
			    l->renew_at < next) {
				next = l->renew_at;
			}
		}
		if (next <= now) {
			next = now + 1;
		}
		wd_sleep(g, now, g->leases ? next : -1); /* no lease: until one comes */
	}
	pthread_mutex_unlock(&wd_mu);
	return NULL;
}

/* The group that renews leases of t, made and started if needed; wd_mu held.
 * NULL when it cannot be made. */
static wd_group *wd_group_for(const dlock_target *t, dlock_err *err)
{
	pthread_condattr_t ca;
	pthread_attr_t ta;
	sigset_t all, old;
	wd_group *g;
	int rc;

	for (g = wd_groups; g; g = g->next) {
		/* matches: same server, database, user and password */
		if (dlock_redis_conn_matches(&g->conn, t) &&
		    g->conn.cfg.connect_timeout_ms == t->connect_timeout_ms) {
			return g;
		}
	}
	if (!(g = calloc(1, sizeof(*g)))) {
		dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		return NULL;
	}
	if (dlock_redis_conn_init(&g->conn, t, err) != DLOCK_OK) {
		free(g);
		return NULL;
	}
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_attr_init(&ta);
	pthread_attr_setstacksize(&ta, WD_STACK_SIZE);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old); /* the thread inherits: no signal reaches it */
	rc = pthread_create(&g->thread, &ta, wd_main, g);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (rc != 0) {
		pthread_cond_destroy(&g->cond);
		dlock_redis_conn_clear(&g->conn);
		free(g);
		dlock_err_set(err, DLOCK_ENOMEM, 0, "cannot start a lease watchdog thread");
		return NULL;
	}
	g->next = wd_groups;
	wd_groups = g;
	return g;
}

int dlock_redis_watchdog_register(dlock_redis_lease *l, int64_t sent_at, dlock_err *err)
{
	wd_group *g;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	if (!(g = wd_group_for(l->target, err))) {
		pthread_mutex_unlock(&wd_mu);
		return DLOCK_ENOMEM;
	}
	l->valid_until = sent_at + l->lease_ms - DLOCK_REDIS_DRIFT(l->lease_ms);
	l->renew_at = sent_at + l->lease_ms / 3;
	l->lost = 0;
	l->gen = ++wd_gen;
	l->registered = 1;
	l->group = g;
	l->next = g->leases;
	g->leases = l;
	/* the thread is woken only when it sleeps past this lease's renewal:
	 * awake (wake_at 0) it looks at every lease before it sleeps again, and
	 * one that wakes in time renews this one then; a thread woken for
	 * nothing on every acquire is a process switch a cycle */
	if (g->wake_at > l->renew_at) {
		pthread_cond_signal(&g->cond);
	}
	pthread_mutex_unlock(&wd_mu);
	return DLOCK_OK;
}

void dlock_redis_watchdog_unregister(dlock_redis_lease *l)
{
	dlock_redis_lease **p;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	if (l->registered) {
		for (p = &l->group->leases; *p; p = &(*p)->next) {
			if (*p == l) {
				*p = l->next;
				break;
			}
		}
		l->registered = 0;
		l->group = NULL;
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
	wd_group **p, *ending = NULL;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	for (p = &wd_groups; *p;) {
		wd_group *g = *p;

		if (force) {
			dlock_redis_lease *l;

			for (l = g->leases; l; l = l->next) {
				l->registered = 0;
				l->group = NULL;
			}
			g->leases = NULL;
		}
		if (g->leases) {
			p = &g->next;
			continue;
		}
		/* every thread is asked first, then joined: the waits overlap */
		*p = g->next;
		g->next = ending;
		ending = g;
		__atomic_store_n(&g->stop, 1, __ATOMIC_RELEASE);
		pthread_cond_signal(&g->cond);
	}
	pthread_mutex_unlock(&wd_mu);
	while (ending) {
		wd_group *g = ending;

		ending = g->next;
		pthread_join(g->thread, NULL);
		dlock_redis_conn_clear(&g->conn);
		pthread_cond_destroy(&g->cond);
		free(g);
	}
}

unsigned dlock_redis_watchdog_connections(void)
{
	unsigned n = 0;
	wd_group *g;

	pthread_once(&wd_once, wd_init);
	pthread_mutex_lock(&wd_mu);
	for (g = wd_groups; g; g = g->next) {
		n += g->connected;
	}
	pthread_mutex_unlock(&wd_mu);
	return n;
}
