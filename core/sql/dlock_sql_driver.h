/* dlock_sql_driver.h: the small table a SQL server's client implements so
 * that the generic SQL lock (dlock_sql_lock.c) can hold locks on it: a
 * connection, a server-side blocking lock on a name (exclusive or shared),
 * its release and check, a fencing token from a table, and the lock's queue.
 * A hold lives exactly as long as its connection's session on the server.
 * Drivers: PostgreSQL (dlock_pg.c, libpq, session advisory locks) and
 * MySQL/MariaDB (dlock_my.c, MariaDB Connector/C, GET_LOCK).
 *
 * Deadlines are absolute dlock_now_ms() values; < 0 means none. Every call
 * that waits reads its socket in slices of at most DLOCK_WAIT_SLICE_MS and
 * calls dlock_interrupted(intr) between them. A driver never calls back into
 * the generic layer. */
#ifndef DLOCK_SQL_DRIVER_H
#define DLOCK_SQL_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_backend.h"

/* The fencing-token table every SQL backend creates when it is missing:
 *   dlock_tokens(name <text/varbinary> PRIMARY KEY, token BIGINT NOT NULL)
 * One row per lock name; every successful acquire adds one to its token in
 * the same round trip as the lock where the server allows it. */
#define DLOCK_SQL_TOKEN_TABLE "dlock_tokens"

/* A driver's connection (its own struct; the generic layer only passes it). */
typedef struct dlock_sql_conn dlock_sql_conn;

