/* dlock_zk_lock.c: getting a hold: the queue lock recipe over the session pool,
 * with reentrancy, downgrades and the self-wait guard. Every ZooKeeper request is sent from the
 * caller's thread and waited for with a deadline (dlock_call); waiting for a turn is on the
 * session's condition, signalled by the watched nodes (each waiter sees its own events, see
 * dlock_session_wait_watches).
 *
 * Semaphores (max_leases N): the first N nodes of the queue hold. Watching the node N places
 * ahead (the old rule) misses a lease freed anywhere else ahead. Instead:
 * - the head (the first waiter, index N) watches every holder: any lease freed is its lease,
 *   so a deletion alone grants it (nothing can come ahead; nothing else ahead can go);
 * - every later waiter watches only the node just ahead of it, its predecessor. A waiter
 *   becomes the head exactly when its predecessor stops waiting: it was granted (its index
 *   fell below N, and ours to N) or it went (released, gave up, or its session died);
 * - a node that may have been seen waiting (it once did not hold, or had nodes behind it in
 *   the listing that granted it) is "touched" when granted: a setData of its own data, whose
 *   CHANGED event wakes the waiter behind it, which looks again and finds itself head. A
 *   touch that landed before that waiter's watch shows in the watch reply's data version,
 *   which only a touch raises, so the waiter looks again at once.
 * A release therefore wakes the head only, and the head's grant wakes the one waiter behind
 * it (herd-free: one wake-up per event, never a broadcast). Holder order, waiters that time
 * out or are interrupted (their delete wakes the one behind) and sessions that die (the node
 * goes with it) all end in a delete or a touch the right waiter watches. One gap is left: a
 * process that dies between its grant and its touch leaves the waiter behind it unaware that
 * it became the head until that node goes with its session (a lease freed meanwhile waits
 * for that). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../dlock_backend.h"
#include "dlock_zk_call.h"
#include "dlock_zk_create.h"
#include "../dlock_fault.h"
#include "../dlock_stats.h"
#include "dlock_zk_lock_int.h"
#include "dlock_zk_pool.h"
#include "dlock_zk_err.h"
#include "dlock_zk_revoke.h"

#define DLOCK_REQUEUE_TRIES 4 /* sessions that died under one acquire */

/* Links l into the registry of held locks. */
static void lock_register(dlock_lock *l)
{
	static const char family = 'z';

	dlock_held_add(&l->reg, &family, l, l->kind, l->path, l->hosts, l->node);
}

/* The acquires under way on this thread, innermost first: one interrupted by
 * a signal handler cannot go on while the handler waits, so its queued node
 * counts as this process's own. Per thread: a handler runs on the thread it
 * interrupted (the core's own tests run contenders on several threads). */
static __thread dlock_lock *lock_acquiring;

/* Non-zero when another lock of this process holds child `name` of l's path,
 * or queued it in an acquire that this one interrupted. */
static int registry_owns(const dlock_lock *l, const char *hosts, const char *name)
{
	const dlock_lock *a;

	for (a = l->outer; a; a = a->outer) {
		/* a fork parent's interrupted acquire is another process's node */
		if (a->node && a->hosts && a->sess && dlock_session_owned(a->sess) &&
		    strcmp(a->path, l->path) == 0 && strcmp(a->hosts, hosts) == 0 &&
		    strcmp(strrchr(a->node, '/') + 1, name) == 0) {
			return 1;
		}
	}
	return dlock_held_owns(&l->reg, l->path, hosts, name);
}

/* The decision for a downgrade: our read (at `me`) holds at once when the
 * write node `grant` is still ours in the queue and no other writer sits
 * between the two; a writer queued behind our write would otherwise hold
 * beside our read once the write is released. */
