/* dlock_mutex.c: the fair exclusive lock recipe over one session. All
 * ZooKeeper calls happen on the caller's thread; waiting is on the session's
 * condition, signalled by the predecessor's watch. */
#include "dlock_mutex.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_path.h"

#define DLOCK_CREATE_RETRIES 5 /* parent reaped between mkdir and create */

struct dlock_mutex {
	char *path;          /* lock path (owned) */
	char *node;          /* our node's full path while queued or held (owned), else NULL */
	dlock_session *sess; /* reference held while node != NULL */
	int64_t token;       /* czxid of node */
	unsigned holds;      /* reentrant hold count; > 0 only with a node */
};

int dlock_mutex_new(const char *path, size_t len, dlock_mutex **out, dlock_err *err)
{
	dlock_mutex *m;
	int rc;

	*out = NULL;
	rc = dlock_path_validate(path, len, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	m = calloc(1, sizeof(*m));
	if (!m || !(m->path = strndup(path, len))) {
		free(m);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	*out = m;
	return DLOCK_OK;
}

/* Forgets the node and the session reference without touching the server. */
static void mutex_forget(dlock_mutex *m)
{
	free(m->node);
	m->node = NULL;
	m->holds = 0;
	m->token = 0;
	if (m->sess) {
		dlock_session_unref(m->sess);
		m->sess = NULL;
	}
}

/* Deletes our node (queued or held) and forgets it. A node that is already
 * gone counts as deleted. Returns DLOCK_OK or the delete's failure, in which
 * case the state is kept so the caller may retry. */
static int mutex_delete_node(dlock_mutex *m, dlock_err *err)
{
	int zrc = zoo_delete(dlock_session_zh(m->sess), m->node, -1);

	if (zrc != ZOK && zrc != ZNONODE) {
		return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot delete lock node %.128s: %s",
		                     m->node, zerror(zrc));
	}
	mutex_forget(m);
	return DLOCK_OK;
}

void dlock_mutex_free(dlock_mutex *m)
{
	if (!m) {
		return;
	}
	if (m->node && dlock_session_usable(m->sess)) {
		mutex_delete_node(m, NULL);
	}
	mutex_forget(m);
	free(m->path);
	free(m);
}

/* Creates every missing ancestor of m->path, and m->path itself, as container
 * nodes (persistent ones on servers without containers). */
static int mutex_make_parents(dlock_mutex *m, zhandle_t *zh, dlock_err *err)
{
	size_t len = strlen(m->path), i;
	char *buf = malloc(len + 1);
	int rc = DLOCK_OK;

	if (!buf) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (i = 1; i <= len; i++) {
		int zrc;

		if (i < len && m->path[i] != '/') {
			continue;
		}
		memcpy(buf, m->path, i);
		buf[i] = '\0';
		zrc = zoo_create(zh, buf, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_CONTAINER, NULL, 0);
		if (zrc == ZUNIMPLEMENTED) {
			zrc = zoo_create(zh, buf, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, ZOO_PERSISTENT, NULL, 0);
		}
		if (zrc != ZOK && zrc != ZNODEEXISTS) {
			rc = dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot create %.128s: %s", buf,
			                   zerror(zrc));
			break;
		}
	}
	free(buf);
	return rc;
}

/* Creates our EPHEMERAL_SEQUENTIAL node `<path>/_c_<guid>-lock-<seq>` and
 * records its path and czxid. */