typedef struct dlock_sql_driver {
	const char *name; /* "postgres", "mysql" */
	int has_shared;   /* non-zero when lock(shared=1) is offered */
	int needs_dbname; /* non-zero when a target must name a database (the driver's lock
	                     names and token table live in it) */

	/* Connects to t (host, port, user, password, dbname) before deadline,
	 * calling intr between slices, sets the session up (keepalives, the
	 * token table created if missing) and stores a new connection in *out,
	 * owned by the caller (close). Returns DLOCK_OK, DLOCK_ECONNECT (server
	 * unreachable or too slow: msg names the server, never a password),
	 * DLOCK_EAUTH (credentials refused), DLOCK_EINTR, DLOCK_ESERVER (setup
	 * refused, e.g. no right to create the table) or DLOCK_ENOMEM. */
	int (*connect)(const dlock_target *t, int64_t deadline, const dlock_interrupt *intr,
	               dlock_sql_conn **out, dlock_err *err);

	/* Ends the session politely (the server drops every hold on it) and
	 * frees c. c may be NULL. */
	void (*close)(dlock_sql_conn *c);

	/* Frees c and closes its socket WITHOUT telling the server: for a fork
	 * child, whose parent still uses the same session. c may be NULL.
	 * Every other operation on a connection opened by another process (a
	 * fork parent) returns DLOCK_ECONNLOSS (alive() 0) without a byte sent,
	 * read or cancelled: the session is the parent's. */
	void (*abandon)(dlock_sql_conn *c);

	/* Takes the lock named name[0..len) on c, exclusive or (shared != 0,
	 * when has_shared) shared, waiting in the server: timeout_ms < 0 for
	 * ever, 0 a single try, > 0 at most that long. The server's reply is
	 * awaited until io_deadline at the latest (beyond the wait itself). When
	 * intr asks to stop, the server-side wait is cancelled (a grant that
	 * raced the cancel is released again). On DLOCK_OK, *token (when token
	 * is not NULL) is the name's new fencing token, incremented in the same
	 * round trip where the server allows it; with token NULL only the lock
	 * is taken (the token op gives one later). Returns DLOCK_OK, DLOCK_ETIMEDOUT (not acquired;
	 * nothing held), DLOCK_EINTR (nothing held), DLOCK_ECONNLOSS (c is
	 * unusable: the caller closes it, and every hold on it is gone),
	 * DLOCK_ESERVER or DLOCK_ENOMEM. The session's own holds on name do not
	 * make it wait (servers count them re-entrantly); the generic layer
	 * never asks for such a second hold except for a downgrade. */
	int (*lock)(dlock_sql_conn *c, const char *name, size_t len, int shared, int64_t timeout_ms,
	            int64_t io_deadline, const dlock_interrupt *intr, int64_t *token, dlock_err *err);

	/* Drops one hold of name (exclusive or shared) on c. Returns DLOCK_OK,
	 * DLOCK_ENOTHELD (the server says c did not hold it), DLOCK_ECONNLOSS or
	 * DLOCK_ESERVER. */
	int (*unlock)(dlock_sql_conn *c, const char *name, size_t len, int shared, int64_t deadline,
	              dlock_err *err);

	/* Asks the server whether c's session holds name (in that mode).
	 * Returns DLOCK_OK (held), DLOCK_ENOTHELD, DLOCK_ECONNLOSS or
	 * DLOCK_ESERVER. */
	int (*check)(dlock_sql_conn *c, const char *name, size_t len, int shared, int64_t deadline,
	             dlock_err *err);

	/* One round trip proving c's session is alive on the server and is the
	 * one c opened (a session lock ends only with an unlock or with its
	 * session, so this proves every hold of c at the time the server
	 * answered). Returns DLOCK_OK, DLOCK_ENOTHELD (another session answered:
	 * a pooler), DLOCK_ECONNLOSS or DLOCK_ESERVER. */
	int (*ping)(dlock_sql_conn *c, int64_t deadline, dlock_err *err);

	/* The descriptor of c's socket, or -1: called in a fork child (from a
	 * pthread_atfork handler: no allocation, no I/O) to point it at
	 * /dev/null, so that the child neither keeps the parent's session alive
	 * nor can talk on it. */
	int (*socket)(const dlock_sql_conn *c);

	/* A local check without a round trip: 0 when c's socket already shows
	 * the session ended (EOF, an error or a termination notice is waiting
	 * to be read), else non-zero. Must not block. */
	int (*alive)(dlock_sql_conn *c);

	/* The holders of name and then its waiters, where the server can tell,
	 * into *out (dlock_participants_free) and *count: name = the holder's
	 * server connection id as text, writer = exclusive, holder = granted,
	 * token = the name's current token for holders. Returns DLOCK_OK,
	 * DLOCK_ECONNLOSS, DLOCK_ESERVER or DLOCK_ENOMEM. */
	int (*participants)(dlock_sql_conn *c, const char *name, size_t len, int64_t deadline,
	                    dlock_participant **out, size_t *count, dlock_err *err);

	/* The server's id of c's session (backend pid, connection id). */
	int64_t (*session_id)(const dlock_sql_conn *c);

	/* Adds one to the token row of name[0..len) and returns it in *token,
	 * in one statement that does so only while c's session holds
	 * hold_name[0..hold_len) in that mode (the hold orders the tokens).
	 * Returns DLOCK_OK, DLOCK_ENOTHELD (no such hold: nothing changed),
	 * DLOCK_ECONNLOSS or DLOCK_ESERVER. */
	int (*token)(dlock_sql_conn *c, const char *name, size_t len, const char *hold_name,
	             size_t hold_len, int shared, int64_t deadline, int64_t *token, dlock_err *err);

	/* For a downgrade (where has_shared): DLOCK_OK when no other session
	 * waits for an exclusive hold of name, DLOCK_EDEADLK when one does (it
	 * queued behind our write lock), DLOCK_ECONNLOSS or DLOCK_ESERVER. NULL
	 * when the driver cannot tell. */
	int (*writer_queued)(dlock_sql_conn *c, const char *name, size_t len, int64_t deadline,
	                     dlock_err *err);

	/* Frees what the client library keeps for the whole process (its
	 * one-time initialisation), once no connection of this driver is left;
	 * called at module shutdown. NULL when there is nothing to free. */
	void (*library_end)(void);
	/* The client library and its version, e.g. "libpq 15.5" (a static buffer). */
	const char *(*library)(void);

	/* Optional (NULL: the server cannot tell): the locks held or waited
	 * for whose names start with prefix[0..len) and that the server can
	 * name, sorted by name, into *out (dlock_lock_entries_free) and *count.
	 * Returns DLOCK_OK, DLOCK_ECONNLOSS, DLOCK_ESERVER or DLOCK_ENOMEM. */
	int (*list)(dlock_sql_conn *c, const char *prefix, size_t len, int64_t deadline,
	            dlock_lock_entry **out, size_t *count, dlock_err *err);

	/* Optional (NULL: not offered): the operator's forced break, ending the
	 * sessions that hold name now, or a lease of the semaphore of that name
	 * in one of its slots 0..slots-1 (dlock_sql_sem_name; never c's session),
	 * every hold of theirs with them; *broken is how many holds. Returns
	 * DLOCK_OK, DLOCK_ECONNLOSS, DLOCK_ESERVER (e.g. not allowed to end
	 * them) or DLOCK_ENOMEM. */
	int (*terminate)(dlock_sql_conn *c, const char *name, size_t len, int slots, int64_t deadline,
	                 int *broken, dlock_err *err);

	/* Notifications, for semaphores (NULL when the server has none: the
	 * generic layer then does not offer semaphores). A channel is named by
	 * any bytes chan[0..len); two names may share a channel (a spurious
	 * wake-up only). */

	/* Starts (on != 0) or stops receiving chan's notifications on c.
	 * Returns DLOCK_OK, DLOCK_ECONNLOSS or DLOCK_ESERVER. */
	int (*listen)(dlock_sql_conn *c, const char *chan, size_t len, int on, int64_t deadline,
	              dlock_err *err);

	/* Sends one notification on chan (delivered to every session listening
	 * on it). Returns DLOCK_OK, DLOCK_ECONNLOSS or DLOCK_ESERVER. */
	int (*notify)(dlock_sql_conn *c, const char *chan, size_t len, int64_t deadline,
	              dlock_err *err);

	/* Waits until a notification arrives on c (any channel it listens on;
	 * all pending ones are consumed), or until `until`, calling intr between
	 * slices. Returns DLOCK_OK (notified), DLOCK_ETIMEDOUT, DLOCK_EINTR or
	 * DLOCK_ECONNLOSS. */
	int (*wait_event)(dlock_sql_conn *c, int64_t until, const dlock_interrupt *intr,
	                  dlock_err *err);
} dlock_sql_driver;

extern const dlock_sql_driver dlock_pg_driver;
extern const dlock_sql_driver dlock_my_driver;

/* Longest lock name the SQL backends accept, bytes. */
#define DLOCK_SQL_NAME_MAX 1024

#endif
