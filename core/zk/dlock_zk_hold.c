/* dlock_zk_hold.c: having a hold: release (one hold or all), the checks behind
 * isAcquired() and checkHeld(), the contender's lifetime, and accessors. */
#include <stdlib.h>
#include <string.h>

#include "../dlock_backend.h"
#include "dlock_zk_call.h"
#include "../dlock_fault.h"
#include "dlock_zk_lock_int.h"
#include "dlock_zk_err.h"

int dlock_lock_new(dlock_kind kind, int max_leases, const char *path, size_t len, dlock_lock **out,
                   dlock_err *err)
{
	dlock_lock *l;
	int rc;

	*out = NULL;
	rc = dlock_path_validate(path, len, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (kind == DLOCK_KIND_SEMAPHORE && max_leases < 1) {
		return dlock_err_set(err, DLOCK_EINVAL, 0, "max leases must be at least 1");
	}
	l = calloc(1, sizeof(*l));
	if (!l || !(l->path = strndup(path, len))) {
		free(l);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	l->kind = kind;
	l->max_leases = kind == DLOCK_KIND_SEMAPHORE ? max_leases : 1;
	*out = l;
	return DLOCK_OK;
}

void dlock_hold_unwatch(dlock_lock *l)
{
	size_t i;

	for (i = 0; i < l->nwatch; i++) {
		free(l->watch[i]);
	}
	free(l->watch);
	l->watch = NULL;
	l->nwatch = 0;
}

/* Forgets the node and the session reference without touching the server. */
void dlock_hold_forget(dlock_lock *l)
{
	dlock_held_remove(&l->reg);
	dlock_hold_unwatch(l);
	free(l->node);
	free(l->hosts);
	l->node = l->hosts = NULL;
	l->held = 0;
	l->lost = 0;
	l->token = 0;
	if (l->sess) {
		dlock_session_unref(l->sess);
		l->sess = NULL;
	}
}

/* Deadline for a call that is not part of a timed wait (release, verify). */
int64_t dlock_hold_own_deadline(dlock_session *s)
{
	return dlock_now_ms() + dlock_session_connect_timeout(s);
}

/* Removes our queued node after a failed or abandoned attempt and forgets it.
 * The delete is waited for (at most DLOCK_CALL_GRACE_MS), so "not acquired"
 * normally also means "no node left"; one that does not answer in time, or
 * meets a connection loss, goes to the retry thread. */
void dlock_hold_withdraw(dlock_lock *l)
{
	if (l->node && dlock_session_owned(l->sess) &&
	    dlock_session_health(l->sess) != DLOCK_HEALTH_DEAD) {
		dlock_call *c = dlock_fault_hit(DLOCK_FAULT_DELETE_CONNLOSS)
		                    ? NULL
		                    : dlock_call_delete(l->sess, l->node);
		int rc = c ? dlock_call_wait(c, dlock_now_ms() + DLOCK_CALL_GRACE_MS, NULL) : DLOCK_ENOMEM;

		if (rc != DLOCK_OK || dlock_call_unknown(c->rc)) {
			dlock_session_delete_later(l->sess, l->node, NULL);
		}
		dlock_call_release(c);
	}
	dlock_hold_forget(l);
}

void dlock_lock_free(dlock_lock *l)
{
	if (!l) {
		return;
	}
	if (l->node && dlock_session_owned(l->sess)) {
		if (l->held && dlock_session_health(l->sess) != DLOCK_HEALTH_DEAD) {
			dlock_session_delete_async(l->sess, l->node);
		} else {
			dlock_hold_withdraw(l);
		}
	}
	dlock_hold_forget(l);
	free(l->path);
	free(l);
}

/* A check that got no answer proves nothing either way: the hold is no longer
 * taken as confirmed, so isAcquired() asks the server again (and says false
 * while it does not answer) instead of trusting an older confirmation. */
static void hold_unconfirm(dlock_lock *l)
{
	l->confirmed_at = INT64_MIN / 4;
}

/* Asks the server whether l's node exists and belongs to its session, giving
 * up at deadline; without an answer the hold counts as unconfirmed. */
int dlock_hold_check(dlock_lock *l, int64_t deadline, dlock_err *err)
{
	dlock_call *c;
	int h, rc, zrc;
	int64_t owner, sent;

	if (!l->held || !l->node) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held", l->path);
	}
	if (!dlock_session_owned(l->sess)) {
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process, not this fork", l->path);
	}
	if (l->lost) { /* an earlier check's verdict is final */
		return dlock_err_set(err, DLOCK_ELOST, ZNONODE, "lock %.128s was lost: its node is gone",
		                     l->path);
	}
	h = dlock_session_health(l->sess);
	if (h == DLOCK_HEALTH_DEAD) {
		return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its session expired", l->path);
	}
	sent = dlock_now_ms();
	c = dlock_call_exists(l->sess, l->node);
	rc = dlock_call_wait(c, deadline, NULL);
	zrc = c ? c->rc : 0;
	owner = c ? c->stat.ephemeralOwner : 0;
	dlock_call_release(c);
	if (rc == DLOCK_ETIMEDOUT) {
		hold_unconfirm(l);
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZOPERATIONTIMEOUT,
		                     "lock %.128s is not certainly held: ZooKeeper did not answer in time",
		                     l->path);
	}
	if (rc == DLOCK_ESESSION) { /* expired while we asked: the node went with it */
		return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its session expired", l->path);
	}
	if (rc != DLOCK_OK) {
		return dlock_call_failed(DLOCK_ENOMEM, "checking", l->path, err);
	}
	if (zrc == ZOK && owner == dlock_session_id(l->sess)) {
		l->confirmed_at = sent; /* the server saw the session alive after this */
		return DLOCK_OK;
	}
	if (zrc == ZOK || zrc == ZNONODE || zrc == ZSESSIONEXPIRED) {
		/* deleted (an operator's break, or another client) or another session's: the
		 * hold is over for good, whatever the session says later */
		l->lost = 1;
		hold_unconfirm(l);
		return dlock_err_set(err, DLOCK_ELOST, zrc, "lock %.128s was lost: its node is gone",
		                     l->path);
	}
	if (dlock_call_unknown(zrc) || zrc == ZINVALIDSTATE || zrc == ZCLOSING) {
		hold_unconfirm(l);
		return dlock_err_set(
		    err, dlock_session_health(l->sess) == DLOCK_HEALTH_DEAD ? DLOCK_ELOST : DLOCK_ECONNLOSS,
		    zrc, "lock %.128s is not certainly held: %s", l->path, zerror(zrc));
	}
	return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot check lock %.128s: %s", l->path,
	                     zerror(zrc));
}