static int mutex_create_node(dlock_mutex *m, dlock_session *s, const char *data, size_t data_len,
                             dlock_err *err)
{
	zhandle_t *zh = dlock_session_zh(s);
	size_t plen = strlen(m->path);
	size_t cap = plen + 64;
	char guid[DLOCK_GUID_LEN + 1];
	char *prefix = NULL, *created = NULL;
	struct Stat st;
	int rc, zrc = ZOK, tries;

	rc = dlock_guid(guid, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	prefix = malloc(cap);
	created = malloc(cap + 16);
	if (!prefix || !created) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	snprintf(prefix, cap, "%s/_c_%s-" DLOCK_LOCK_MARKER, m->path, guid);
	for (tries = 0; tries < DLOCK_CREATE_RETRIES; tries++) {
		zrc = zoo_create2(zh, prefix, data, (int)data_len, &ZOO_OPEN_ACL_UNSAFE,
		                  ZOO_EPHEMERAL_SEQUENTIAL, created, (int)(cap + 16), &st);
		if (zrc != ZNONODE) {
			break;
		}
		rc = mutex_make_parents(m, zh, err);
		if (rc != DLOCK_OK) {
			goto done;
		}
	}
	if (zrc != ZOK) {
		rc = dlock_err_set(err, dlock_err_from_zk(zrc), zrc,
		                   "cannot create lock node under %.128s: %s", m->path, zerror(zrc));
		goto done;
	}
	m->node = created;
	created = NULL;
	m->token = st.czxid;
	m->sess = s;
	dlock_session_ref(s);
done:
	free(prefix);
	free(created);
	return rc;
}

/* Outcome of one look at the queue. */
typedef struct queue_view {
	int found;  /* our node is among the children */
	int lower;  /* children ordered before ours */
	char *pred; /* full path of our immediate predecessor (owned) or NULL */
} queue_view;

/* Lists the lock's children and locates our node and its predecessor. */
static int mutex_look(dlock_mutex *m, queue_view *v, dlock_err *err)
{
	struct String_vector kids = {0, NULL};
	const char *mine = strrchr(m->node, '/') + 1;
	const char *best = NULL;
	int32_t my_seq = 0, best_seq = 0, seq;
	int zrc, i, rc = DLOCK_OK;

	memset(v, 0, sizeof(*v));
	if (!dlock_name_seq(mine, DLOCK_LOCK_MARKER, &my_seq)) {
		return dlock_err_set(err, DLOCK_EZK, 0, "server returned a malformed node name");
	}
	zrc = zoo_get_children(dlock_session_zh(m->sess), m->path, 0, &kids);
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot list %.128s: %s", m->path,
		                     zerror(zrc));
	}
	for (i = 0; i < kids.count; i++) {
		const char *name = kids.data[i];

		if (strcmp(name, mine) == 0) {
			v->found = 1;
			continue;
		}
		if (!dlock_name_seq(name, DLOCK_LOCK_MARKER, &seq) || dlock_seq_cmp(seq, my_seq) >= 0) {
			continue;
		}
		v->lower++;
		if (!best || dlock_seq_cmp(seq, best_seq) > 0) {
			best = name;
			best_seq = seq;
		}
	}
	if (v->found && best) {
		size_t n = strlen(m->path) + strlen(best) + 2;

		v->pred = malloc(n);
		if (!v->pred) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		} else {
			snprintf(v->pred, n, "%s/%s", m->path, best);
		}
	}
	deallocate_String_vector(&kids);
	return rc;
}

/* Waits until our node is the lowest. Returns DLOCK_OK when it is. */
static int mutex_wait_turn(dlock_mutex *m, int64_t deadline_ms, int once,
                           const dlock_interrupt *intr, dlock_err *err)
{
	queue_view v = {0, 0, NULL};
	int rc;

	for (;;) {
		char buf[1];
		int blen = sizeof(buf), type = 0, zrc;
		void *ctx;

		free(v.pred);
		rc = mutex_look(m, &v, err);
		if (rc != DLOCK_OK) {
			break;
		}
		if (!v.found) {
			rc =
			    dlock_err_set(err, DLOCK_ESESSION, 0,
			                  "lock node %.128s vanished while queued (session expired?)", m->node);
			break;
		}
	recheck:
		if (!v.pred) {
			rc = DLOCK_OK;
			break;
		}
		if (once) {
			rc = DLOCK_ETIMEDOUT;
			break;
		}
		ctx = dlock_session_arm(m->sess);
		zrc = zoo_wget(dlock_session_zh(m->sess), v.pred, dlock_session_watcher, ctx, buf, &blen,
		               NULL);
		if (zrc == ZNONODE) {
			continue; /* predecessor already gone: look again */
		}
		if (zrc != ZOK) {
			rc = dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot watch %.128s: %s", v.pred,
			                   zerror(zrc));
			break;
		}
		rc = dlock_session_wait(m->sess, ctx, deadline_ms, intr, &type);
		if (rc == DLOCK_ESESSION) {
			dlock_err_set(err, rc, ZSESSIONEXPIRED, "session expired while waiting for %.128s",
			              m->path);
			break;
		}
		if (rc != DLOCK_OK) {
			break;
		}
		if (type == ZOO_DELETED_EVENT && v.lower == 1) {
			/* the one node before ours is gone; sequence numbers only grow, so
			 * nothing else can be ahead of us: no need to list again */
			free(v.pred);
			v.pred = NULL;
			goto recheck;
		}
	}
	free(v.pred);
	return rc;
}

