/* dlock_revoke.c: one hold's revocation cell (see dlock_revoke.h): a
 * reference count, the "requested" mark the client thread sets and the
 * "delivered" mark the owning thread sets, plus the process-wide pending flag
 * and the kick that tells the PHP glue. Client threads only store atomics and
 * call the kick; nothing here takes a lock, so a raise can never wait on the
 * thread it is trying to reach. Fork rule: a child clears the pending flag
 * (pthread_atfork) and never kicks for a cell its parent made. */
#include "dlock_revoke.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

struct dlock_revoke {
	atomic_int refs;      /* the holder's, plus one per armed notification (watch, subscriber) */
	atomic_int requested; /* a request reached the hold (set by any thread) */
	int delivered;        /* the listener was called for it (owning thread only) */
	pid_t pid;            /* the process that made the cell */
};

static atomic_int revoke_pending;         /* some cell of this process was raised */
static void (*_Atomic revoke_kick)(void); /* the glue's kick, or NULL */
static pthread_once_t revoke_once = PTHREAD_ONCE_INIT;

dlock_revoke *dlock_revoke_new(void)
{
	dlock_revoke *r = calloc(1, sizeof(*r));

	if (r) {
		atomic_init(&r->refs, 1);
		atomic_init(&r->requested, 0);
		r->pid = getpid();
	}
	return r;
}

void dlock_revoke_ref(dlock_revoke *r)
{
	atomic_fetch_add(&r->refs, 1);
}

void dlock_revoke_put(dlock_revoke *r)
{
	if (r && atomic_fetch_sub(&r->refs, 1) == 1) {
		free(r);
	}
}

void dlock_revoke_raise(dlock_revoke *r)
{
	void (*kick)(void);

	if (atomic_exchange(&r->requested, 1) || r->pid != getpid()) {
		return; /* raised before, or a fork parent's cell: nothing new to tell */
	}
	atomic_store(&revoke_pending, 1);
	if ((kick = atomic_load(&revoke_kick)) != NULL) {
		kick();
	}
}

int dlock_revoke_requested(const dlock_revoke *r)
{
	return r && atomic_load(&((dlock_revoke *)r)->requested);
}

int dlock_revoke_take(dlock_revoke *r)
{
	if (!r || r->delivered || !atomic_load(&r->requested) || r->pid != getpid()) {
		return 0;
	}
	r->delivered = 1;
	return 1;
}

static void revoke_atfork_child(void)
{
	atomic_store(&revoke_pending, 0); /* the parent's revocations are not the child's */
}

static void revoke_install_fork(void)
{
	pthread_atfork(NULL, NULL, revoke_atfork_child);
}

void dlock_revoke_set_kick(void (*kick)(void))
{
	pthread_once(&revoke_once, revoke_install_fork);
	atomic_store(&revoke_kick, kick);
}

int dlock_revoke_take_pending(void)
{
	return atomic_exchange(&revoke_pending, 0);
}
