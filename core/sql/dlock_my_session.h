/* dlock_my_session.h: a MySQL/MariaDB session as the lock driver uses it
 * (dlock_my_session.c): open with its settings and token table, run one
 * simple statement, close, abandon. Private to the MySQL driver. */
#ifndef DLOCK_MY_SESSION_H
#define DLOCK_MY_SESSION_H

#include <stdint.h>

#include "dlock_my_conn.h"

/* Opens a session to t (within deadline, or connect_timeout when shorter),
 * sets it up for locks and makes the token table when missing. Stores the
 * new connection (owned by the caller, freed by dlock_my_close) in *out.
 * Returns DLOCK_OK, or DLOCK_ECONNECT, DLOCK_EAUTH, DLOCK_ESERVER (a replica
 * or read-only server, or the table cannot be made), DLOCK_EINTR,
 * DLOCK_ENOMEM with msg set; *out is then NULL. */
int dlock_my_connect(const dlock_target *t, int64_t deadline, const dlock_interrupt *intr,
                     dlock_sql_conn **out, dlock_err *err);

/* Ends c's session (COM_QUIT: the server drops its locks) and frees c. c may
 * be NULL. */
void dlock_my_close(dlock_sql_conn *c);

/* Frees c, inherited over fork(), without touching the parent's session: the
 * socket's descriptor is pointed at /dev/null first. c may be NULL. */
void dlock_my_abandon(dlock_sql_conn *c);

/* Runs sql on c as one round trip before deadline, its last result's first
 * row read as nv integers into q (caller's, reset here); what names the step
 * in messages. Returns dlock_my_exec()'s status. */
int dlock_my_simple(dlock_sql_conn *c, const char *sql, int nv, int64_t deadline, const char *what,
                    dlock_my_query *q, dlock_err *err);

#endif
