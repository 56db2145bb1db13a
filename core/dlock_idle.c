/* dlock_idle.c: the idle closer (see dlock_idle.h): one thread a process,
 * started on first use, that sleeps until the process has been between
 * requests for the idle time and then closes every backend's pooled
 * sessions and connections. The request flag and the close share one mutex,
 * so a close never overlaps a request: the PHP thread is inside no dlock
 * call and holds no lock object while the thread closes. */
#include "dlock_idle.h"

#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "dlock_handle.h"
#include "dlock_wait.h"

static pthread_mutex_t idle_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t idle_cond;
static pthread_t idle_thread;
static pid_t idle_owner;    /* the process the thread runs in; 0: none */
static int idle_in_request; /* a request is running */
static int idle_armed;      /* a close is due at idle_due */
static int idle_stop_flag;  /* the thread is asked to end */
static int64_t idle_due;    /* monotonic ms */
static uint64_t idle_count; /* closes made */

static void *idle_main(void *arg)
{
	struct timespec ts;

	(void)arg;
	pthread_mutex_lock(&idle_mu);
	while (!idle_stop_flag) {
		int64_t now = dlock_now_ms(), rel;

		if (!idle_armed || idle_in_request) {
			pthread_cond_wait(&idle_cond, &idle_mu);
			continue;
		}
		if (now >= idle_due) {
			/* under idle_mu: a request that begins now waits for the close */
			dlock_backends_shutdown(0);
			idle_armed = 0;
			idle_count++;
			continue;
		}
		rel = idle_due - now;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_sec += (time_t)(rel / 1000);
		ts.tv_nsec += (long)(rel % 1000) * 1000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&idle_cond, &idle_mu, &ts);
	}
	pthread_mutex_unlock(&idle_mu);
	return NULL;
}

/* Starts the thread in this process. Called with idle_mu held; 0 on
 * success. Its signals stay blocked: the process's handlers run on the PHP
 * thread. */
static int idle_start(void)
{
	pthread_condattr_t ca;
	sigset_t all, old;
	int rc;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&idle_cond, &ca);
	pthread_condattr_destroy(&ca);
	idle_stop_flag = 0;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&idle_thread, NULL, idle_main, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		pthread_cond_destroy(&idle_cond);
		return -1;
	}
	idle_owner = getpid();
	return 0;
}

void dlock_idle_request_begin(void)
{
	if (idle_owner != getpid()) {
		return; /* no thread here: nothing can close behind the request */
	}
	pthread_mutex_lock(&idle_mu);
	idle_in_request = 1;
	idle_armed = 0;
	pthread_mutex_unlock(&idle_mu);
}

void dlock_idle_request_end(int64_t idle_ms)
{
	pid_t me = getpid();

	if (idle_owner != 0 && idle_owner != me) {
		/* a fork child: the parent's thread does not exist here, and the
		 * mutex may have been copied locked */
		pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;

		idle_mu = fresh;
		idle_owner = 0;
	}
	if (idle_ms <= 0) {
		if (idle_owner) {
			pthread_mutex_lock(&idle_mu);
			idle_in_request = 0;
			idle_armed = 0;
			pthread_mutex_unlock(&idle_mu);
		}
		return;
	}
	pthread_mutex_lock(&idle_mu);
	if (!idle_owner && idle_start() != 0) {
		pthread_mutex_unlock(&idle_mu); /* no thread: sessions stay, as without idle_close */
		return;
	}
	idle_in_request = 0;
	idle_armed = 1;
	idle_due = dlock_now_ms() + idle_ms;
	pthread_cond_broadcast(&idle_cond);
	pthread_mutex_unlock(&idle_mu);
}

uint64_t dlock_idle_closes(void)
{
	uint64_t n;

	pthread_mutex_lock(&idle_mu);
	n = idle_count;
	pthread_mutex_unlock(&idle_mu);
	return n;
}

void dlock_idle_stop(void)
{
	if (idle_owner != getpid()) {
		return;
	}
	pthread_mutex_lock(&idle_mu);
	idle_stop_flag = 1;
	pthread_cond_broadcast(&idle_cond);
	pthread_mutex_unlock(&idle_mu);
	pthread_join(idle_thread, NULL);
	pthread_cond_destroy(&idle_cond);
	idle_owner = 0;
	idle_armed = 0;
}
