/* dlock_redis_admin.c: the operator's side of the Redis backend (the dlock
 * command): every lock whose name starts with a prefix (SCAN, then one
 * script per key that says whether it is a lock, in dlock's or a compatible
 * layout), and the forced break of a lock. */
#include "dlock_redis_admin.h"

#include <stdlib.h>
#include <string.h>

#include "../dlock_dsn.h"
#include "dlock_redis_lock.h"
#include "dlock_redis_pool.h"
#include "dlock_redis_script.h"

/* The keys of lock `name` the admin scripts take: lock, queue, token, channel
 * (kv[0..4)) and the wait and wake prefixes (kv[4], kv[5]); kv[6] is left
 * to the caller. Returns 0 when out of memory (what was made is freed by
 * admin_keys_free). */
static int admin_keys(const char *name, char **kv)
{
	kv[0] = (char *)name;
	kv[1] = dlock_redis_own_key("dlock_queue:", name, "");
	kv[2] = dlock_redis_key("redisson_lock_token:", name, "");
	kv[3] = dlock_redis_key("redisson_lock__channel:", name, "");
	kv[4] = dlock_redis_own_key("dlock_wait:", name, ":");
	kv[5] = dlock_redis_own_key("dlock_wake:", name, ":");
	return kv[1] && kv[2] && kv[3] && kv[4] && kv[5];
}

static void admin_keys_free(char **kv)
{
	int i;

	for (i = 1; i < 6; i++) {
		free(kv[i]);
		kv[i] = NULL;
	}
}

/* The static family name for a script's reply string, or NULL when the key
 * is not a lock. */
static const char *admin_kind(const redisReply *r)
{
	static const char *const kinds[] = {"mutex", "rw", "semaphore", "unknown"};
	size_t i;

	if (!r || r->type != REDIS_REPLY_STRING) {
		return NULL;
	}
	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		if (r->len == strlen(kinds[i]) && memcmp(r->str, kinds[i], r->len) == 0) {
			return kinds[i];
		}
	}
	return NULL;
}

/* prefix with SCAN's glob characters escaped, then "*". NULL: out of memory. */
static char *admin_pattern(const char *prefix, size_t len)
{
	char *p = malloc(len * 2 + 2), *o = p;
	size_t i;

	if (!p) {
		return NULL;
	}
	for (i = 0; i < len; i++) {
		if (strchr("*?[]\\^-", prefix[i])) {
			*o++ = '\\';
		}
		*o++ = prefix[i];
	}
	*o++ = '*';
	*o = '\0';
	return p;
}

