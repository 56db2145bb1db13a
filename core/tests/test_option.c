/* test_option.c: checks of the options table (dlock_option.c): every row is
 * well formed, lookups, ranges and their messages, which backend takes
 * which option. Pure: no server. */
#include <string.h>

#include "test_core.h"

/* Every row: its id is its index, a name, a type, stored somewhere, some backend. */
static void test_option_rows(void)
{
	char names[256];
	int i;

	for (i = 0; i < DLOCK_OPTIONS; i++) {
		const dlock_option *o = dlock_option_get((dlock_option_id)i);
		int numeric = o->type == DLOCK_OT_INT || o->type == DLOCK_OT_SECONDS;

		CHECK(o->id == (dlock_option_id)i, "row %d has id %d", i, (int)o->id);
		CHECK(o->name && o->name[0] && dlock_option_find(o->name, strlen(o->name)) == o,
		      "row %d is found by its name", i);
		CHECK(o->backends != 0 && (o->backends & ~DLOCK_BACKENDS_ALL) == 0,
		      "option %s: backends 0x%x", o->name, o->backends);
		CHECK(!numeric || (o->offset != DLOCK_OPT_GLUE && o->min <= o->max),
		      "numeric option %s has a field and a range", o->name);
		CHECK(numeric || o->offset == DLOCK_OPT_GLUE, "option %s: no field", o->name);
		CHECK(o->backends == DLOCK_BACKENDS_ALL || o->scope_note,
		      "option %s of some backends says why", o->name);
	}
	dlock_option_names(names, sizeof(names));
	CHECK(strcmp(names,
	             "dsn, hosts, session_timeout, connect_timeout, lease, max_hold, "
	             "wait_replicas, format, data, auth, password_file, reentrant, revocable") == 0,
	      "names: %s", names);
	CHECK(!dlock_option_find("host", 4) && !dlock_option_find("hostsx", 6) &&
	          !dlock_option_find("", 0),
	      "no option by a prefix, a longer name or an empty one");
	CHECK(dlock_option_find("lease\0x", 5) == dlock_option_get(DLOCK_OPT_LEASE),
	      "found by its length");
}

/* Values: stored where the row says, ranges refused with the message the
 * PHP tests expect (tests/00_api/004). */
static void test_option_values(void)
{
	dlock_target t;
	dlock_err e;
	const dlock_option *st = dlock_option_get(DLOCK_OPT_SESSION_TIMEOUT);
	const dlock_option *ct = dlock_option_get(DLOCK_OPT_CONNECT_TIMEOUT);
	const dlock_option *mh = dlock_option_get(DLOCK_OPT_MAX_HOLD);
	const dlock_option *fmt = dlock_option_get(DLOCK_OPT_FORMAT);
	const dlock_option *au = dlock_option_get(DLOCK_OPT_AUTH);

	memset(&t, 0, sizeof(t));
	CHECK(dlock_option_set_int(st, 2500, &t, &e) == DLOCK_OK && t.session_timeout_ms == 2500,
	      "session_timeout stored");
	CHECK(dlock_option_set_int(st, 10, &t, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg, "option \"session_timeout\" must be between 100 and 3600000 "
	                        "(milliseconds)") == 0 &&
	          t.session_timeout_ms == 2500,
	      "session_timeout range: %s", e.msg);
	CHECK(dlock_option_set_int(st, INT64_MAX, &t, &e) == DLOCK_EINVAL, "huge session_timeout");
	CHECK(dlock_option_set_seconds(ct, 0.25, &t, &e) == DLOCK_OK && t.connect_timeout_ms == 250,
	      "connect_timeout in ms");
	CHECK(dlock_option_set_seconds(ct, 0, &t, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg, "option \"connect_timeout\" must be a finite number of seconds "
	                        "greater than 0 and at most 3600") == 0,
	      "connect_timeout range: %s", e.msg);
	CHECK(dlock_option_set_seconds(mh, 0.0001, &t, &e) == DLOCK_OK && t.max_hold_ms == 1,
	      "max_hold rounded up (%lld)", (long long)t.max_hold_ms);
	CHECK(dlock_option_set_seconds(mh, -1, &t, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg, "option \"max_hold\" must be a finite number of seconds from 0 to "
	                        "3.1536e+07") == 0,
	      "max_hold range: %s", e.msg);
	CHECK(fmt->set(&t, "laravel", 7, &e) == DLOCK_OK && t.format == 'l', "format laravel");
	CHECK(fmt->set(&t, "lara", 4, &e) == DLOCK_EINVAL && t.format == 'l', "format prefix");
	CHECK(au->set(&t, "u:secret", 8, &e) == DLOCK_OK && strcmp(t.auth, "u:secret") == 0,
	      "auth stored");
	CHECK(au->set(&t, ":secret", 7, &e) == DLOCK_EINVAL && !strstr(e.msg, "secret"),
	      "auth without a user, not echoed: %s", e.msg);
	CHECK(dlock_option_check_len(dlock_option_get(DLOCK_OPT_DATA), DLOCK_DATA_MAX + 1, &e) ==
	          DLOCK_EINVAL,
	      "data too long");
	dlock_target_clear(&t);
}

/* Which backend takes which option, and what the message says. */
static void test_option_scope(void)
{
	const dlock_option *g[3];
	dlock_err e;

	g[0] = dlock_option_get(DLOCK_OPT_CONNECT_TIMEOUT);
	g[1] = dlock_option_get(DLOCK_OPT_LEASE);
	CHECK(dlock_option_check_scope(g, 2, DLOCK_BACKEND_REDIS, &e) == DLOCK_OK, "lease on Redis");
	CHECK(dlock_option_check_scope(g, 2, DLOCK_BACKEND_MYSQL, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg,
	                 "option \"lease\" applies to Redis only (on MySQL/MariaDB a hold lasts as "
	                 "long as the session)") == 0,
	      "lease on MySQL: %s", e.msg);
	g[1] = dlock_option_get(DLOCK_OPT_PASSWORD_FILE);
	CHECK(dlock_option_check_scope(g, 2, DLOCK_BACKEND_ZOOKEEPER, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg,
	                 "option \"password_file\" applies to Redis, PostgreSQL and MySQL/MariaDB "
	                 "(ZooKeeper's digest credentials are option \"auth\")") == 0,
	      "password_file on ZooKeeper: %s", e.msg);
	g[1] = dlock_option_get(DLOCK_OPT_DSN);
	g[2] = dlock_option_get(DLOCK_OPT_HOSTS);
	CHECK(dlock_option_check_scope(g, 3, DLOCK_BACKEND_ZOOKEEPER, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg, "must not have both options \"hosts\" and \"dsn\"") == 0,
	      "dsn and hosts: %s", e.msg);
	g[0] = dlock_option_get(DLOCK_OPT_AUTH);
	CHECK(dlock_option_check_scope(g, 1, DLOCK_BACKEND_POSTGRES, &e) == DLOCK_EINVAL &&
	          strcmp(e.msg, "option \"auth\" applies to ZooKeeper only, not to PostgreSQL") == 0,
	      "auth on PostgreSQL: %s", e.msg);
}

void test_options(void)
{
	test_option_rows();
	test_option_values();
	test_option_scope();
}
