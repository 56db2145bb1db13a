/* dlock_sql_lock_int.h: a SQL lock object's state and the hold half's
 * helpers, shared by dlock_sql_lock.c (getting a hold: which session, the
 * wait, the self-wait check) and dlock_sql_hold.c (having one: release, the
 * questions behind isAcquired()/checkHeld()/getFencingToken()); nothing else
 * includes it. Calls flow from lock to hold only. */
#ifndef DLOCK_SQL_LOCK_INT_H
#define DLOCK_SQL_LOCK_INT_H

#include <stdint.h>
#include <sys/types.h>

#include "../dlock_held.h"
#include "dlock_sql_lock.h"
#include "dlock_sql_pool.h"

typedef struct dlock_sql_lock_state {
	dlock_handle *h;
	const dlock_sql_driver *drv;
	dlock_sql_entry *entry; /* the session of the hold, while held */
	uint64_t gen;           /* entry->gen when the hold was taken */
	int held;               /* the server hold is ours (nested holds are the handle's) */
	int64_t token;          /* fencing token of the hold */
	pid_t pid;              /* the process that took the hold */
	int lost;               /* the server said the hold is gone */
	int acquiring;          /* inside dlock_sql_lock_acquire (a signal handler may run
	                           inside its wait) */
	struct dlock_sql_lock_state *next_acquiring;
	char *sname;    /* the hold's name on the server (owned): the lock's
	                   name, or a semaphore's slot */
	size_t slen;    /* bytes of sname */
	dlock_held reg; /* in the registry of held locks while held */
	char *space;    /* the name's lock space (owned) */
} dlock_sql_lock_state;

/* Non-zero when h takes the server's shared mode (a read part). */
int dlock_sql_hold_shared(const dlock_handle *h);

/* Drops l's local hold (the server's is already gone or released): off the
 * registry of held locks, its session's use counted down (only in the
 * process that took it: a fork child's entry pointer is the parent's). */
void dlock_sql_hold_forget(dlock_sql_lock_state *l);

/* Non-zero while l's session is the one its hold was taken in, in this
 * process, and its socket shows no end; a dead session is dropped. */
int dlock_sql_hold_alive(dlock_sql_lock_state *l);

/* Non-zero when l's session is in the middle of a statement that the caller
 * (a signal handler run inside that wait) interrupted: nothing may be sent
 * on it. */
int dlock_sql_hold_in_wait(const dlock_sql_lock_state *l);

/* DLOCK_EDEADLK for a call on h whose session is busy with such a wait. */
int dlock_sql_hold_busy_err(const dlock_handle *h, dlock_err *err);

#endif
