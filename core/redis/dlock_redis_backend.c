/* dlock_redis_backend.c: the Redis backend's side of the seam: the
 * operations table, participants(), and the process-wide resources
 * (connections, the watchdog) for phpinfo and shutdown. */
#include "../dlock_backend.h"

#include <stdlib.h>
#include <string.h>

#include "../dlock_dsn.h"
#include "dlock_redis_admin.h"
#include "dlock_redis_lock.h"
#include "dlock_redis_pool.h"
#include "dlock_redis_revoke.h"
#include "dlock_redis_script.h"
#include "dlock_redis_watchdog.h"

/* Holders, then live waiters in arrival order. */
static int rb_participants(const dlock_target *t, dlock_kind kind, int max_leases, const char *path,
                           size_t len, const dlock_interrupt *intr, dlock_participant **out,
                           size_t *count, dlock_err *err)
{
	char *k_queue = NULL, *k_token = NULL, *p_wait = NULL;
	dlock_participant *list = NULL;
	dlock_redis_conn *c = NULL;
	redisReply *r = NULL;
	size_t i, n = 0;
	int rc, waiting = 0;

	char fmt[16];

	if (kind == DLOCK_KIND_READ || kind == DLOCK_KIND_WRITE) {
		snprintf(fmt, sizeof(fmt), "wr");
	} else if (kind == DLOCK_KIND_SEMAPHORE) {
		snprintf(fmt, sizeof(fmt), "z%d", max_leases);
	} else {
		snprintf(fmt, sizeof(fmt), "%c", t->format == 's' || t->format == 'l' ? t->format : 'r');
	}
	if ((rc = dlock_redis_name_validate(path, len, err)) != DLOCK_OK) {
		return rc;
	}
	if ((rc = dlock_redis_pool_get(t, &c, err)) != DLOCK_OK) {
		return rc;
	}
	k_queue = dlock_redis_own_key("dlock_queue:", path, "");
	k_token = dlock_redis_key("redisson_lock_token:", path, "");
	p_wait = dlock_redis_own_key("dlock_wait:", path, ":");
	if (!k_queue || !k_token || !p_wait) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	{
		const char *kv[5] = {path, k_queue, k_token, p_wait, fmt};

		rc = dlock_redis_script_call(c, DLOCK_RS_LIST, 3, 2, kv,
		                             dlock_now_ms() + t->connect_timeout_ms, intr, &r, err);
	}
	if (rc != DLOCK_OK) {
		goto done;
	}
	if (r->type != REDIS_REPLY_ARRAY) {
		rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: unexpected reply", c->where);
		goto done;
	}
	if (!(list = calloc(r->elements + 1, sizeof(*list)))) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < r->elements; i++) {
		redisReply *e = r->element[i];

		if (e->type != REDIS_REPLY_STRING) {
			continue;
		}
		if (!waiting && e->len == 0) {
			waiting = 1;
			continue;
		}
		list[n].writer = 1;
		if (fmt[0] == 'w' && e->len > 2 && e->str[1] == ':') {
			list[n].writer = e->str[0] == 'w'; /* "r:<field>" or "w:<field>" */
			list[n].name = dlock_strndup(e->str + 2, e->len - 2);
		} else {
			list[n].name = dlock_strndup(e->str, e->len);
		}
		list[n].data = dlock_strndup("", 0);
		if (!list[n].name || !list[n].data) {
			n++;
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
		list[n].holder = !waiting;
		if (!waiting && i + 1 < r->elements && r->element[i + 1]->type == REDIS_REPLY_STRING) {
			list[n].token = strtoll(r->element[i + 1]->str, NULL, 10);
			i++;
		}
		n++;
	}
done:
	if (c) {
		dlock_redis_pool_put(c);
	}
	if (rc != DLOCK_OK) {
		dlock_participants_free(list, n);
		list = NULL;
		n = 0;
	}
	if (r) {
		freeReplyObject(r);
	}
	free(k_queue);
	free(k_token);
	free(p_wait);
	*out = list;
	*count = n;
	return rc;
}

static unsigned rb_connections(void)
{
	return dlock_redis_pool_size() + dlock_redis_watchdog_connections() +
	       dlock_redis_revoke_connections();
}

/* Revocation requests: the holders as participants() lists them, each sent
 * its field on the lock's revocation channel. */
static int rb_revoke_request(const dlock_target *t, dlock_kind kind, int max_leases,
                             const char *path, size_t len, const dlock_interrupt *intr, int *count,
                             dlock_err *err)
{
	dlock_participant *list = NULL;
	size_t n = 0;
	int rc;

	*count = 0;
	rc = rb_participants(t, kind, max_leases, path, len, intr, &list, &n, err);
	if (rc == DLOCK_OK && n > 0) {
		rc = dlock_redis_revoke_publish(t, path, list, n, intr, count, err);
	}
	dlock_participants_free(list, n);
	return rc;
}

static const char *rb_library(void)
{
#define RB_STR2(x) #x
#define RB_STR(x)  RB_STR2(x)
	return "hiredis " RB_STR(HIREDIS_MAJOR) "." RB_STR(HIREDIS_MINOR) "." RB_STR(HIREDIS_PATCH);
}

static void rb_shutdown(int final)
{
	dlock_redis_watchdog_stop(final);
	dlock_redis_revoke_stop(final);
	dlock_redis_pool_shutdown();
}

/* Request end (persistent connections): a subscriber lives only while some
 * revocable hold needs it; the pool and the watchdog stay. */
static void rb_request_end(void)
{
	dlock_redis_revoke_stop(0);
}

const dlock_backend_ops dlock_redis_backend = {
    .lock_new = dlock_redis_lock_new,
    .lock_free = dlock_redis_lock_free,
    .acquire = dlock_redis_lock_acquire,
    .reenter = dlock_redis_lock_reenter,
    .release = dlock_redis_lock_release,
    .forget = dlock_redis_lock_forget,
    .holding = dlock_redis_lock_holding,
    .held = dlock_redis_lock_held,
    .verify = dlock_redis_lock_verify,
    .token = dlock_redis_lock_token,
    .self_conflict = dlock_redis_lock_self_conflict,
    .participants = rb_participants,
    .connections = rb_connections,
    .shutdown = rb_shutdown,
    .token_fetch = NULL, /* the token comes with the grant */
    .list_locks = dlock_redis_admin_list,
    .force_break = dlock_redis_admin_break,
    .library = rb_library,
    .log_configure = NULL,
    .revoke_request = rb_revoke_request,
    .request_end = rb_request_end,
};
