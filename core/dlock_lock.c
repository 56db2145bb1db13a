/* dlock_lock.c: the queue lock recipe over the session pool. Every ZooKeeper
 * call happens on the caller's thread; waiting is on the session's condition,
 * signalled by the one watched node. State that must survive a wait (which
 * may never return, see dlock_interrupt_fn) lives in the lock, not the stack. */
#include "dlock_lock.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlock_fault.h"
#include "dlock_path.h"
#include "dlock_pool.h"

#define DLOCK_CREATE_TRIES  8 /* parent reaped between mkdir and create; lost replies */
#define DLOCK_REQUEUE_TRIES 4 /* sessions that died under one acquire */

struct dlock_lock {
	dlock_kind kind;               /* what the node is (marker) and how it decides */
	int max_leases;                /* semaphores: holders allowed at once */
	char *path;                    /* the lock path (owned) */
	char *node;                    /* our node's full path while queued or held (owned) */
	char *watch;                   /* the node currently watched (owned) or NULL */
	char *hosts;                   /* hosts of the session while it has a node (owned) */
	char guid[DLOCK_GUID_LEN + 1]; /* this attempt's GUID, in the node name */
	dlock_session *sess;           /* reference while node != NULL */
	int64_t token;                 /* czxid of node */
	int64_t confirmed_at;          /* when the hold was last known good, ms */
	unsigned holds;                /* reentrant hold count; > 0 only with a node */
	struct dlock_lock *reg_next;   /* registry of holding locks (self-deadlock guard) */
	struct dlock_lock **reg_prev;  /* where this entry is linked from, or NULL */
};

static dlock_lock *registry; /* locks of this process that hold */
static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER; /* guards registry (ZTS builds) */

static void registry_add(dlock_lock *l)
{
	pthread_mutex_lock(&registry_mu);
	if (l->reg_prev) {
		pthread_mutex_unlock(&registry_mu);
		return;
	}
	l->reg_next = registry;
	if (registry) {
		registry->reg_prev = &l->reg_next;
	}
	registry = l;
	l->reg_prev = &registry;
	pthread_mutex_unlock(&registry_mu);
}

static void registry_remove(dlock_lock *l)
{
	pthread_mutex_lock(&registry_mu);
	if (l->reg_prev) {
		*l->reg_prev = l->reg_next;
		if (l->reg_next) {
			l->reg_next->reg_prev = l->reg_prev;
		}
		l->reg_next = NULL;
		l->reg_prev = NULL;
	}
	pthread_mutex_unlock(&registry_mu);
}

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

/* Forgets the node and the session reference without touching the server. */
static void lock_forget(dlock_lock *l)
{
	registry_remove(l);
	free(l->node);
	free(l->watch);
	free(l->hosts);
	l->node = l->watch = l->hosts = NULL;
	l->holds = 0;
	l->token = 0;
	if (l->sess) {
		dlock_session_unref(l->sess);
		l->sess = NULL;
	}
}

/* Removes our queued node after a failed or abandoned attempt: a synchronous
 * delete, so "not acquired" also means "no node left"; on a connection loss
 * the delete goes to the retry thread. Then forgets it. */
static void lock_withdraw(dlock_lock *l)
{
	if (l->node && dlock_session_health(l->sess) != DLOCK_HEALTH_DEAD) {
		int zrc = dlock_fault_hit(DLOCK_FAULT_DELETE_CONNLOSS)
		              ? ZCONNECTIONLOSS
		              : zoo_delete(dlock_session_zh(l->sess), l->node, -1);

		if (zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT) {
			dlock_session_delete_later(l->sess, l->node, NULL);
		}
	}
	lock_forget(l);
}

void dlock_lock_free(dlock_lock *l)
{
	if (!l) {
		return;
	}
	if (l->node && dlock_session_owned(l->sess)) {
		if (l->holds > 0 && dlock_session_health(l->sess) != DLOCK_HEALTH_DEAD) {
			dlock_session_delete_async(l->sess, l->node);
		} else {
			lock_withdraw(l);
		}
	}
	lock_forget(l);
	free(l->path);
	free(l);
}

