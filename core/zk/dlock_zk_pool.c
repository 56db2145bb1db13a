/* dlock_zk_pool.c: process-wide pool of shared sessions keyed by their
 * settings; in a fork child that inherited sessions, the resolver check
 * (dlock_zk_resolver.h) before its first session of its own. */
#include "dlock_zk_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dlock_zk_resolver.h"

typedef struct pool_entry {
	dlock_session *sess;     /* the pool's reference */
	struct pool_entry *next; /* singly linked; pools hold a handful of entries */
} pool_entry;

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pool_entry *pool_head;
static pid_t pool_pid;
/* Whether this process's resolver may be locked for ever: set in a fork
 * child that inherited sessions (whose I/O threads may have been inside
 * getaddrinfo() at the fork), cleared once a check answered. Main thread. */
static int pool_resolver_suspect;

/* After fork() every pooled session belongs to the parent: forget them all
 * (unref leaves a foreign handle alone). Called with pool_mu held. */
static void pool_check_fork(void)
{
	pid_t me = getpid();
	pool_entry *e, *next;

	if (pool_pid == me) {
		return;
	}
	if (pool_head) {
		pool_resolver_suspect = 1;
	}
	for (e = pool_head; e; e = next) {
		next = e->next;
		dlock_session_unref(e->sess);
		free(e);
	}
	pool_head = NULL;
	pool_pid = me;
}

/* DLOCK_OK when a session may be opened: the resolver answers in this
 * process (checked once in a fork child that inherited sessions, within
 * connect_timeout; a check that timed out is made again next time, since a
 * slow DNS server looks the same). */
static int pool_resolver_ok(const dlock_session_cfg *cfg, dlock_err *err)
{
	int64_t t = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms : 10000;

	if (!pool_resolver_suspect) {
		return DLOCK_OK;
	}
	if (dlock_zk_resolver_check(cfg->hosts, t) == -1) {
		return dlock_err_set(err, DLOCK_ECONNECT, 0,
		                     "cannot connect to ZooKeeper: the C library's resolver did not answer "
		                     "within connect_timeout in this process, a fork child of a process "
		                     "whose ZooKeeper client was resolving server addresses at the fork "
		                     "(its lock is then held for ever here); fork before the parent's "
		                     "first ZooKeeper lock, or exec a fresh php");
	}
	pool_resolver_suspect = 0;
	return DLOCK_OK;
}

static pool_entry **pool_find(const dlock_session_cfg *cfg)
{
	pool_entry **pp;

	for (pp = &pool_head; *pp; pp = &(*pp)->next) {
		if (dlock_session_matches((*pp)->sess, cfg)) {
			return pp;
		}
	}
	return NULL;
}

int dlock_pool_get(const dlock_session_cfg *cfg, const dlock_interrupt *intr, dlock_session **out,
                   dlock_err *err)
{
	pool_entry **pp, *e;
	dlock_session *s;
	int rc;

	*out = NULL;
	pthread_mutex_lock(&pool_mu);
	pool_check_fork();
	pp = pool_find(cfg);
	if (pp && dlock_session_health((*pp)->sess) != DLOCK_HEALTH_DEAD) {
		s = (*pp)->sess;
		dlock_session_ref(s);
		pthread_mutex_unlock(&pool_mu);
		*out = s;
		return DLOCK_OK;
	}
	if (pp) { /* expired: drop it; locks still referencing it keep it alive */
		e = *pp;
		*pp = e->next;
		dlock_session_unref(e->sess);
		free(e);
	}
	pthread_mutex_unlock(&pool_mu);

	if ((rc = pool_resolver_ok(cfg, err)) != DLOCK_OK) {
		return rc;
	}
	rc = dlock_session_open(cfg, intr, &s, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	e = malloc(sizeof(*e));
	if (!e) {
		dlock_session_unref(s);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	pthread_mutex_lock(&pool_mu);
	pool_check_fork();
	e->sess = s;
	e->next = pool_head;
	pool_head = e;
	dlock_session_ref(s);
	pthread_mutex_unlock(&pool_mu);
	*out = s;
	return DLOCK_OK;
}

unsigned dlock_pool_size(void)
{
	unsigned n = 0;
	pool_entry *e;

	pthread_mutex_lock(&pool_mu);
	pool_check_fork();
	for (e = pool_head; e; e = e->next) {
		n++;
	}
	pthread_mutex_unlock(&pool_mu);
	return n;
}

void dlock_pool_shutdown(void)
{
	pool_entry *e, *next;

	pthread_mutex_lock(&pool_mu);
	for (e = pool_head; e; e = next) {
		next = e->next;
		dlock_session_unref(e->sess);
		free(e);
	}
	pool_head = NULL;
	pthread_mutex_unlock(&pool_mu);
}
