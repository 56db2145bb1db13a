/* dlock_redis_pool.c: the process's Redis connections and UUID. */
#include "dlock_redis_pool.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../dlock_name.h"

typedef struct pool_entry {
	struct pool_entry *next;
	dlock_redis_conn conn;
} pool_entry;

static pool_entry *pool;
static char pool_uuid[DLOCK_GUID_LEN + 1];
static pid_t pool_uuid_pid;

int dlock_redis_pool_get(const dlock_target *t, dlock_redis_conn **out, dlock_err *err)
{
	pool_entry *e;
	int rc;

	for (e = pool; e; e = e->next) {
		if (!e->conn.busy && dlock_redis_conn_matches(&e->conn, t)) {
			e->conn.cfg.connect_timeout_ms = t->connect_timeout_ms; /* the caller's, this time */
			e->conn.busy = 1;
			*out = &e->conn;
			if (e->conn.cfg.sentinels && e->conn.ctx) {
				char host[256];
				int port;

				/* a graceful fail-over leaves the old master answering for
				 * seconds: every call goes where the sentinels point now (the
				 * answer or its absence only decides whether to reconnect) */
				dlock_redis_sentinel_follow(&e->conn, dlock_now_ms() + t->connect_timeout_ms, host,
				                            sizeof(host), &port, NULL);
			}
			return DLOCK_OK;
		}
	}
	if (!(e = calloc(1, sizeof(*e)))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	if ((rc = dlock_redis_conn_init(&e->conn, t, err)) != DLOCK_OK) {
		free(e);
		return rc;
	}
	e->conn.busy = 1;
	e->next = pool;
	pool = e;
	*out = &e->conn;
	return DLOCK_OK;
}

void dlock_redis_pool_put(dlock_redis_conn *c)
{
	pool_entry **p, *e, *spare = NULL;

	c->busy = 0;
	for (e = pool; e; e = e->next) {
		if (&e->conn != c && !e->conn.busy && dlock_redis_conn_matches(&e->conn, &c->cfg)) {
			spare = e;
			break;
		}
	}
	if (!spare) {
		return;
	}
	/* two idle connections to one server: a signal handler's call ended
	 * (or the call it interrupted did); keep one */
	for (p = &pool; *p; p = &(*p)->next) {
		if (&(*p)->conn == c) {
			e = *p;
			*p = e->next;
			dlock_redis_conn_clear(&e->conn);
			free(e);
			return;
		}
	}
}

const char *dlock_redis_process_id(void)
{
	if (pool_uuid_pid != getpid() || !pool_uuid[0]) {
		if (dlock_guid(pool_uuid, NULL) != DLOCK_OK) {
			/* no randomness: still unique per process on this host */
			snprintf(pool_uuid, sizeof(pool_uuid), "%08lx-0000-4000-8000-%012lx",
			         (unsigned long)getpid(), (unsigned long)dlock_now_ms());
		}
		pool_uuid_pid = getpid();
	}
	return pool_uuid;
}

unsigned dlock_redis_pool_size(void)
{
	unsigned n = 0;
	pool_entry *e;

	for (e = pool; e; e = e->next) {
		n += e->conn.ctx != NULL;
	}
	return n;
}

void dlock_redis_pool_shutdown(void)
{
	while (pool) {
		pool_entry *e = pool;

		pool = e->next;
		dlock_redis_conn_clear(&e->conn);
		free(e);
	}
}

int dlock_redis_sentinel_follow(dlock_redis_conn *c, int64_t limit, char *host, size_t size,
                                int *port, dlock_err *err)
{
	int rc;

	if (!c->cfg.sentinels) {
		return DLOCK_OK;
	}
	rc = dlock_redis_sentinel_master(&c->cfg, limit, host, size, port, err);
	if (c->ctx && (rc != DLOCK_OK || !c->ctx->tcp.host || strcmp(c->ctx->tcp.host, host) != 0 ||
	               c->ctx->tcp.port != *port)) {
		/* the socket may be on a demoted master: the next call reconnects
		 * through the sentinels (and checks ROLE there) */
		dlock_redis_conn_drop(c);
	}
	return rc;
}