/* Creates l->path as a container node (a persistent one on servers without
 * containers), and its missing ancestors: the deepest first, going up only
 * while the parent is missing, so a new lock under an existing parent costs
 * one create. */
static int lock_make_parents(dlock_lock *l, dlock_session *s, dlock_err *err)
{
	zhandle_t *zh = dlock_session_zh(s);
	size_t len = strlen(l->path), end = len, depth = 0;
	char *buf = malloc(len + 1);
	int rc = DLOCK_OK, zrc;

	if (!buf) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (;;) {
		memcpy(buf, l->path, end);
		buf[end] = '\0';
		zrc = zoo_create(zh, buf, NULL, -1, dlock_session_acl(s), ZOO_CONTAINER, NULL, 0);
		if (zrc == ZUNIMPLEMENTED) {
			zrc = zoo_create(zh, buf, NULL, -1, dlock_session_acl(s), ZOO_PERSISTENT, NULL, 0);
		}
		if (zrc == ZNONODE && end > 1) {
			while (end > 0 && l->path[--end] != '/') {
			}
			depth++; /* the parent is missing too: create it first */
			continue;
		}
		if (zrc != ZOK && zrc != ZNODEEXISTS) {
			rc = dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot create %.128s: %s", buf,
			                   zerror(zrc));
			break;
		}
		if (depth == 0) {
			break;
		}
		/* back down one level */
		do {
			end++;
		} while (end < len && l->path[end] != '/');
		depth--;
	}
	free(buf);
	return rc;
}

/* Takes `full` (owned) as our node with creation zxid czxid on session s. */
static void lock_adopt(dlock_lock *l, dlock_session *s, char *full, int64_t czxid,
                       const char *hosts)
{
	l->node = full;
	l->token = czxid;
	l->sess = s;
	dlock_session_ref(s);
	l->hosts = strdup(hosts);
	l->confirmed_at = dlock_now_ms();
}

/* After a create whose reply was lost: looks for the node carrying our GUID
 * and adopts it when its ephemeral owner is this session (a lagging follower
 * can still list a dead session's node: CURATOR-498). Returns DLOCK_OK with
 * l->node set, DLOCK_OK with l->node NULL (not there: create again), or the
 * failing call's code. */
static int lock_find_own(dlock_lock *l, dlock_session *s, const char *hosts, dlock_err *err)
{
	struct String_vector kids = {0, NULL};
	zhandle_t *zh = dlock_session_zh(s);
	int zrc = zoo_get_children(zh, l->path, 0, &kids), i, rc = DLOCK_OK;

	if (zrc == ZNONODE) {
		return DLOCK_OK;
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot list %.128s: %s", l->path,
		                     zerror(zrc));
	}
	for (i = 0; i < kids.count && !l->node; i++) {
		size_t n = strlen(l->path) + strlen(kids.data[i]) + 2;
		struct Stat st;
		char *full;

		if (!strstr(kids.data[i], l->guid)) {
			continue;
		}
		if (!(full = malloc(n))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			break;
		}
		snprintf(full, n, "%s/%s", l->path, kids.data[i]);
		zrc = zoo_exists(zh, full, 0, &st);
		if (zrc == ZOK && st.ephemeralOwner == dlock_session_id(s)) {
			lock_adopt(l, s, full, st.czxid, hosts);
		} else {
			free(full);
		}
	}
	deallocate_String_vector(&kids);
	return rc;
}

/* Waits for the connection to come back after a loss (bounded by the deadline
 * and, through the session's disconnect timer, by the session timeout). */