static int lock_decide_grant(dlock_lock *l, const char *grant, const dlock_entry *q, size_t me,
                             dlock_err *err)
{
	const char *gname = strrchr(grant, '/') + 1;
	size_t i, g = me;

	for (i = 0; i < me; i++) {
		if (strcmp(q[i].name, gname) == 0) {
			g = i;
		}
	}
	if (g == me) {
		return dlock_err_set(err, DLOCK_ELOST, ZNONODE,
		                     "cannot take the read lock of %.128s as a downgrade: the write lock "
		                     "it would downgrade from is gone",
		                     l->path);
	}
	for (i = g + 1; i < me; i++) {
		if (q[i].writer) {
			return dlock_err_set(err, DLOCK_EDEADLK, 0,
			                     "cannot downgrade %.128s: a writer is queued behind this "
			                     "write lock and would hold beside the read lock once the "
			                     "write lock is released; release the write lock and acquire "
			                     "the read lock normally",
			                     l->path);
		}
	}
	return DLOCK_OK;
}

/* Checks the wait against this process's own holds. With no_self_wait, a
 * wait that depends on our own node is refused: for the exclusive kinds and
 * reads any own node ahead of us (every node between it and us waits for
 * it), for a semaphore only when every node ahead is ours (a head waiter
 * watches every lease, so another process's lease going is enough). */
static int lock_choose_watch(dlock_lock *l, const dlock_acquire_opts *o, const dlock_entry *q,
                             size_t me, dlock_err *err)
{
	size_t i;
	int own_ahead = 0;
	const dlock_lock *a;
	/* the ensemble as spelled for comparing (dlock_zk_hosts_space() of
	 * o->cfg->hosts), kept since our node was created */
	const char *hosts = l->hosts ? l->hosts : "";

	/* a semaphore waiter learns of its turn from the waiter ahead (its touch
	 * when granted): an acquire() this call interrupted cannot touch while
	 * we wait, so waiting behind it, even with a timeout, waits for itself */
	for (a = l->outer; a && l->kind == DLOCK_KIND_SEMAPHORE; a = a->outer) {
		if (!a->node || !a->hosts || !a->sess || !dlock_session_owned(a->sess) ||
		    a->kind != l->kind || strcmp(a->path, l->path) != 0 || strcmp(a->hosts, hosts) != 0) {
			continue;
		}
		for (i = 0; i < me; i++) {
			if (strcmp(strrchr(a->node, '/') + 1, q[i].name) == 0) {
				return dlock_err_set(err, DLOCK_EDEADLK, 0,
				                     "%.128s: an acquire() of this semaphore that this call "
				                     "interrupted is queued ahead and cannot pass its turn on "
				                     "while interrupted: this acquire would wait for itself",
				                     l->path);
			}
		}
	}
	for (i = 0; i < me && !own_ahead; i++) {
		own_ahead = registry_owns(l, hosts, q[i].name);
	}
	if (!own_ahead) {
		return DLOCK_OK;
	}
	if (l->kind == DLOCK_KIND_SEMAPHORE) {
		for (i = 0; i < me; i++) {
			if (!registry_owns(l, hosts, q[i].name)) {
				return DLOCK_OK;
			}
		}
	}
	if (!o->no_self_wait) {
		return DLOCK_OK; /* a timed wait: it ends at its deadline */
	}
	return dlock_err_set(err, DLOCK_EDEADLK, 0,
	                     "%.128s: this process holds it through another object (or queued it "
	                     "in an acquire() this call interrupted) and this acquire would wait "
	                     "for that; waiting without a timeout would wait for itself",
	                     l->path);
}

/* One look at the queue: lists the children (unless `first` already holds a
 * listing), orders them and decides. On DLOCK_OK *holds says whether we hold;
 * otherwise l->watch names the node to watch and *sure whether its deletion
 * alone lets us hold. */
static int lock_look(dlock_lock *l, const dlock_acquire_opts *o, int64_t cdl,
                     struct String_vector *first, int *holds, int *sure, dlock_err *err)
{
	struct String_vector kids = {0, NULL};
	const char *mine = strrchr(l->node, '/') + 1;
	dlock_entry *q = NULL;
	size_t n = 0, i, me = (size_t)-1;
	dlock_verdict v;
	int zrc, rc = DLOCK_OK;