/* Non-zero when l's hold needs asking the server about before it is trusted:
 * not confirmed for a third of the session timeout (the client pings that
 * often, so a live session confirms itself; a paused process cannot know). */
int dlock_hold_stale(const dlock_lock *l)
{
	return dlock_now_ms() - l->confirmed_at > dlock_session_timeout_ms(l->sess) / 3;
}

/* Sends the release's delete and, with wait, waits for its reply until
 * deadline. */
static int lock_delete(dlock_lock *l, int wait, int64_t deadline, dlock_err *err)
{
	dlock_call *c;
	int rc, zrc;

	if (dlock_fault_hit(DLOCK_FAULT_DELETE_CONNLOSS)) {
		dlock_session_delete_later(l->sess, l->node, NULL);
		return DLOCK_OK;
	}
	if (!wait) {
		dlock_session_delete_async(l->sess, l->node);
		return DLOCK_OK;
	}
	c = dlock_call_delete(l->sess, l->node);
	rc = dlock_call_wait(c, deadline, NULL);
	zrc = c ? c->rc : 0;
	dlock_call_release(c);
	if (rc == DLOCK_ESESSION || (rc == DLOCK_OK && (zrc == ZNONODE || zrc == ZSESSIONEXPIRED))) {
		return dlock_err_set(err, DLOCK_ELOST, rc == DLOCK_OK ? zrc : ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its node is gone", l->path);
	}
	if (rc != DLOCK_OK || dlock_call_unknown(zrc)) {
		dlock_session_delete_later(l->sess, l->node, NULL);
		return dlock_err_set(err, DLOCK_ECONNLOSS, rc == DLOCK_OK ? zrc : ZOPERATIONTIMEOUT,
		                     "lock %.128s released locally, but the delete got no answer: it is "
		                     "retried when the connection returns",
		                     l->path);
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot release lock %.128s: %s",
		                     l->path, zerror(zrc));
	}
	return DLOCK_OK;
}