static int lock_ride_out(dlock_session *s, int64_t deadline, const dlock_interrupt *intr,
                         dlock_err *err)
{
	int rc = dlock_session_wait_connected(s, deadline, intr);

	if (rc == DLOCK_ETIMEDOUT) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                     "connection to ZooKeeper lost and not back before the deadline");
	}
	if (rc == DLOCK_ESESSION) {
		return dlock_err_set(err, rc, ZSESSIONEXPIRED, "session expired");
	}
	return rc;
}

static int is_connloss(int zrc)
{
	return zrc == ZCONNECTIONLOSS || zrc == ZOPERATIONTIMEOUT;
}

/* A create and a children listing sent back to back (one round trip): the
 * server handles a session's requests in order, so the listing includes the
 * node just created. Filled by the two completions on the completion thread,
 * which only copy the results and signal; the caller waits for both (they
 * always come: a connection loss completes them at once). */
typedef struct pipelined {
	pthread_mutex_t mu;        /* guards the fields below */
	pthread_cond_t cv;         /* signalled by each completion */
	int pending;               /* completions still to come */
	int create_rc;             /* result of the create */
	char *created;             /* path of the created node (owned) */
	int64_t czxid;             /* its creation zxid */
	int list_rc;               /* result of the listing */
	struct String_vector kids; /* the listing (owned; deallocate_String_vector) */
} pipelined;

static void pipelined_done(pipelined *p)
{
	pthread_mutex_lock(&p->mu);
	p->pending--;
	pthread_cond_signal(&p->cv);
	pthread_mutex_unlock(&p->mu);
}

static void pipelined_created(int rc, const char *value, const struct Stat *stat, const void *data)
{
	pipelined *p = (pipelined *)data;

	p->create_rc = rc;
	if (rc == ZOK) {
		p->created = value ? strdup(value) : NULL;
		p->czxid = stat ? stat->czxid : 0;
		if (!p->created) {
			p->create_rc = ZSYSTEMERROR;
		}
	}
	pipelined_done(p);
}

static void pipelined_listed(int rc, const struct String_vector *strings, const void *data)
{
	pipelined *p = (pipelined *)data;
	int i;

	p->list_rc = rc;
	if (rc == ZOK && strings) {
		p->kids.data = calloc((size_t)strings->count + 1, sizeof(char *));
		for (i = 0; p->kids.data && i < strings->count; i++) {
			if (!(p->kids.data[i] = strdup(strings->data[i]))) {
				break;
			}
			p->kids.count = i + 1;
		}
		if (!p->kids.data || p->kids.count != strings->count) {
			p->list_rc = ZSYSTEMERROR;
		}
	}
	pipelined_done(p);
}

/* Sends create(prefix) and get_children(l->path) together and waits for both.
 * Returns the create's code; on ZOK created and czxid are set and, when the
 * listing succeeded too, *kids holds it (else kids->data is NULL). */
static int lock_create_pipelined(dlock_lock *l, dlock_session *s, const char *prefix,
                                 const dlock_acquire_opts *o, char **created, int64_t *czxid,
                                 struct String_vector *kids)
{
	zhandle_t *zh = dlock_session_zh(s);
	pipelined p;
	int zrc;

	memset(&p, 0, sizeof(p));
	pthread_mutex_init(&p.mu, NULL);
	pthread_cond_init(&p.cv, NULL);
	p.pending = 2;
	zrc = zoo_acreate2(zh, prefix, o->data, (int)o->data_len, dlock_session_acl(s),
	                   ZOO_EPHEMERAL_SEQUENTIAL, pipelined_created, &p);
	if (zrc != ZOK) {
		p.pending = 0;
		p.create_rc = zrc;
	} else if (zoo_aget_children(zh, l->path, 0, pipelined_listed, &p) != ZOK) {
		p.pending--;
		p.list_rc = ZSYSTEMERROR;
	}
	pthread_mutex_lock(&p.mu);
	while (p.pending > 0) {
		pthread_cond_wait(&p.cv, &p.mu);
	}
	pthread_mutex_unlock(&p.mu);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	*created = p.created;
	*czxid = p.czxid;
	if (p.create_rc == ZOK && p.list_rc == ZOK) {
		*kids = p.kids;
	} else {
		deallocate_String_vector(&p.kids);
		kids->count = 0;
		kids->data = NULL;
	}
	return p.create_rc;
}