	if (first && first->data) {
		kids = *first; /* taken over: the listing sent with the create */
		first->data = NULL;
		first->count = 0;
		zrc = ZOK;
	} else if (dlock_fault_hit(DLOCK_FAULT_LIST_CONNLOSS)) {
		zrc = ZCONNECTIONLOSS;
	} else {
		int64_t sent = dlock_now_ms();
		dlock_call *c = dlock_call_children(l->sess, l->path);

		rc = dlock_call_wait(c, cdl, o->intr);
		zrc = c ? c->rc : 0;
		if (rc == DLOCK_OK && zrc == ZOK) {
			kids = dlock_call_take_kids(c);
			l->confirmed_at = sent;
		}
		dlock_call_release(c);
		if (rc != DLOCK_OK) {
			return dlock_call_failed(rc, "listing", l->path, err);
		}
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot list %.128s: %s", l->path,
		                     zerror(zrc));
	}
	q = calloc((size_t)kids.count + 1, sizeof(*q));
	if (!q) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < (size_t)kids.count; i++) {
		if (dlock_rule_parse(l->kind, kids.data[i], &q[n])) {
			n++;
		} else if (dlock_rule_foreign(l->kind, kids.data[i])) {
			/* another kind queues on this path: never both hold. Curator's
			 * recipes ignore other markers, so the queues stay apart and the
			 * contender that sees the other's node refuses (on every look,
			 * a woken waiter's too); of two, whichever listed later saw the
			 * other, so at most one proceeds */
			rc = dlock_err_set(err, DLOCK_EDEADLK, 0,
			                   "%.128s is used by another kind of lock (node %.128s is queued "
			                   "there): kinds on one path exclude each other by refusing",
			                   l->path, kids.data[i]);
			goto done;
		}
	}
	dlock_rule_sort(q, n);
	for (i = 0; i < n; i++) {
		if (strcmp(q[i].name, mine) == 0) {
			me = i;
			break;
		}
	}
	if (me == (size_t)-1) {
		rc = dlock_err_set(err, DLOCK_ELOST, ZNONODE,
		                   "lock node %.128s vanished while queued (session expired?)", l->node);
		goto done;
	}
	if (o->grant_node) {
		rc = lock_decide_grant(l, o->grant_node, q, me, err);
		*holds = rc == DLOCK_OK;
		goto done;
	}
	v = dlock_rule_decide(l->kind, l->max_leases, q, n, me);
	*holds = v.holds;
	dlock_hold_unwatch(l);
	if (me + 1 < n || !v.holds) {
		l->touch = 1; /* someone may have seen us waiting, or will */
	}
	if (!v.holds) {
		rc = lock_choose_watch(l, o, q, me, err);
		if (rc != DLOCK_OK) {
			goto done;
		}
		*sure = v.sure;
		l->watch = calloc(v.nwatch, sizeof(*l->watch));
		for (i = 0; l->watch && i < v.nwatch; i++) {
			size_t len = strlen(l->path) + strlen(q[v.watch + i].name) + 2;

			if (!(l->watch[i] = malloc(len))) {
				break;
			}
			snprintf(l->watch[i], len, "%s/%s", l->path, q[v.watch + i].name);
			l->nwatch = i + 1;
		}
		if (!l->watch || l->nwatch != v.nwatch) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
	}
done:
	free(q);
	deallocate_String_vector(&kids);
	return rc;
}

/* Arms a data watch on every node of l->watch (the requests pipelined) and,
 * when all are armed, waits until one of them fires. Returns DLOCK_OK with
 * *zrc the first code that was not ZOK (ZNONODE: a node is already gone;
 * nothing was waited for), or ZOK and *type the event that ended the wait
 * (ZOO_CHANGED_EVENT without waiting when a semaphore waiter's predecessor
 * was touched already: it holds, look again); or why a call or the wait
 * failed. */
