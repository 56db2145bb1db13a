/* dlock_option.c: the table of the constructors' options and the checks that
 * walk it (see dlock_option.h). No Zend types: the glue converts PHP values
 * and maps the codes returned here to ValueError/TypeError. */
#include "dlock_option.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "dlock_dsn.h"
#include "dlock_name.h"

#define ZK    DLOCK_BACKEND_BIT(DLOCK_BACKEND_ZOOKEEPER)
#define REDIS DLOCK_BACKEND_BIT(DLOCK_BACKEND_REDIS)
#define SQL   (DLOCK_BACKEND_BIT(DLOCK_BACKEND_POSTGRES) | DLOCK_BACKEND_BIT(DLOCK_BACKEND_MYSQL))
#define ALL   DLOCK_BACKENDS_ALL

#define AT(field) offsetof(dlock_target, field)

/* The name of a backend in messages (also of a backend this build left
 * out: its options are still recognised). */
static const char *backend_name(dlock_backend_id id)
{
	return (unsigned)id < DLOCK_BACKENDS ? dlock_backend_names[id].display : "?";
}

/* Replaces *slot, an owned string (zeroed first when secret), by a malloc()ed
 * copy of s[0..len). DLOCK_OK or DLOCK_ENOMEM (*slot unchanged). */
static int replace_string(char **slot, const char *s, size_t len, int secret, dlock_err *err)
{
	char *copy = malloc(len + 1);

	if (!copy) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	memcpy(copy, s, len);
	copy[len] = '\0';
	if (*slot && secret) {
		memset(*slot, 0, strlen(*slot));
	}
	free(*slot);
	*slot = copy;
	return DLOCK_OK;
}

static int set_dsn(dlock_target *t, const char *s, size_t len, dlock_err *err)
{
	dlock_err sub;
	int rc = dlock_dsn_parse(s, len, t, &sub);

	return rc == DLOCK_OK ? DLOCK_OK : dlock_err_set(err, rc, 0, "option \"dsn\": %s", sub.msg);
}

static int set_hosts(dlock_target *t, const char *s, size_t len, dlock_err *err)
{
	dlock_err sub;
	int rc = dlock_hosts_validate(s, len, &sub);

	if (rc != DLOCK_OK) {
		return dlock_err_set(err, rc, 0, "option \"hosts\" %s", sub.msg);
	}
	rc = replace_string(&t->hosts, s, len, 0, err);
	if (rc == DLOCK_OK) {
		t->backend = DLOCK_BACKEND_ZOOKEEPER;
	}
	return rc;
}

static int set_format(dlock_target *t, const char *s, size_t len, dlock_err *err)
{
	static const char *const names[] = {"redisson", "symfony", "laravel"};
	static const char codes[] = {'r', 's', 'l'};
	size_t i;

	for (i = 0; i < sizeof(codes); i++) {
		if (len == strlen(names[i]) && memcmp(s, names[i], len) == 0) {
			t->format = codes[i];
			return DLOCK_OK;
		}
	}
	return dlock_err_set(err, DLOCK_EINVAL, 0,
	                     "option \"format\" must be \"redisson\", \"symfony\" or \"laravel\"");
}

static int set_auth(dlock_target *t, const char *s, size_t len, dlock_err *err)
{
	const char *colon = memchr(s, ':', len);

	if (!colon || colon == s || len > DLOCK_AUTH_MAX || memchr(s, '\0', len)) {
		/* never echo the value: it is a secret */
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "option \"auth\" must be \"user:password\" (digest scheme, at most "
		                     "%d bytes, no NUL)",
		                     DLOCK_AUTH_MAX);
	}
	return replace_string(&t->auth, s, len, 1, err);
}

/* The options. Each row is the whole definition of one option but for the
 * INI entry of its twin (dlock.c) and what the backend does with it. */
