/* dlock_sql_pool.h: the SQL connections of this process, one per server
 * normally, kept across requests like a ZooKeeper session. A hold lives in
 * its connection's server session, so a connection is replaced, never
 * repaired: its generation says which holds died with the old one. A second
 * connection to the same server exists only while two lock objects of this
 * process hold the same name (servers count a session's holds re-entrantly,
 * so the two must not share a session). Uses the drivers; used by
 * dlock_sql_lock.c and dlock_sql_backend.c. */
#ifndef DLOCK_SQL_POOL_H
#define DLOCK_SQL_POOL_H

#include <sys/types.h>

#include "dlock_sql_driver.h"

/* An unlock owed to a session that was busy when its lock object went away
 * (a destructor in a signal handler run inside the session's wait). */
typedef struct dlock_sql_deferred {
	struct dlock_sql_deferred *next;
	char *name; /* the hold's server-side name (owned) */
	size_t len;
	int shared;
} dlock_sql_deferred;

typedef struct dlock_sql_entry {
	struct dlock_sql_entry *next;
	const dlock_sql_driver *drv;
	dlock_target target;          /* owned copy: where and as whom */
	dlock_sql_conn *conn;         /* the open session, or NULL (opened on demand) */
	pid_t pid;                    /* the process that opened it */
	uint64_t gen;                 /* bumped whenever conn is dropped: older holds are gone */
	unsigned users;               /* holds of lock objects on this session */
	unsigned busy;                /* a statement or connect is in flight: a signal handler that
	                                 runs inside that wait must not use this session */
	dlock_sql_deferred *deferred; /* unlocks to send once busy is 0 again */
	int lost_deferred;            /* an unlock could not be recorded: drop the session */
} dlock_sql_entry;

/* An open connection of drv to t's server (same credentials) in *out,
 * skipping busy entries, a fork parent's, and the entries in avoid[0..navoid)
 * (any number): the first open one, else one opened now (connect within
 * t->connect_timeout_ms). Before anything else, entries a fork parent opened
 * are abandoned (their sessions are the parent's), except one still busy in
 * a frame of this process. The first call registers the pool's fork handler:
 * at fork() the child's copies of every session's socket go to /dev/null.
 * Returns DLOCK_OK or a driver's connect status. */
int dlock_sql_pool_get(const dlock_sql_driver *drv, const dlock_target *t,
                       dlock_sql_entry *const *avoid, size_t navoid, const dlock_interrupt *intr,
                       dlock_sql_entry **out, dlock_err *err);

/* Closes e's session (the server frees its holds) and bumps e->gen; e stays
 * in the pool and reconnects on demand. A fork parent's session is only
 * abandoned (not a word to the server: it is still the parent's). */
void dlock_sql_pool_drop(dlock_sql_entry *e);

/* Owes e's session an unlock of name[0..len) (copied), sent by
 * dlock_sql_pool_settle. Out of memory: the session is dropped at settle
 * instead (which frees every hold of it). */
void dlock_sql_pool_defer(dlock_sql_entry *e, const char *name, size_t len, int shared);

/* Sends the unlocks e owes (errors end the session, which frees them too);
 * a fork parent's owed unlocks are forgotten, never sent. */
void dlock_sql_pool_settle(dlock_sql_entry *e);

/* Open connections of drv in this process. */
unsigned dlock_sql_pool_size(const dlock_sql_driver *drv);

/* Closes drv's connections that no hold uses (all of them when final) and
 * frees their entries; a fork parent's are abandoned. */
void dlock_sql_pool_shutdown(const dlock_sql_driver *drv, int final);

#endif