static int lock_watch_wait(dlock_lock *l, const dlock_acquire_opts *o, int64_t deadline, int sure,
                           int *zrc, int *type, dlock_err *err)
{
	size_t n = l->nwatch, i;
	dlock_watch **w = calloc(n, sizeof(*w));
	dlock_call **c = calloc(n, sizeof(*c));
	uint64_t *mark = calloc(n, sizeof(*mark));
	int64_t sent = dlock_now_ms(), cdl = dlock_zk_call_deadline(deadline);
	int rc = DLOCK_OK;

	*zrc = ZOK;
	if (!w || !c || !mark) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {
		if (!(w[i] = dlock_session_watch_get(l->sess, l->watch[i]))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
		mark[i] = dlock_session_watch_mark(l->sess, w[i]);
	}
	if (dlock_fault_hit(DLOCK_FAULT_WATCH_CONNLOSS)) {
		*zrc = ZCONNECTIONLOSS;
		goto done;
	}
	for (i = 0; i < n; i++) {
		c[i] = dlock_call_watch(l->sess, w[i]);
	}
	for (i = 0; i < n && rc == DLOCK_OK; i++) {
		rc = dlock_call_wait(c[i], cdl, o->intr);
		if (rc != DLOCK_OK) {
			rc = dlock_call_failed(rc, "watching", l->watch[i], err);
		} else if (c[i]->rc != ZOK && (*zrc == ZOK || *zrc == ZNONODE)) {
			*zrc = c[i]->rc; /* any other failure says more than a node gone */
		}
	}
	if (rc != DLOCK_OK || *zrc != ZOK) {
		goto done;
	}
	l->confirmed_at = sent; /* what the watches report is at least this fresh */
	if (o->holder && c[0]->data) {
		/* the node we wait for: its participant data, for the slow-lock log */
		dlock_stats_holder_copy(o->holder, o->holder_size, c[0]->data, c[0]->data_len);
	}
	if (l->kind == DLOCK_KIND_SEMAPHORE && !sure && c[0]->stat.version > 0) {
		*type = ZOO_CHANGED_EVENT; /* touched before our watch: granted since we looked */
		goto done;
	}
	rc = dlock_session_wait_watches(l->sess, w, mark, n, deadline, o->intr, type);
	if (rc == DLOCK_ESESSION) {
		rc = dlock_err_set(err, rc, ZSESSIONEXPIRED, "session expired while waiting for %.128s",
		                   l->path);
	}
done:
	for (i = 0; c && i < n; i++) {
		dlock_call_release(c[i]);
	}
	for (i = 0; w && i < n; i++) {
		dlock_session_watch_put(l->sess, w[i]);
	}
	free(w);
	free(c);
	free(mark);
	return rc;
}

/* Waits until our node may hold. Returns DLOCK_OK when it may. */
static int lock_wait_turn(dlock_lock *l, const dlock_acquire_opts *o, int64_t deadline,
                          struct String_vector *first, dlock_err *err)
{
	int64_t cdl = dlock_zk_call_deadline(deadline);
	int rc, holds = 0, sure = 0, zrc, type = 0;

	for (;;) {
		rc = lock_look(l, o, cdl, first, &holds, &sure, err);
		if (rc == DLOCK_ECONNLOSS) {
			rc = dlock_call_reconnect(l->sess, deadline, o->intr, err);
			if (rc == DLOCK_OK) {
				continue;
			}
		}
		if (rc != DLOCK_OK || holds) {
			return rc;
		}
		if (o->timeout_ms == 0) {
			return DLOCK_ETIMEDOUT;
		}
		rc = lock_watch_wait(l, o, deadline, sure, &zrc, &type, err);
		if (rc != DLOCK_OK) {
			return rc;
		}
		if (zrc == ZNONODE) {
			continue; /* already gone: look again */
		}
		if (dlock_call_unknown(zrc)) {
			rc = dlock_call_reconnect(l->sess, deadline, o->intr, err);
			if (rc != DLOCK_OK) {
				return rc;
			}
			continue;
		}
		if (zrc != ZOK) {
			return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot watch %.128s: %s",
			                     l->watch[0], zerror(zrc));
		}
		if (type == ZOO_DELETED_EVENT && sure) {
			return DLOCK_OK; /* nothing else can be ahead: no need to list again */
		}
		/* deleted, or changed (a semaphore waiter ahead was granted): look again */
	}
}

