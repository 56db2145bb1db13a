/* dlock_zk_pool.c: process-wide pool of shared sessions keyed by their settings. */
#include "dlock_zk_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct pool_entry {
	dlock_session *sess;     /* the pool's reference */
	struct pool_entry *next; /* singly linked; pools hold a handful of entries */
} pool_entry;

static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static pool_entry *pool_head;
static pid_t pool_pid;

/* After fork() every pooled session belongs to the parent: forget them all
 * (unref leaves a foreign handle alone). Called with pool_mu held. */
static void pool_check_fork(void)
{
	pid_t me = getpid();
	pool_entry *e, *next;

	if (pool_pid == me) {
		return;
	}
	for (e = pool_head; e; e = next) {
		next = e->next;
		dlock_session_unref(e->sess);
		free(e);
	}
	pool_head = NULL;
	pool_pid = me;
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
