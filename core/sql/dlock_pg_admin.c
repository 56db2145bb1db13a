/* dlock_pg_admin.c: the operator's side of the PostgreSQL driver (the dlock
 * command). Advisory locks are keyed by a hash of the name (dlock_pg.c), so
 * the server knows keys, not names: a name is known when the token table has
 * its row (written by the first getFencingToken() of the name), and listing
 * joins those rows with pg_locks. A forced break ends the holders' sessions
 * (pg_terminate_backend), the only way the server gives to take a session
 * lock from its session: the holders of the name's key and of its
 * semaphore slots' keys (a semaphore's leases live there, dlock_sql_sem.c). */
#include "dlock_pg_conn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dlock_dsn.h"

/* The advisory key of a bytea column or literal `x` in SQL: the first 8 bytes
 * of its SHA-256, as dlock_sha256_key() computes it in the client. */
#define PG_KEY_OF(x) "('x' || left(encode(sha256(" x "), 'hex'), 16))::bit(64)::bigint"

/* The keys of the name in n.b and of its semaphore slots 0..%d (the
 * slot names as dlock_sql_sem_name builds them), as a column k. */
#define PG_SLOT_NAME "n.b || decode('00', 'hex') || convert_to('slot' || i, 'UTF8')"
#define PG_BREAK_KEYS                                                                              \
	PG_KEY_OF("n.b")                                                                               \
	" AS k FROM n UNION ALL SELECT " PG_KEY_OF(PG_SLOT_NAME) " FROM n, "                           \
	                                                         "generate_series(0, %d) i"

/* The held advisory keys of this database, with how many sessions hold or
 * wait for each and whether any of them is shared. */
#define PG_ADVISORY                                                                                \
	"SELECT (l.classid::bigint << 32) | l.objid::bigint AS k, count(*) AS c, "                     \
	"bool_or(l.mode = 'ShareLock') AS sh FROM pg_locks l WHERE l.locktype = 'advisory' "           \
	"AND l.objsubid = 1 AND l.database = (SELECT oid FROM pg_database "                            \
	"WHERE datname = current_database()) GROUP BY 1"

/* Hex of s[0..len) into a new string, NULL when out of memory. */
static char *pg_admin_hex(const char *s, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *h = malloc(2 * len + 1);
	size_t i;

	if (!h) {
		return NULL;
	}
	for (i = 0; i < len; i++) {
		h[2 * i] = digits[(unsigned char)s[i] >> 4];
		h[2 * i + 1] = digits[(unsigned char)s[i] & 15];
	}
	h[2 * len] = '\0';
	return h;
}

int dlock_pg_admin_list(dlock_sql_conn *c, const char *prefix, size_t len, int64_t deadline,
                        dlock_lock_entry **out, size_t *count, dlock_err *err)
{
	char *h = pg_admin_hex(prefix, len), *sql = h ? malloc(2 * len + 1024) : NULL;
	dlock_lock_entry *list = NULL;
	PGresult *r = NULL;
	int i, n = 0, rc;

	*out = NULL;
	*count = 0;
	if (!sql) {
		free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	sprintf(sql,
	        "WITH a AS (" PG_ADVISORY "), t AS (SELECT name, " PG_KEY_OF(
	            "name") " AS k FROM " DLOCK_PG_TOKEN_TABLE " WHERE substring(name from 1 for "
	                    "%zu) = decode('%s', 'hex')) "
	                    "SELECT encode(t.name, 'hex'), a.c, a.sh FROM t JOIN a ON a.k = t.k "
	                    "ORDER BY t.name",
	        len, h);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	free(sql);
	free(h);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (!(list = calloc((size_t)PQntuples(r) + 1, sizeof(*list)))) {
		PQclear(r);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (i = 0; i < PQntuples(r); i++) {
		const char *hex = PQgetvalue(r, i, 0);
		size_t j, nlen = strlen(hex) / 2;
		char *name = malloc(nlen + 1);

		if (!name) {
			dlock_lock_entries_free(list, (size_t)n);
			PQclear(r);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		for (j = 0; j < nlen; j++) {
			unsigned v = 0;

			sscanf(hex + 2 * j, "%2x", &v);
			name[j] = (char)v;
		}
		name[nlen] = '\0';
		if (memchr(name, '\0', nlen)) {
			free(name); /* a semaphore's gate or slot, or a name the API cannot give */
			continue;
		}
		list[n].name = name;
		list[n].kind = PQgetvalue(r, i, 2)[0] == 't' ? "rw" : "mutex";
		list[n].contenders = (size_t)strtoull(PQgetvalue(r, i, 1), NULL, 10);
		n++;
	}
	PQclear(r);
	*out = list;
	*count = (size_t)n;
	return DLOCK_OK;
}

int dlock_pg_admin_break(dlock_sql_conn *c, const char *name, size_t len, int slots,
                         int64_t deadline, int *broken, dlock_err *err)
{
	char *h = pg_admin_hex(name, len), *sql = h ? malloc(4 * len + 1536) : NULL;
	PGresult *r = NULL;
	int rc;

	*broken = 0;
	if (!sql) {
		free(h);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	/* one statement: the sessions granted the name's key, or a key of one
	 * of its semaphore slots (name NUL "slot" i, dlock_sql_sem_name) now,
	 * never this one */
	sprintf(sql,
	        "WITH n AS (SELECT decode('%s', 'hex') AS b), k AS (SELECT " PG_BREAK_KEYS
	        ") SELECT count(*) FILTER (WHERE pg_terminate_backend(l.pid)) FROM pg_locks l "
	        "WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.granted "
	        "AND l.pid <> pg_backend_pid() AND l.database = (SELECT oid FROM pg_database "
	        "WHERE datname = current_database()) "
	        "AND ((l.classid::bigint << 32) | l.objid::bigint) IN (SELECT k FROM k)",
	        h, slots - 1);
	rc = dlock_pg_query(c, sql, deadline, &r, err);
	free(sql);
	free(h);
	if (rc == DLOCK_OK) {
		*broken = PQntuples(r) == 1 ? atoi(PQgetvalue(r, 0, 0)) : 0;
	}
	PQclear(r);
	return rc;
}