static const dlock_option dlock_options[DLOCK_OPTIONS] = {
    {DLOCK_OPT_DSN, "dsn", DLOCK_OT_STRING, 0, 0, NULL, DLOCK_OPTF_WHERE, ALL, NULL, "dlock.dsn",
     DLOCK_OPT_GLUE, set_dsn},
    {DLOCK_OPT_HOSTS, "hosts", DLOCK_OT_STRING, 0, 0, NULL, DLOCK_OPTF_WHERE, ALL, NULL,
     "dlock.hosts", DLOCK_OPT_GLUE, set_hosts},
    {DLOCK_OPT_SESSION_TIMEOUT, "session_timeout", DLOCK_OT_INT, DLOCK_SESSION_TIMEOUT_MIN,
     DLOCK_SESSION_TIMEOUT_MAX, " (milliseconds)", 0, ZK, ", not to @", "dlock.session_timeout",
     AT(session_timeout_ms), NULL},
    {DLOCK_OPT_CONNECT_TIMEOUT, "connect_timeout", DLOCK_OT_SECONDS, 0.001,
     DLOCK_CONNECT_TIMEOUT_MAX, NULL, 0, ALL, NULL, "dlock.connect_timeout", AT(connect_timeout_ms),
     NULL},
    {DLOCK_OPT_LEASE, "lease", DLOCK_OT_SECONDS, DLOCK_LEASE_MIN, DLOCK_LEASE_MAX, NULL, 0, REDIS,
     " (on @ a hold lasts as long as the session)", "dlock.lease", AT(lease_ms), NULL},
    {DLOCK_OPT_MAX_HOLD, "max_hold", DLOCK_OT_SECONDS, 0, DLOCK_TIMEOUT_MAX, NULL, DLOCK_OPTF_CEIL,
     REDIS, " (on @ a hold lasts as long as the session)", "dlock.max_hold", AT(max_hold_ms), NULL},
    {DLOCK_OPT_WAIT_REPLICAS, "wait_replicas", DLOCK_OT_INT, 0, DLOCK_WAIT_REPLICAS_MAX, NULL, 0,
     REDIS, ", not to @", NULL, AT(wait_replicas), NULL},
    {DLOCK_OPT_FORMAT, "format", DLOCK_OT_STRING, 0, 0, NULL, 0, REDIS, ", not to @", NULL,
     DLOCK_OPT_GLUE, set_format},
    {DLOCK_OPT_DATA, "data", DLOCK_OT_STRING, 0, DLOCK_DATA_MAX, NULL, 0, ALL, NULL, NULL,
     DLOCK_OPT_GLUE, NULL},
    {DLOCK_OPT_AUTH, "auth", DLOCK_OT_STRING, 0, 0, NULL, 0, ZK, ", not to @", NULL, DLOCK_OPT_GLUE,
     set_auth},
    {DLOCK_OPT_PASSWORD_FILE, "password_file", DLOCK_OT_STRING, 0, 0, NULL, 0, REDIS | SQL,
     " (ZooKeeper's digest credentials are option \"auth\")", NULL, DLOCK_OPT_GLUE, NULL},
    {DLOCK_OPT_REENTRANT, "reentrant", DLOCK_OT_BOOL, 0, 0, NULL, 0, ALL, NULL, NULL,
     DLOCK_OPT_GLUE, NULL},
    /* every backend parses it; one that cannot deliver revocation (MySQL)
     * refuses it when the lock is made (dlock_handle_set_revocable) */
    {DLOCK_OPT_REVOCABLE, "revocable", DLOCK_OT_BOOL, 0, 0, NULL, 0, ALL, NULL, NULL,
     DLOCK_OPT_GLUE, NULL},
};

const dlock_option *dlock_option_find(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < DLOCK_OPTIONS; i++) {
		if (strlen(dlock_options[i].name) == len && memcmp(dlock_options[i].name, name, len) == 0) {
			return &dlock_options[i];
		}
	}
	return NULL;
}

const dlock_option *dlock_option_get(dlock_option_id id)
{
	return &dlock_options[id];
}

void dlock_option_names(char *buf, size_t size)
{
	size_t i, used = 0;

	if (size == 0) {
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < DLOCK_OPTIONS && used < size; i++) {
		int n = snprintf(buf + used, size - used, "%s%s", i ? ", " : "", dlock_options[i].name);

		used += n > 0 ? (size_t)n : 0;
	}
}