/* A semaphore waiter granted after it was seen waiting tells the waiter
 * behind it, which watches only this node, that it may now be the head: a
 * setData of the node's own data (its CHANGED event). Best effort within
 * connect_timeout: a connection loss is ridden out and the touch sent again;
 * if it still cannot be made, the waiter behind learns of its turn when this
 * node goes (released, or with its session). */
static void lock_touch(dlock_lock *l, const dlock_acquire_opts *o)
{
	int64_t deadline = dlock_hold_own_deadline(l->sess);
	int tries;

	for (tries = 0; tries < 3; tries++) {
		dlock_call *c = dlock_call_set(l->sess, l->node, o->data, o->data_len);
		int rc = dlock_call_wait(c, deadline, NULL), zrc = c ? c->rc : ZOK;

		dlock_call_release(c);
		if (rc != DLOCK_OK || !dlock_call_unknown(zrc) ||
		    dlock_session_wait_connected(l->sess, deadline, NULL) != DLOCK_OK) {
			return;
		}
	}
}

/* A grant is only as fresh as the request whose reply proved it (the list
 * or the watch, dated when it was sent): a process stopped between that
 * request and now (SIGSTOP, a stall, a long page-in) may have lost its
 * session meanwhile, and replies the server sent before the expiry still
 * arrive from the socket afterwards. A grant proved longer ago than
 * isAcquired()'s freshness bound is therefore asked about once more. */
static int lock_certify(dlock_lock *l, int64_t deadline, const dlock_interrupt *intr,
                        dlock_err *err)
{
	int64_t cdl =
	    deadline < 0 ? dlock_hold_own_deadline(l->sess) : dlock_zk_call_deadline(deadline);
	int rc = DLOCK_OK;

	while (dlock_hold_stale(l)) {
		rc = dlock_hold_check(l, cdl, err);
		if (rc != DLOCK_ECONNLOSS || dlock_now_ms() >= cdl) {
			break;
		}
		/* the check met a disconnect: the reconnect tells (expired: queue again) */
		rc = dlock_call_reconnect(l->sess, cdl, intr, err);
		if (rc != DLOCK_OK) {
			break;
		}
	}
	if (rc == DLOCK_ECONNLOSS && deadline >= 0 && dlock_now_ms() >= deadline) {
		return dlock_err_set(err, DLOCK_ETIMEDOUT, 0,
		                     "lock %.128s could not be confirmed before the deadline", l->path);
	}
	return rc;
}

/* One more hold on a lock already held, after checking it as isAcquired()
 * does; a connection that is down is waited for until deadline, so the
 * answer is "held" or "lost" whenever the server can say. A hold found lost
 * is forgotten and reported, never silently replaced by a fresh hold under
 * the caller's outer one. */
static int lock_reenter(dlock_lock *l, int64_t deadline, dlock_err *err)
{
	for (;;) {
		int h = dlock_session_health(l->sess), rc;

		if (h == DLOCK_HEALTH_DEAD) {
			dlock_hold_forget(l);
			return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
			                     "lock %.128s was lost (its session expired) while held: the "
			                     "outer hold is gone too",
			                     l->path);
		}
		if (h == DLOCK_HEALTH_ALIVE) {
			rc = dlock_hold_stale(l) || l->lost ? dlock_hold_check(l, deadline, err) : DLOCK_OK;
			if (rc == DLOCK_ECONNLOSS && dlock_session_health(l->sess) != DLOCK_HEALTH_ALIVE) {
				continue; /* the check met the disconnect: wait for the verdict */
			}
			if (rc == DLOCK_ELOST) {
				dlock_hold_forget(l);
			}
			return rc;
		}
		if (deadline >= 0 && dlock_now_ms() >= deadline) {
			return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
			                     "connection lost: cannot tell whether lock %.128s is still held",
			                     l->path);
		}
		/* disconnected: the reconnect tells (same session: held; expired: lost) */
		dlock_session_wait_connected(l->sess, deadline, NULL);
	}
}