/* Creates our node `<path>/_c_<guid>-<marker><seq>` (creating parents when
 * missing) and adopts it, riding out connection losses without ever leaving a
 * second node behind. */
static int lock_create(dlock_lock *l, dlock_session *s, const dlock_acquire_opts *o,
                       int64_t deadline, struct String_vector *first, dlock_err *err)
{
	zhandle_t *zh = dlock_session_zh(s);
	size_t cap = strlen(l->path) + 80;
	char *prefix = malloc(cap), *created = malloc(cap + 16);
	struct Stat st;
	int rc, zrc, tries, pending = 0;

	if (!prefix || !created) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	rc = dlock_guid(l->guid, err);
	if (rc != DLOCK_OK) {
		goto done;
	}
	snprintf(prefix, cap, "%s/_c_%s-%s", l->path, l->guid, dlock_kind_marker(l->kind));
	for (tries = 0; tries < DLOCK_CREATE_TRIES; tries++) {
		if (pending) { /* a create may have succeeded unseen: look for it first */
			rc = lock_ride_out(s, deadline, o->intr, err);
			if (rc != DLOCK_OK) {
				break;
			}
			rc = lock_find_own(l, s, o->cfg->hosts, err);
			if (rc == DLOCK_ECONNLOSS) {
				continue; /* the connection flapped again: ride it out again */
			}
			if (rc != DLOCK_OK || l->node) {
				break;
			}
			pending = 0;
		}
		if (tries == 0) {
			char *got = NULL;
			int64_t czxid = 0;

			zrc = lock_create_pipelined(l, s, prefix, o, &got, &czxid, first);
			if (zrc == ZOK && dlock_fault_hit(DLOCK_FAULT_CREATE_REPLY_LOST)) {
				free(got); /* the node exists, but we "never saw" the reply */
				got = NULL;
				deallocate_String_vector(first);
				first->data = NULL;
				zrc = ZCONNECTIONLOSS;
			}
			if (zrc == ZOK) {
				lock_adopt(l, s, got, czxid, o->cfg->hosts);
				rc = DLOCK_OK;
				break;
			}
			free(got);
		} else {
			zrc = zoo_create2(zh, prefix, o->data, (int)o->data_len, dlock_session_acl(s),
			                  ZOO_EPHEMERAL_SEQUENTIAL, created, (int)(cap + 16), &st);
			if (zrc == ZOK && dlock_fault_hit(DLOCK_FAULT_CREATE_REPLY_LOST)) {
				zrc = ZCONNECTIONLOSS;
			}
		}
		if (zrc == ZOK) {
			lock_adopt(l, s, created, st.czxid, o->cfg->hosts);
			created = NULL;
			rc = DLOCK_OK;
			break;
		}
		if (is_connloss(zrc)) {
			pending = 1;
			continue;
		}
		if (zrc != ZNONODE) {
			rc = dlock_err_set(err, dlock_err_from_zk(zrc), zrc,
			                   "cannot create a lock node under %.128s: %s", l->path, zerror(zrc));
			break;
		}
		rc = lock_make_parents(l, s, err);
		if (rc == DLOCK_ECONNLOSS) {
			rc = lock_ride_out(s, deadline, o->intr, err);
		}
		if (rc != DLOCK_OK) {
			break;
		}
	}
	if (tries == DLOCK_CREATE_TRIES) {
		rc = dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                   "cannot create a lock node under %.128s after %d tries", l->path,
		                   DLOCK_CREATE_TRIES);
	}
	if (rc != DLOCK_OK && pending && rc != DLOCK_ESESSION) {
		/* the node may exist: the retry thread removes it by its GUID */
		dlock_session_delete_later(s, l->path, l->guid);
	}