/* Asks what key `name` is; adds it to *list when it is a lock. */
static int admin_peek(dlock_redis_conn *c, const dlock_target *t, const char *name,
                      const dlock_interrupt *intr, dlock_lock_entry **list, size_t *n, size_t *cap,
                      dlock_err *err)
{
	char *kv[6] = {NULL};
	redisReply *r = NULL;
	const char *kind;
	int rc;

	if (!admin_keys(name, kv)) {
		admin_keys_free(kv);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	{
		const char *args[4] = {kv[0], kv[1], kv[2], kv[4]};

		rc = dlock_redis_script_call(c, DLOCK_RS_PEEK, 3, 1, args,
		                             dlock_now_ms() + t->connect_timeout_ms, intr, &r, err);
	}
	admin_keys_free(kv);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 3) {
		freeReplyObject(r);
		return dlock_err_set(err, DLOCK_ESERVER, 0, "%s: unexpected reply", c->where);
	}
	if ((kind = admin_kind(r->element[0])) != NULL) {
		if (*n == *cap) {
			dlock_lock_entry *g = realloc(*list, sizeof(**list) * (*cap = *cap * 2 + 16));

			if (!g) {
				freeReplyObject(r);
				return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			}
			*list = g;
		}
		if (!((*list)[*n].name = strdup(name))) {
			freeReplyObject(r);
			return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
		(*list)[*n].kind = kind;
		(*list)[*n].contenders = (size_t)(r->element[1]->integer + r->element[2]->integer);
		(*n)++;
	}
	freeReplyObject(r);
	return DLOCK_OK;
}

static int admin_name_cmp(const void *a, const void *b)
{
	return strcmp(((const dlock_lock_entry *)a)->name, ((const dlock_lock_entry *)b)->name);
}

int dlock_redis_admin_list(const dlock_target *t, const char *prefix, size_t len,
                           const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                           dlock_err *err)
{
	dlock_lock_entry *list = NULL;
	size_t n = 0, cap = 0, seen = 0, i;
	dlock_redis_conn *c = NULL;
	char cursor[32] = "0", *pattern = NULL;
	redisReply *r = NULL;
	int rc = DLOCK_OK;

	*out = NULL;
	*count = 0;
	if (len > DLOCK_REDIS_NAME_MAX || memchr(prefix, '\0', len)) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "must be at most %d bytes without NUL",
		                     DLOCK_REDIS_NAME_MAX);
	}
	if (!(pattern = admin_pattern(prefix, len))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if ((rc = dlock_redis_pool_get(t, &c, err)) != DLOCK_OK) {
		free(pattern);
		return rc;
	}
	do {
		const char *argv[6] = {"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"};
		redisReply *keys;

		rc = dlock_redis_conn_call(c, 6, argv, NULL, dlock_now_ms() + t->connect_timeout_ms, intr,
		                           &r, err);
		if (rc != DLOCK_OK) {
			goto done;
		}
		if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
		    r->element[0]->type != REDIS_REPLY_STRING || r->element[1]->type != REDIS_REPLY_ARRAY ||
		    r->element[0]->len >= sizeof(cursor)) {
			rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: SCAN: %s", c->where,
			                   r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
			goto done;
		}
		memcpy(cursor, r->element[0]->str, r->element[0]->len + 1);
		keys = r->element[1];
		for (i = 0; i < keys->elements; i++) {
			const redisReply *k = keys->element[i];

			if (++seen > DLOCK_REDIS_ADMIN_MAX_KEYS) {
				rc = dlock_err_set(err, DLOCK_EINVAL, 0,
				                   "more than %d keys start with it: give a longer prefix",
				                   DLOCK_REDIS_ADMIN_MAX_KEYS);
				goto done;
			}
			if (k->type != REDIS_REPLY_STRING ||
			    dlock_redis_name_validate(k->str, k->len, NULL) != DLOCK_OK) {
				continue; /* the backend's own keys, and names no lock can have */
			}
			if ((rc = admin_peek(c, t, k->str, intr, &list, &n, &cap, err)) != DLOCK_OK) {
				goto done;
			}
		}
		freeReplyObject(r);
		r = NULL;
	} while (strcmp(cursor, "0") != 0);
	qsort(list, n, sizeof(*list), admin_name_cmp);
	*out = list;
	*count = n;
	list = NULL;
	n = 0;
done:
	if (r) {
		freeReplyObject(r);
	}
	dlock_redis_pool_put(c);
	dlock_lock_entries_free(list, n);
	free(pattern);
	return rc;
}

int dlock_redis_admin_break(const dlock_target *t, const char *path, size_t len,
                            const dlock_interrupt *intr, int *broken, dlock_err *err)
{
	dlock_redis_conn *c = NULL;
	char *kv[6] = {NULL}, ttl[24];
	redisReply *r = NULL;
	int rc;

	*broken = 0;
	if ((rc = dlock_redis_name_validate(path, len, err)) != DLOCK_OK) {
		return rc;
	}
	if (!admin_keys(path, kv)) {
		admin_keys_free(kv);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	snprintf(ttl, sizeof(ttl), "%d", DLOCK_REDIS_WAIT_TTL_MS);
	if ((rc = dlock_redis_pool_get(t, &c, err)) == DLOCK_OK) {
		const char *args[7] = {kv[0], kv[1], kv[2], kv[3], kv[4], kv[5], ttl};

		rc = dlock_redis_script_call(c, DLOCK_RS_BREAK, 4, 3, args,
		                             dlock_now_ms() + t->connect_timeout_ms, intr, &r, err);
		dlock_redis_pool_put(c);
	}
	admin_keys_free(kv);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 ||
	    r->element[1]->type != REDIS_REPLY_INTEGER) {
		rc = dlock_err_set(err, DLOCK_ESERVER, 0, "unexpected reply to the break script");
	} else {
		*broken = (int)r->element[1]->integer;
	}
	freeReplyObject(r);
	return rc;
}