static int lock_acquire(dlock_lock *l, const dlock_acquire_opts *o, dlock_err *err)
{
	int64_t deadline = o->timeout_ms < 0 ? -1 : dlock_now_ms() + o->timeout_ms;
	int rc = DLOCK_OK, tries;

	if (l->held && l->node && dlock_session_owned(l->sess)) {
		return dlock_lock_reenter(l, o, err); /* see dlock_lock_acquire() */
	}
	if (l->node) { /* a fork parent's hold: never ours to touch */
		dlock_hold_forget(l);
	}
	for (tries = 0; tries < DLOCK_REQUEUE_TRIES; tries++) {
		struct String_vector first = {0, NULL};
		dlock_session *s = NULL;

		l->touch = 0;
		rc = dlock_pool_get(o->cfg, o->intr, &s, err);
		if (rc != DLOCK_OK) {
			return rc;
		}
		rc = dlock_call_reconnect(s, deadline, o->intr, err);
		if (rc == DLOCK_OK) {
			rc = dlock_zk_enqueue(l, s, o, deadline, &first, err);
		}
		dlock_session_unref(s); /* the lock took its own reference with the node */
		if (rc == DLOCK_OK) {
			rc = lock_wait_turn(l, o, deadline, &first, err);
		}
		deallocate_String_vector(&first);
		if (rc == DLOCK_OK) {
			l->held = 1;
			rc = lock_certify(l, deadline, o->intr, err);
		}
		if (rc == DLOCK_OK) {
			dlock_hold_unwatch(l);
			if (o->revoke) {
				/* before the touch, which rewrites our data: a request that
				 * reached the node while it waited is read first */
				dlock_zk_revoke_arm(l->sess, l->node, o->revoke);
			}
			if (l->kind == DLOCK_KIND_SEMAPHORE && l->touch) {
				lock_touch(l, o);
			}
			lock_register(l);
			return DLOCK_OK;
		}
		l->held = 0;
		dlock_hold_withdraw(l);
		if ((rc != DLOCK_ESESSION && rc != DLOCK_ELOST) || o->grant_node ||
		    (deadline >= 0 && dlock_now_ms() >= deadline)) {
			break;
		}
		/* the session died under us (or our node was removed): queue again */
	}
	if (rc == DLOCK_ELOST && !o->grant_node) {
		rc = dlock_err_set(err, DLOCK_ESESSION, ZSESSIONEXPIRED,
		                   "lost the queued node of %.128s repeatedly", l->path);
	}
	if (rc == DLOCK_EFORKED) { /* a handler forked mid-wait: we are the child */
		rc = dlock_err_set(err, DLOCK_EFORKED, 0,
		                   "%.128s: forked during acquire(): the child holds nothing and leaves "
		                   "its parent's session and node alone (acquire again in the child)",
		                   l->path);
	}
	return rc;
}

int dlock_lock_reenter(dlock_lock *l, const dlock_acquire_opts *o, dlock_err *err)
{
	int64_t deadline = o->timeout_ms < 0 ? -1 : dlock_now_ms() + o->timeout_ms;

	if (!l->held || !l->node || !dlock_session_owned(l->sess)) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held", l->path);
	}
	return lock_reenter(
	    l, deadline < 0 ? dlock_hold_own_deadline(l->sess) : dlock_zk_call_deadline(deadline), err);
}

int dlock_lock_acquire(dlock_lock *l, const dlock_acquire_opts *o, dlock_err *err)
{
	int rc;

	l->outer = lock_acquiring;
	lock_acquiring = l;
	rc = lock_acquire(l, o, err);
	lock_acquiring = l->outer; /* nested acquires unlink themselves before returning */
	l->outer = NULL;
	return rc;
}