done:
	free(prefix);
	free(created);
	return rc;
}

/* One look at the queue: lists the children, orders them and decides. On
 * return with DLOCK_OK, *holds says whether we hold; otherwise l->watch names
 * the node to watch and *sure whether its deletion alone lets us hold. */
static int lock_look(dlock_lock *l, int granted, struct String_vector *first, int *holds, int *sure,
                     dlock_err *err)
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
	} else {
		zrc = dlock_fault_hit(DLOCK_FAULT_LIST_CONNLOSS)
		          ? ZCONNECTIONLOSS
		          : zoo_get_children(dlock_session_zh(l->sess), l->path, 0, &kids);
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot list %.128s: %s", l->path,
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
	v = dlock_rule_decide(l->kind, l->max_leases, q, n, me);
	*holds = v.holds || granted;
	*sure = v.sure;
	free(l->watch);
	l->watch = NULL;
	if (!*holds) {
		size_t len = strlen(l->path) + strlen(q[v.watch].name) + 2;

		l->watch = malloc(len);
		if (!l->watch) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
		snprintf(l->watch, len, "%s/%s", l->path, q[v.watch].name);
	}
done:
	free(q);
	deallocate_String_vector(&kids);
	return rc;
}

/* Waits until our node may hold. Returns DLOCK_OK when it may. */
static int lock_wait_turn(dlock_lock *l, const dlock_acquire_opts *o, int64_t deadline,
                          struct String_vector *first, dlock_err *err)
{
	int rc, holds = 0, sure = 0;

	for (;;) {
		char buf[1];
		int blen = sizeof(buf), type = 0, zrc;
		void *ctx;

		rc = lock_look(l, o->granted, first, &holds, &sure, err);
		if (rc == DLOCK_ECONNLOSS) {
			rc = lock_ride_out(l->sess, deadline, o->intr, err);
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
	watch:
		ctx = dlock_session_arm(l->sess);
		zrc = dlock_fault_hit(DLOCK_FAULT_WATCH_CONNLOSS)
		          ? ZCONNECTIONLOSS
		          : zoo_wget(dlock_session_zh(l->sess), l->watch, dlock_session_watcher, ctx, buf,
		                     &blen, NULL);
		if (zrc == ZNONODE) {
			continue; /* already gone: look again */
		}
		if (is_connloss(zrc)) {
			rc = lock_ride_out(l->sess, deadline, o->intr, err);
			if (rc != DLOCK_OK) {
				return rc;
			}
			continue;
		}
		if (zrc != ZOK) {
			return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot watch %.128s: %s",
			                     l->watch, zerror(zrc));
		}
		rc = dlock_session_wait(l->sess, ctx, deadline, o->intr, &type);
		if (rc == DLOCK_ESESSION) {
			return dlock_err_set(err, rc, ZSESSIONEXPIRED,
			                     "session expired while waiting for %.128s", l->path);
		}
		if (rc != DLOCK_OK) {
			return rc;
		}
		if (type == ZOO_DELETED_EVENT && sure) {
			return DLOCK_OK; /* nothing else can be ahead: no need to list again */
		}
		if (type == ZOO_CHANGED_EVENT) {
			goto watch; /* data changed, node still there: watch it again */
		}
	}
}

