/* dlock_zk_revoke.c: revocation on ZooKeeper (see dlock_zk_revoke.h). The
 * holder's side is a self-renewing data watch on its own node whose context
 * (struct zk_revoke_watch) belongs to the client: created when armed, freed
 * by its last completion (the node gone, or a failed request). Everything on
 * the completion thread is asynchronous and short: read the data, raise the
 * cell (atomics only), re-arm. The requester's side lists the queue and sets
 * the holders' data, waited for with the caller's deadline. Known gap: a
 * session closed while a watch is armed (the hold lost with its session)
 * drops the context unfreed (the client frees its watchers without calling
 * them): a few dozen bytes per lost revocable hold. */
#include "dlock_zk_revoke.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_zk_call.h"
#include "dlock_zk_err.h"
#include "dlock_zk_queue.h"

/* One armed watch: owned by the client's callbacks. */
typedef struct zk_revoke_watch {
	dlock_revoke *cell; /* reference, dropped with the watch */
	char node[];        /* the watched node's path */
} zk_revoke_watch;

static void revoke_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx);

static void revoke_end(zk_revoke_watch *w)
{
	dlock_revoke_put(w->cell);
	free(w);
}

/* getData's completion: the node's data now, and whether the watch is set. */
static void revoke_read(int rc, const char *value, int value_len, const struct Stat *stat,
                        const void *data)
{
	zk_revoke_watch *w = (zk_revoke_watch *)data;

	(void)stat;
	if (rc != ZOK) {
		revoke_end(w); /* gone (no watch left), or the request failed: no watch */
		return;
	}
	if (value && value_len == (int)DLOCK_REVOKE_MESSAGE_LEN &&
	    memcmp(value, DLOCK_REVOKE_MESSAGE, DLOCK_REVOKE_MESSAGE_LEN) == 0) {
		dlock_revoke_raise(w->cell);
	}
	/* the watch is armed: its event comes to revoke_watcher */
}

static void revoke_send(zhandle_t *zh, zk_revoke_watch *w)
{
	if (zoo_awget(zh, w->node, revoke_watcher, w, revoke_read, w) != ZOK) {
		revoke_end(w); /* refused at once (closing handle): the completion will not run */
	}
}

static void revoke_watcher(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
	zk_revoke_watch *w = ctx;

	(void)state;
	(void)path;
	if (type == ZOO_SESSION_EVENT) {
		return; /* session events reach every armed watcher, which stays armed */
	}
	if (type == ZOO_CHANGED_EVENT) {
		revoke_send(zh, w); /* read the new data and watch again */
		return;
	}
	revoke_end(w); /* deleted (released, or expired with the session) */
}

void dlock_zk_revoke_arm(dlock_session *s, const char *node, dlock_revoke *cell)
{
	size_t len = strlen(node);
	zhandle_t *zh = dlock_session_zh(s);
	zk_revoke_watch *w;

	if (!zh || !cell || !(w = malloc(sizeof(*w) + len + 1))) {
		return;
	}
	memcpy(w->node, node, len + 1);
	dlock_revoke_ref(cell);
	w->cell = cell;
	revoke_send(zh, w);
}

int dlock_zk_revoke_request(dlock_session *s, dlock_kind kind, int max_leases, const char *path,
                            int64_t timeout_ms, const dlock_interrupt *intr, int *count,
                            dlock_err *err)
{
	int64_t deadline = dlock_now_ms() + timeout_ms;
	dlock_participant *list = NULL;
	dlock_call **sets = NULL;
	size_t n = 0, i;
	char *full = NULL;
	int rc;

	*count = 0;
	rc = dlock_queue_list(s, kind, max_leases, path, timeout_ms, intr, &list, &n, err);
	if (rc != DLOCK_OK || n == 0) {
		goto done;
	}
	sets = calloc(n, sizeof(*sets));
	full = malloc(strlen(path) + 512);
	if (!sets || !full) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) { /* every holder's setData on its way at once */
		if (!list[i].holder || strlen(list[i].name) >= 500) {
			continue;
		}
		strcpy(full, path);
		strcat(full, "/");
		strcat(full, list[i].name);
		if (!(sets[i] = dlock_call_set(s, full, DLOCK_REVOKE_MESSAGE, DLOCK_REVOKE_MESSAGE_LEN))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < n; i++) {
		int zrc;

		if (!sets[i]) {
			continue;
		}
		if ((rc = dlock_call_wait(sets[i], deadline, intr)) != DLOCK_OK) {
			if (rc == DLOCK_ETIMEDOUT) {
				rc = dlock_err_set(err, DLOCK_ECONNLOSS, ZOPERATIONTIMEOUT,
				                   "cannot request revocation of %.128s: no answer from "
				                   "ZooKeeper within connect_timeout (%.3f s)",
				                   path, (double)timeout_ms / 1000.0);
			} else {
				rc = dlock_call_failed(rc, "revocation request", path, err);
			}
			goto done;
		}
		zrc = sets[i]->rc;
		if (zrc == ZOK) {
			(*count)++;
		} else if (zrc != ZNONODE) { /* ZNONODE: released meanwhile, nobody to ask */
			rc = dlock_err_set(err, dlock_zk_status(zrc), zrc,
			                   "cannot request revocation of %.128s/%.128s: %s", path, list[i].name,
			                   zerror(zrc));
			goto done;
		}
	}
done:
	for (i = 0; sets && i < n; i++) {
		dlock_call_release(sets[i]);
	}
	free(sets);
	free(full);
	dlock_queue_free(list, n);
	return rc;
}