void dlock_lock_forget(dlock_lock *l)
{
	dlock_hold_forget(l);
}

int dlock_lock_release(dlock_lock *l, int wait, dlock_err *err)
{
	int h, rc;
	int64_t deadline; /* one connect_timeout for the reconnect and the delete together */

	if (!l->held || !l->node) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held", l->path);
	}
	if (!dlock_session_owned(l->sess)) {
		dlock_hold_forget(l); /* the node is the fork parent's: never touch it */
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process, not this fork", l->path);
	}
	if (l->lost) { /* found gone by a check: nothing of ours to delete */
		dlock_hold_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, ZNONODE, "lock %.128s was lost: its node is gone",
		                     l->path);
	}
	deadline = dlock_hold_own_deadline(l->sess);
	h = dlock_session_health(l->sess);
	if (h == DLOCK_HEALTH_UNCERTAIN) {
		rc = dlock_session_wait_connected(l->sess, deadline, NULL);
		h = rc == DLOCK_OK ? DLOCK_HEALTH_ALIVE : dlock_session_health(l->sess);
	}
	if (h == DLOCK_HEALTH_DEAD) {
		dlock_hold_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its session expired", l->path);
	}
	if (h == DLOCK_HEALTH_UNCERTAIN) {
		dlock_session_delete_later(l->sess, l->node, NULL);
		dlock_hold_forget(l);
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                     "lock %.128s released locally, but ZooKeeper is unreachable: its node "
		                     "is deleted when the connection returns, or goes with the session",
		                     l->path);
	}
	rc = lock_delete(l, wait, deadline, err);
	if (rc == DLOCK_OK || rc == DLOCK_ELOST || rc == DLOCK_ECONNLOSS) {
		dlock_hold_forget(l);
	}
	return rc;
}

int dlock_lock_verify(dlock_lock *l, dlock_err *err)
{
	if (!l->held || !l->node || !dlock_session_owned(l->sess)) {
		return dlock_hold_check(l, -1, err); /* says why, without a call */
	}
	return dlock_hold_check(l, dlock_hold_own_deadline(l->sess), err);
}

int dlock_lock_held(dlock_lock *l)
{
	if (!l->held || l->lost || !l->sess || !dlock_session_owned(l->sess) ||
	    dlock_session_health(l->sess) != DLOCK_HEALTH_ALIVE) {
		return 0;
	}
	if (dlock_hold_stale(l)) {
		return dlock_hold_check(l, dlock_hold_own_deadline(l->sess), NULL) == DLOCK_OK;
	}
	return 1;
}

int dlock_lock_holding(const dlock_lock *l)
{
	return l->node && l->held;
}

int64_t dlock_lock_token(const dlock_lock *l)
{
	return l->held ? l->token : 0;
}

dlock_kind dlock_lock_kind(const dlock_lock *l)
{
	return l->kind;
}

int dlock_lock_max_leases(const dlock_lock *l)
{
	return l->max_leases;
}

const char *dlock_lock_path(const dlock_lock *l)
{
	return l->path;
}

const char *dlock_lock_node(const dlock_lock *l)
{
	return l->node;
}

int dlock_lock_self_conflict(const dlock_lock *l, const char *hosts)
{
	char space[1100];

	dlock_zk_hosts_space(hosts, space, sizeof(space));
	return dlock_held_conflict(&l->reg, l->kind, l->max_leases, l->path, space,
	                           DLOCK_HELD_MIX_REFUSED);
}
