/* dlock_my_admin.c: the operator's side of the MySQL/MariaDB driver (the
 * dlock command). GET_LOCK names are the lock names (qualified by the
 * database, hashed when long: dlock_my.c), but the server lists its user
 * locks only through performance_schema (MySQL) or a plugin (MariaDB), so a
 * listing reads the names the token table knows and asks IS_USED_LOCK of
 * each. A forced break ends the holder's session (KILL CONNECTION). */
#include "dlock_my_admin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlock_my_conn.h"

/* X'<hex of s[0..len)>' into a new string; NULL when out of memory. */
static char *my_admin_hex(const char *s, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	char *h = malloc(2 * len + 4), *o = h;
	size_t i;

	if (!h) {
		return NULL;
	}
	*o++ = 'X';
	*o++ = '\'';
	for (i = 0; i < len; i++) {
		*o++ = digits[(unsigned char)s[i] >> 4];
		*o++ = digits[(unsigned char)s[i] & 15];
	}
	*o++ = '\'';
	*o = '\0';
	return h;
}

/* The entries of text's hex lines (each a name) into *out. */
static int my_admin_entries(const char *text, dlock_lock_entry **out, size_t *count, dlock_err *err)
{
	dlock_lock_entry *list = NULL;
	size_t n = 0, lines = 0, i;
	const char *p;

	for (p = text; *p; p++) {
		lines += *p == '\n';
	}
	if (!(list = calloc(lines + 1, sizeof(*list)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t hl = (size_t)(nl - p), nlen = hl / 2;
		char *name = malloc(nlen + 1);

		if (!name) {
			dlock_lock_entries_free(list, n);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		for (i = 0; i < nlen; i++) {
			unsigned v = 0;

			sscanf(p + 2 * i, "%2x", &v);
			name[i] = (char)v;
		}
		name[nlen] = '\0';
		list[n].name = name;
		list[n].kind = "mutex"; /* GET_LOCK has no shared mode */
		list[n].contenders = 1;
		n++;
		p = nl + 1;
	}
	*out = list;
	*count = n;
	return DLOCK_OK;
}

int dlock_my_admin_list(dlock_sql_conn *c, const char *prefix, size_t len, int64_t deadline,
                        dlock_lock_entry **out, size_t *count, dlock_err *err)
{
	const char *db = c->cfg.dbname ? c->cfg.dbname : "";
	size_t dlen = strlen(db);
	char *qual = malloc(dlen + 2), *dbhex = NULL, *phex = my_admin_hex(prefix, len), *sql = NULL;
	dlock_my_query q;
	int rc;

	*out = NULL;
	*count = 0;
	if (qual) {
		memcpy(qual, db, dlen);
		qual[dlen] = '.';
		dbhex = my_admin_hex(qual, dlen + 1);
	}
	if (!dbhex || !phex || !(sql = malloc(strlen(dbhex) + strlen(phex) + 512))) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	/* the server lock name as dlock_my.c makes it, per row */
	sprintf(sql,
	        "SELECT HEX(name) FROM (SELECT name, CONCAT(%s, name) AS q FROM " DLOCK_SQL_TOKEN_TABLE
	        " WHERE LEFT(name, %zu) = %s) t WHERE IS_USED_LOCK(IF(LENGTH(q) <= 64, q, "
	        "CONCAT('dlock:', LEFT(SHA2(q, 256), 58)))) IS NOT NULL ORDER BY name",
	        dbhex, len, phex);
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.len = (unsigned long)strlen(sql);
	q.want_text = 1;
	rc = dlock_my_exec(c, &q, deadline, "list", err);
	if (rc == DLOCK_OK) {
		rc = q.text ? my_admin_entries(q.text, out, count, err)
		            : dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	free(q.text);
done:
	free(sql);
	free(qual);
	free(dbhex);
	free(phex);
	return rc;
}

int dlock_my_admin_break(dlock_sql_conn *c, const char *name, size_t len, int slots,
                         int64_t deadline, int *broken, dlock_err *err)
{
	char *expr = dlock_my_lock_name_sql(c, name, len), *sql = NULL;
	dlock_my_query q;
	int rc;

	(void)slots; /* no semaphores on this driver (no notifications): no slots */
	*broken = 0;
	if (!expr || !(sql = malloc(strlen(expr) + 64))) {
		free(expr);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	sprintf(sql, "SELECT IS_USED_LOCK(%s)", expr);
	memset(&q, 0, sizeof(q));
	q.sql = sql;
	q.len = (unsigned long)strlen(sql);
	q.nv = 1;
	rc = dlock_my_exec(c, &q, deadline, "holder", err);
	if (rc == DLOCK_OK && q.rows > 0 && !q.isnull[0] && q.v[0] != c->id) {
		int64_t holder = q.v[0];

		sprintf(sql, "KILL CONNECTION %lld", (long long)holder);
		memset(&q, 0, sizeof(q));
		q.sql = sql;
		q.len = (unsigned long)strlen(sql);
		rc = dlock_my_exec(c, &q, deadline, "break", err);
		if (rc == DLOCK_OK) {
			*broken = 1;
		}
	}
	free(sql);
	free(expr);
	return rc;
}