int dlock_mutex_acquire(dlock_mutex *m, dlock_session *s, const char *data, size_t data_len,
                        int64_t timeout_ms, const dlock_interrupt *intr, dlock_err *err)
{
	int64_t deadline = timeout_ms < 0 ? -1 : dlock_now_ms() + timeout_ms;
	int rc;

	if (m->holds > 0 && dlock_mutex_held(m)) {
		m->holds++;
		return DLOCK_OK;
	}
	if (m->node) { /* left over from a dead session or a fork parent */
		mutex_forget(m);
	}
	rc = dlock_session_wait_connected(s, deadline, intr);
	if (rc == DLOCK_ETIMEDOUT) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                     "not connected to ZooKeeper; gave up after the timeout");
	}
	if (rc != DLOCK_OK) {
		return dlock_err_set(err, rc, 0, "%s",
		                     rc == DLOCK_ESESSION ? "session expired" : "interrupted");
	}
	rc = mutex_create_node(m, s, data, data_len, err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	rc = mutex_wait_turn(m, deadline, timeout_ms == 0, intr, err);
	if (rc == DLOCK_OK) {
		m->holds = 1;
		return DLOCK_OK;
	}
	if (rc == DLOCK_ESESSION || !dlock_session_usable(m->sess)) {
		mutex_forget(m); /* the node died with the session */
	} else {
		dlock_err tmp;

		if (mutex_delete_node(m, &tmp) != DLOCK_OK) {
			/* cannot reach the server: the node goes with the session */
			mutex_forget(m);
		}
	}
	return rc;
}

int dlock_mutex_release(dlock_mutex *m, dlock_err *err)
{
	if (m->holds > 1 && dlock_mutex_held(m)) {
		m->holds--;
		return DLOCK_OK;
	}
	return dlock_mutex_release_all(m, err);
}

int dlock_mutex_release_all(dlock_mutex *m, dlock_err *err)
{
	int zrc;

	if (m->holds == 0 || !m->node) {
		return dlock_err_set(err, DLOCK_ENOTHELD, 0, "lock %.128s is not held", m->path);
	}
	if (!dlock_session_owned(m->sess)) {
		mutex_forget(m); /* the node is the fork parent's: never touch it */
		return dlock_err_set(err, DLOCK_EFORKED, 0,
		                     "lock %.128s is held by the parent process, not this fork", m->path);
	}
	if (!dlock_session_usable(m->sess)) {
		mutex_forget(m);
		return dlock_err_set(err, DLOCK_ELOST, ZSESSIONEXPIRED,
		                     "lock %.128s was lost: its session expired", m->path);
	}
	zrc = zoo_delete(dlock_session_zh(m->sess), m->node, -1);
	if (zrc == ZNONODE) {
		mutex_forget(m);
		return dlock_err_set(err, DLOCK_ELOST, zrc, "lock %.128s was lost: its node is gone",
		                     m->path);
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot release lock %.128s: %s",
		                     m->path, zerror(zrc));
	}
	mutex_forget(m);
	return DLOCK_OK;
}

int dlock_mutex_held(const dlock_mutex *m)
{
	return m->holds > 0 && m->sess && dlock_session_usable(m->sess);
}

unsigned dlock_mutex_holds(const dlock_mutex *m)
{
	return dlock_mutex_held(m) ? m->holds : 0;
}

int64_t dlock_mutex_token(const dlock_mutex *m)
{
	return dlock_mutex_held(m) ? m->token : 0;
}

const char *dlock_mutex_path(const dlock_mutex *m)
{
	return m->path;
}

const char *dlock_mutex_node(const dlock_mutex *m)
{
	return m->node;
}