int dlock_option_set_int(const dlock_option *o, int64_t v, dlock_target *t, dlock_err *err)
{
	if ((double)v < o->min || (double)v > o->max) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "option \"%s\" must be between %.0f and %.0f%s",
		                     o->name, o->min, o->max, o->unit ? o->unit : "");
	}
	*(int *)((char *)t + o->offset) = (int)v;
	return DLOCK_OK;
}

int dlock_option_set_seconds(const dlock_option *o, double v, dlock_target *t, dlock_err *err)
{
	int64_t ms;

	if (!isfinite(v) || v < o->min || v > o->max) {
		if (o->min > 0 && o->min < 0.01) {
			return dlock_err_set(err, DLOCK_EINVAL, 0,
			                     "option \"%s\" must be a finite number of seconds greater than 0 "
			                     "and at most %g",
			                     o->name, o->max);
		}
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "option \"%s\" must be a finite number of seconds from %g to %g",
		                     o->name, o->min, o->max);
	}
	ms = (int64_t)(v * 1000.0); /* v >= 0 here: truncation rounds down */
	if ((o->flags & DLOCK_OPTF_CEIL) && (double)ms < v * 1000.0) {
		ms++;
	}
	*(int64_t *)((char *)t + o->offset) = ms;
	return DLOCK_OK;
}

int dlock_option_check_len(const dlock_option *o, size_t len, dlock_err *err)
{
	if (o->max > 0 && (double)len > o->max) {
		return dlock_err_set(err, DLOCK_EINVAL, 0,
		                     "option \"%s\" must be at most %.0f bytes, %zu given", o->name, o->max,
		                     len);
	}
	return DLOCK_OK;
}

/* The message for option o given to backend, which does not accept it:
 * "option "x" applies to A, B and C" ("A only" for one), then o's note with
 * "@" replaced by backend's name. */
static int scope_error(const dlock_option *o, dlock_backend_id backend, dlock_err *err)
{
	char names[128], note[160];
	const char *p;
	size_t used = 0, left = 0, i;
	int count = 0, n;

	names[0] = note[0] = '\0';
	for (i = 0; i < DLOCK_BACKENDS; i++) {
		left += (o->backends & DLOCK_BACKEND_BIT(i)) != 0;
	}
	for (i = 0; i < DLOCK_BACKENDS && used < sizeof(names); i++) {
		if (!(o->backends & DLOCK_BACKEND_BIT(i))) {
			continue;
		}
		n = snprintf(names + used, sizeof(names) - used, "%s%s",
		             count == 0 ? "" : (--left == 1 ? " and " : ", "), backend_name(i));
		used += n > 0 ? (size_t)n : 0;
		count++;
	}
	for (p = o->scope_note ? o->scope_note : "", used = 0; *p && used + 1 < sizeof(note); p++) {
		if (*p == '@') {
			n = snprintf(note + used, sizeof(note) - used, "%s", backend_name(backend));
			used += n > 0 ? (size_t)n : 0;
		} else {
			note[used++] = *p;
			note[used] = '\0';
		}
	}
	return dlock_err_set(err, DLOCK_EINVAL, 0, "option \"%s\" applies to %s%s%s", o->name, names,
	                     count == 1 ? " only" : "", note);
}

int dlock_option_check_scope(const dlock_option *const *given, size_t n, dlock_backend_id backend,
                             dlock_err *err)
{
	const char *where[2] = {NULL, NULL};
	size_t i;

	/* the message names them as it always has: "hosts", then "dsn" */
	for (i = 0; i < n; i++) {
		if (given[i]->flags & DLOCK_OPTF_WHERE) {
			where[given[i]->id == DLOCK_OPT_HOSTS ? 0 : 1] = given[i]->name;
		}
	}
	if (where[0] && where[1]) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must not have both options \"%s\" and \"%s\"",
		                     where[0], where[1]);
	}
	for (i = 0; i < n; i++) {
		if (!(given[i]->backends & DLOCK_BACKEND_BIT(backend))) {
			return scope_error(given[i], backend, err);
		}
	}
	return DLOCK_OK;
}