int dlock_lock_acquire(dlock_lock *l, const dlock_acquire_opts *o, dlock_err *err)
{
	int64_t deadline = o->timeout_ms < 0 ? -1 : dlock_now_ms() + o->timeout_ms;
	int rc = DLOCK_OK, tries;

	if (l->holds > 0) {
		int h = dlock_session_health(l->sess);

		if (h == DLOCK_HEALTH_ALIVE) {
			l->holds++;
			return DLOCK_OK;
		}
		if (h == DLOCK_HEALTH_UNCERTAIN) {
			return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
			                     "connection lost: cannot tell whether lock %.128s is still held",
			                     l->path);
		}
	}
	if (l->node) { /* a hold lost with its session, or a fork parent's */
		lock_forget(l);
	}
	for (tries = 0; tries < DLOCK_REQUEUE_TRIES; tries++) {
		struct String_vector first = {0, NULL};
		dlock_session *s = NULL;

		rc = dlock_pool_get(o->cfg, o->intr, &s, err);
		if (rc != DLOCK_OK) {
			return rc;
		}
		rc = lock_ride_out(s, deadline, o->intr, err);
		if (rc == DLOCK_OK) {
			rc = lock_create(l, s, o, deadline, &first, err);
		}
		dlock_session_unref(s); /* the lock took its own reference with the node */
		if (rc == DLOCK_OK) {
			rc = lock_wait_turn(l, o, deadline, &first, err);
		}
		deallocate_String_vector(&first);
		if (rc == DLOCK_OK) {
			l->holds = 1;
			l->confirmed_at = dlock_now_ms();
			free(l->watch);
			l->watch = NULL;
			registry_add(l);
			return DLOCK_OK;
		}
		lock_withdraw(l);
		if ((rc != DLOCK_ESESSION && rc != DLOCK_ELOST) ||
		    (deadline >= 0 && dlock_now_ms() >= deadline)) {
			break;
		}
		/* the session died under us (or our node was removed): queue again */
	}
	if (rc == DLOCK_ELOST) {
		rc = dlock_err_set(err, DLOCK_ESESSION, ZSESSIONEXPIRED,
		                   "lost the queued node of %.128s repeatedly", l->path);
	}
	return rc;
}

int dlock_lock_release(dlock_lock *l, int wait, dlock_err *err)
{
	if (l->holds > 1 && dlock_session_health(l->sess) == DLOCK_HEALTH_ALIVE) {
		l->holds--;
		return DLOCK_OK;
	}
	return dlock_lock_release_all(l, wait, err);
}

int dlock_lock_release_all(dlock_lock *l, int wait, dlock_err *err)
{
	int h, rc;

	if (l->holds == 0 || !l->node) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held", l->path);
	}
	if (!dlock_session_owned(l->sess)) {
		lock_forget(l); /* the node is the fork parent's: never touch it */
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process, not this fork", l->path);
	}
	h = dlock_session_health(l->sess);
	if (h == DLOCK_HEALTH_UNCERTAIN) {
		rc = dlock_session_wait_connected(
		    l->sess, dlock_now_ms() + dlock_session_connect_timeout(l->sess), NULL);
		h = rc == DLOCK_OK ? DLOCK_HEALTH_ALIVE : dlock_session_health(l->sess);
	}
	if (h == DLOCK_HEALTH_DEAD) {
		lock_forget(l);
		return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its session expired", l->path);
	}
	if (h == DLOCK_HEALTH_UNCERTAIN) {
		dlock_session_delete_later(l->sess, l->node, NULL);
		lock_forget(l);
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                     "lock %.128s released locally, but ZooKeeper is unreachable: its node "
		                     "is deleted when the connection returns, or goes with the session",
		                     l->path);
	}
	if (dlock_fault_hit(DLOCK_FAULT_DELETE_CONNLOSS)) {
		dlock_session_delete_later(l->sess, l->node, NULL);
	} else if (!wait) {
		dlock_session_delete_async(l->sess, l->node);
	} else {
		int zrc = zoo_delete(dlock_session_zh(l->sess), l->node, -1);

		rc = DLOCK_OK;
		if (zrc == ZNONODE || zrc == ZSESSIONEXPIRED) {
			rc = dlock_err_set(err, DLOCK_ELOST, zrc, "lock %.128s was lost: its node is gone",
			                   l->path);
		} else if (is_connloss(zrc)) {
			dlock_session_delete_later(l->sess, l->node, NULL);
			rc = dlock_err_set(err, DLOCK_ECONNLOSS, zrc,
			                   "lock %.128s released locally, but the delete met a connection "
			                   "loss: it is retried when the connection returns",
			                   l->path);
		} else if (zrc != ZOK) {
			return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot release lock %.128s: %s",
			                     l->path, zerror(zrc));
		}
		lock_forget(l);
		return rc;
	}
	lock_forget(l);
	return DLOCK_OK;
}

