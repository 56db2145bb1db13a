/* dlock_zk_queue.c: lists a lock's contenders in queue order with their data.
 * Every request is sent asynchronously and waited for with one deadline (the
 * caller's connect_timeout for the whole listing) and the caller's interrupt
 * hook, as the lock path does: a stalled server or a signal never holds the
 * caller longer. The reads of the nodes are pipelined (sent together). */
#include "dlock_zk_queue.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_zk_call.h"
#include "dlock_zk_path.h"
#include "dlock_zk_rule.h"
#include "dlock_zk_err.h"

void dlock_queue_free(dlock_participant *p, size_t count)
{
	dlock_participants_free(p, count);
}

/* Describes in err a wait for a request about path that did not complete
 * (dlock_call_wait's codes other than DLOCK_OK) and returns the code: no answer
 * by the deadline is a connection problem, not "not held". */
static int queue_wait_failed(int rc, int64_t timeout_ms, const char *path, dlock_err *err)
{
	if (rc == DLOCK_ETIMEDOUT) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZOPERATIONTIMEOUT,
		                     "cannot list %.128s: no answer from ZooKeeper within "
		                     "connect_timeout (%.3f s)",
		                     path, (double)timeout_ms / 1000.0);
	}
	return dlock_call_failed(rc, "listing", path, err);
}

/* Fills p from a done get of node `name`. Returns DLOCK_OK or DLOCK_ENOMEM. */
static int queue_entry(dlock_participant *p, const dlock_entry *e, dlock_call *c, dlock_err *err)
{
	p->name = strdup(e->name);
	p->data = c->data;
	c->data = NULL;
	if (!p->name) {
		free(p->data);
		p->data = NULL;
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	p->data_len = c->data_len;
	p->token = c->stat.czxid;
	p->owner = c->stat.ephemeralOwner;
	p->since = c->stat.ctime;
	p->writer = e->writer;
	return DLOCK_OK;
}

int dlock_queue_list(dlock_session *s, dlock_kind kind, int max_leases, const char *path,
                     int64_t timeout_ms, const dlock_interrupt *intr, dlock_participant **out,
                     size_t *count, dlock_err *err)
{
	int64_t deadline = dlock_now_ms() + timeout_ms;
	struct String_vector kids = {0, NULL};
	dlock_entry *order = NULL;
	dlock_participant *list = NULL;
	dlock_call *c, **gets = NULL;
	char *full = NULL;
	size_t n = 0, m = 0, i;
	int zrc, rc = DLOCK_OK;

	*out = NULL;
	*count = 0;
	if (dlock_session_health(s) == DLOCK_HEALTH_UNCERTAIN &&
	    (rc = dlock_call_reconnect(s, deadline, intr, err)) != DLOCK_OK) {
		return rc;
	}
	if (!dlock_session_zh(s)) {
		return dlock_err_set(err, DLOCK_ESESSION, ZSESSIONEXPIRED, "session expired");
	}
	c = dlock_call_children(s, path);
	rc = dlock_call_wait(c, deadline, intr);
	zrc = c ? c->rc : 0;
	if (rc == DLOCK_OK && zrc == ZOK) {
		kids = dlock_call_take_kids(c);
	}
	dlock_call_release(c);
	if (rc != DLOCK_OK) {
		return queue_wait_failed(rc, timeout_ms, path, err);
	}
	if (zrc == ZNONODE) {
		return DLOCK_OK;
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot list %.128s: %s", path,
		                     zerror(zrc));
	}
	order = calloc((size_t)kids.count + 1, sizeof(*order));
	list = calloc((size_t)kids.count + 1, sizeof(*list));
	gets = calloc((size_t)kids.count + 1, sizeof(*gets));
	full = malloc(strlen(path) + 512);
	if (!order || !list || !gets || !full) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < (size_t)kids.count; i++) {
		if (strlen(kids.data[i]) < 500 && dlock_rule_parse(kind, kids.data[i], &order[n])) {
			n++;
		}
	}
	dlock_rule_sort(order, n);
	for (i = 0; i < n; i++) { /* all reads on their way at once */
		strcpy(full, path);
		strcat(full, "/");
		strcat(full, order[i].name);
		if (!(gets[i] = dlock_call_get(s, full))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
	}
	for (i = 0; i < n; i++) {
		rc = dlock_call_wait(gets[i], deadline, intr);
		if (rc != DLOCK_OK) {
			rc = queue_wait_failed(rc, timeout_ms, path, err);
			goto done;
		}
		zrc = gets[i]->rc;
		if (zrc == ZNONODE) {
			continue; /* left while we read */
		}
		if (zrc != ZOK) {
			rc = dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot read %.128s/%.128s: %s",
			                   path, order[i].name, zerror(zrc));
			goto done;
		}
		if ((rc = queue_entry(&list[m], &order[i], gets[i], err)) != DLOCK_OK) {
			goto done;
		}
		list[m].holder = dlock_rule_holds(kind, max_leases, order, n, i);
		m++;
	}
	*out = list;
	*count = m;
	list = NULL;
done:
	for (i = 0; gets && i < n; i++) {
		dlock_call_release(gets[i]); /* one given up on is freed by its completion */
	}
	dlock_queue_free(list, m);
	free(gets);
	free(order);
	free(full);
	deallocate_String_vector(&kids);
	return rc;
}
