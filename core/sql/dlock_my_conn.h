/* dlock_my_conn.h: a MariaDB/MySQL session driven through Connector/C's
 * non-blocking API, every wait a poll() slice with a deadline and an
 * interrupt hook. Private to the MySQL driver (dlock_my_session.c, and
 * dlock_my.c, the lock calls on top of it); nothing here knows about lock
 * names or tokens. */
#ifndef DLOCK_MY_CONN_H
#define DLOCK_MY_CONN_H

#include <mysql.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "dlock_sql_driver.h"

/* The driver's connection (dlock_sql_conn is opaque to the generic layer). */
struct dlock_sql_conn {
	MYSQL *my;        /* the session's handle, non-blocking mode; never NULL once made */
	int64_t id;       /* CONNECTION_ID() of the session, read at connect */
	int broken;       /* non-zero once the connection is unusable (ECONNLOSS was returned) */
	pid_t owner;      /* the process that connected: no other may use the session */
	dlock_target cfg; /* owned copy of the target: the side connection of a cancel uses it */
	char where[256];  /* "mysql://user@host:port/db" for messages: never a password */
};

/* Which Connector/C operation a dlock_my_call runs. */
enum dlock_my_op { DLOCK_MY_CONNECT, DLOCK_MY_QUERY, DLOCK_MY_STORE, DLOCK_MY_NEXT };

/* One statement sent as a single round trip, and where its reading stands. It
 * may be left suspended (an interrupt or a deadline) and resumed later. */
typedef struct dlock_my_query {
	int op;            /* the operation in progress (enum dlock_my_op) */
	int status;        /* MYSQL_WAIT_* the suspended operation waits for, 0 when done */
	int iret;          /* the finished query or next-result call's return value */
	MYSQL_RES *res;    /* the finished store call's result (freed by the reader) */
	MYSQL *cret;       /* the finished connect call's return value (NULL: failed) */
	int rows;          /* result sets with a row seen so far */
	int nv;            /* columns of the last row wanted in v / isnull (at most 5) */
	int64_t v[5];      /* the first row of the last result set, as integers */
	int isnull[5];     /* non-zero where that column was SQL NULL */
	char *text;        /* with want_text: the first column of every row of the last result
	                      set, each line ending "\n" (malloc()ed; the caller frees it) */
	size_t text_len;   /* bytes of text */
	int want_text;     /* set by the caller: fill text (for values that are no integers) */
	const char *sql;   /* the statement text (caller-owned while the query runs) */
	unsigned long len; /* bytes of sql */
} dlock_my_query;

/* How long a cancel's side session may take to connect and answer, and how
 * long the cancelled statement's reply may take after it, ms. */
#define DLOCK_MY_SIDE_MS 2000

/* Initialises Connector/C once per process. Returns DLOCK_OK or DLOCK_ENOMEM. */
int dlock_my_library_init(dlock_err *err);

/* Opens a bare session to t (TCP, multi-statements on, no reconnect) before
 * the earlier of deadline and t->connect_timeout_ms from now, calling intr
 * (may be NULL) between slices. Stores the handle in *out. Returns DLOCK_OK,
 * DLOCK_ECONNECT (msg names where, never the password), DLOCK_EAUTH,
 * DLOCK_ESERVER (unknown database), DLOCK_EINTR or DLOCK_ENOMEM; *out is then
 * NULL and nothing is left open. */
int dlock_my_open(const dlock_target *t, const char *where, int64_t deadline,
                  const dlock_interrupt *intr, MYSQL **out, dlock_err *err);

/* Starts q (q->sql, q->len, q->nv set by the caller, the rest zeroed) on c;
 * nothing is sent when c is a fork parent's (dlock_my_query_run then says
 * DLOCK_ECONNLOSS). */
void dlock_my_query_start(dlock_sql_conn *c, dlock_my_query *q);

/* Reads q's replies until every statement has answered, deadline passes or
 * intr (may be NULL) asks to stop. Returns DLOCK_OK (q->v/isnull/rows hold
 * the last row seen), DLOCK_EINTR or DLOCK_ETIMEDOUT with q left suspended
 * (resume with another call, or give c up), or the error of the first failing
 * statement: DLOCK_ECONNLOSS (c->broken set), DLOCK_ENOMEM or DLOCK_ESERVER,
 * msg prefixed with what. */
int dlock_my_query_run(dlock_sql_conn *c, dlock_my_query *q, int64_t deadline,
                       const dlock_interrupt *intr, const char *what, dlock_err *err);

/* dlock_my_query_start + dlock_my_query_run, where a reply that does not come
 * before deadline leaves c unusable: DLOCK_ECONNLOSS. */
int dlock_my_exec(dlock_sql_conn *c, dlock_my_query *q, int64_t deadline, const char *what,
                  dlock_err *err);

/* Asks the server, over a short-lived second session to the same target, to
 * cancel the statement c is running (KILL QUERY <c->id>), before deadline.
 * Returns DLOCK_OK or the failure of that side session; DLOCK_ECONNLOSS,
 * nothing sent, when c is a fork parent's (the statement is the parent's). */
int dlock_my_cancel(dlock_sql_conn *c, int64_t deadline, dlock_err *err);

#endif
