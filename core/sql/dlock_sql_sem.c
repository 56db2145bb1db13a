/* dlock_sql_sem.c: a semaphore of N leases on a SQL server (see
 * dlock_sql_sem.h): the gate, the slots and the wake-up channel. */
#include "dlock_sql_sem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A semaphore of N leases named P is N locks, "P\0slot<i>", behind a gate
 * lock "P\0gate" that orders the contenders (the server queues them on it).
 * The gate's holder is the head of the queue: it tries the slots and, when
 * all are taken, waits for the notification a release sends on "P\0wake",
 * asking again at least every DLOCK_SQL_SEM_RECHECK_MS in case a holder's
 * session ended without one (a killed process sends nothing). A try (wait 0)
 * takes no gate and tries each slot once, and so does a timed wait whose time
 * ran out in the gate's queue: they may overtake queued waiters, and fail
 * only when every slot is held. The gate's
 * token, asked for on demand like any SQL lock's, bumps the semaphore's own
 * row while a slot is held. */
char *dlock_sql_sem_name(const char *path, size_t path_len, const char *what, int i, size_t *len)
{
	char tail[32];
	char *n;
	int t = i < 0 ? snprintf(tail, sizeof(tail), "%s", what)
	              : snprintf(tail, sizeof(tail), "%s%d", what, i);

	if (!(n = malloc(path_len + 1 + (size_t)t + 1))) {
		return NULL;
	}
	memcpy(n, path, path_len);
	n[path_len] = '\0';
	memcpy(n + path_len + 1, tail, (size_t)t + 1);
	*len = path_len + 1 + (size_t)t;
	return n;
}

static char *sem_name(const dlock_handle *h, const char *what, int i, size_t *len)
{
	return dlock_sql_sem_name(h->path, h->path_len, what, i, len);
}

int dlock_sql_sem_take(const dlock_sql_driver *drv, const dlock_handle *h, dlock_sql_conn *c,
                       int64_t wait, const dlock_interrupt *intr, char **slot, size_t *slot_len,
                       dlock_err *err)
{
	size_t glen, wlen;
	char *gate = sem_name(h, "gate", -1, &glen), *wake = sem_name(h, "wake", -1, &wlen);
	int64_t start = dlock_now_ms(), dl = wait < 0 ? -1 : start + wait,
	        io = h->target.connect_timeout_ms;
	int rc, listening = 0, gated, once = wait == 0, i, first = (int)(getpid() % h->max_leases);

	*slot = NULL;
	if (!gate || !wake) {
		free(gate);
		free(wake);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	/* a try skips the gate: its holder (a blocked waiter, or a contender
	 * looking at the slots) may hold it while slots are free, and a try
	 * must say "full" only when the slots say so. So does a timed wait
	 * whose time ran out in the gate's queue: one last look at the slots.
	 * Either may take a slot ahead of queued waiters (no fairness to
	 * them, as a try of a mutex that a release just freed); the slot
	 * locks alone keep the holders at N or fewer. */
	rc = wait == 0 ? DLOCK_OK
	               : drv->lock(c, gate, glen, 0, wait, wait < 0 ? -1 : dl + io, intr, NULL, err);
	gated = rc == DLOCK_OK && wait != 0;
	if (rc == DLOCK_ETIMEDOUT && wait > 0) {
		rc = DLOCK_OK; /* the gate is not ours: a try's single look */
		once = 1;
	}
	while (rc == DLOCK_OK) {
		int64_t now;

		for (i = 0; i < h->max_leases && !*slot && rc == DLOCK_OK; i++) {
			size_t n;
			char *name = sem_name(h, "slot", (first + i) % h->max_leases, &n);

			if (!name) {
				rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
				break;
			}
			rc = drv->lock(c, name, n, 0, 0, dlock_now_ms() + io, NULL, NULL, err);
			if (rc == DLOCK_OK) {
				*slot = name;
				*slot_len = n;
			} else {
				free(name);
				rc = rc == DLOCK_ETIMEDOUT ? DLOCK_OK : rc; /* taken: the next one */
			}
		}
		if (rc != DLOCK_OK || *slot) {
			break;
		}
		now = dlock_now_ms();
		if (once || (dl >= 0 && now >= dl)) {
			rc = DLOCK_ETIMEDOUT;
			break;
		}
		if (!listening) {
			/* listen, then look again: a release in between is seen either way */
			rc = drv->listen(c, wake, wlen, 1, now + io, err);
			listening = rc == DLOCK_OK;
			continue;
		}
		rc = drv->wait_event(
		    c, dl >= 0 && dl - now < DLOCK_SQL_SEM_RECHECK_MS ? dl : now + DLOCK_SQL_SEM_RECHECK_MS,
		    intr, err);
		rc = rc == DLOCK_ETIMEDOUT ? DLOCK_OK : rc;
	}
	if (rc != DLOCK_ECONNLOSS && listening &&
	    drv->listen(c, wake, wlen, 0, dlock_now_ms() + io, NULL) == DLOCK_ECONNLOSS) {
		rc = DLOCK_ECONNLOSS;
	}
	if (gated && rc != DLOCK_ECONNLOSS &&
	    drv->unlock(c, gate, glen, 0, dlock_now_ms() + io, NULL) == DLOCK_ECONNLOSS) {
		rc = DLOCK_ECONNLOSS; /* the session, and the slot in it, are gone */
	}
	if (rc != DLOCK_OK) {
		free(*slot);
		*slot = NULL;
	}
	free(gate);
	free(wake);
	return rc;
}

int dlock_sql_sem_give(const dlock_sql_driver *drv, const dlock_handle *h, dlock_sql_conn *c,
                       const char *slot, size_t slot_len, int *lost, dlock_err *err)
{
	int64_t io = h->target.connect_timeout_ms;
	size_t wlen;
	char *wake;
	int rc = drv->unlock(c, slot, slot_len, 0, dlock_now_ms() + io, err);

	*lost = 0;
	if (rc == DLOCK_OK && (wake = sem_name(h, "wake", -1, &wlen))) {
		*lost = drv->notify(c, wake, wlen, dlock_now_ms() + io, NULL) == DLOCK_ECONNLOSS;
		free(wake);
	}
	return rc;
}