int dlock_lock_verify(dlock_lock *l, dlock_err *err)
{
	struct Stat st;
	int h, zrc;

	if (l->holds == 0 || !l->node) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held", l->path);
	}
	if (!dlock_session_owned(l->sess)) {
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process, not this fork", l->path);
	}
	h = dlock_session_health(l->sess);
	if (h == DLOCK_HEALTH_DEAD) {
		return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its session expired", l->path);
	}
	zrc = zoo_exists(dlock_session_zh(l->sess), l->node, 0, &st);
	if (zrc == ZOK && st.ephemeralOwner == dlock_session_id(l->sess)) {
		l->confirmed_at = dlock_now_ms();
		return DLOCK_OK;
	}
	if (zrc == ZOK || zrc == ZNONODE || zrc == ZSESSIONEXPIRED) {
		return dlock_err_set(err, DLOCK_ELOST, zrc, "lock %.128s was lost: its node is gone",
		                     l->path);
	}
	if (is_connloss(zrc) || zrc == ZINVALIDSTATE) {
		return dlock_err_set(
		    err, dlock_session_health(l->sess) == DLOCK_HEALTH_DEAD ? DLOCK_ELOST : DLOCK_ECONNLOSS,
		    zrc, "lock %.128s is not certainly held: %s", l->path, zerror(zrc));
	}
	return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot check lock %.128s: %s", l->path,
	                     zerror(zrc));
}

int dlock_lock_held(dlock_lock *l)
{
	if (l->holds == 0 || !l->sess || dlock_session_health(l->sess) != DLOCK_HEALTH_ALIVE) {
		return 0;
	}
	if (dlock_now_ms() - l->confirmed_at > dlock_session_timeout_ms(l->sess) / 3) {
		return dlock_lock_verify(l, NULL) == DLOCK_OK;
	}
	return 1;
}

unsigned dlock_lock_holds(const dlock_lock *l)
{
	return l->node ? l->holds : 0;
}

int64_t dlock_lock_token(const dlock_lock *l)
{
	return l->holds > 0 ? l->token : 0;
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

static int same_family(dlock_kind a, dlock_kind b)
{
	int rw_a = a == DLOCK_KIND_READ || a == DLOCK_KIND_WRITE;
	int rw_b = b == DLOCK_KIND_READ || b == DLOCK_KIND_WRITE;

	return rw_a == rw_b && (rw_a || a == b);
}

int dlock_lock_self_conflict(const dlock_lock *l, const char *hosts)
{
	const dlock_lock *o;
	int leases = 0, conflict = 0;

	pthread_mutex_lock(&registry_mu);
	for (o = registry; o && !conflict; o = o->reg_next) {
		if (o == l || o->holds == 0 || !o->sess || !dlock_session_owned(o->sess) ||
		    !same_family(o->kind, l->kind) || strcmp(o->path, l->path) != 0 || !o->hosts ||
		    strcmp(o->hosts, hosts) != 0) {
			continue;
		}
		if (l->kind == DLOCK_KIND_SEMAPHORE) {
			leases++;
		} else if (l->kind == DLOCK_KIND_MUTEX || l->kind == DLOCK_KIND_WRITE ||
		           o->kind == DLOCK_KIND_WRITE) {
			conflict = 1;
		}
	}
	pthread_mutex_unlock(&registry_mu);
	return conflict || (l->kind == DLOCK_KIND_SEMAPHORE && leases >= l->max_leases);
}
