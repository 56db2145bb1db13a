/* dlock_zk_admin.c: listing every lock under a prefix and breaking a lock by
 * force, for operators (the dlock command). A lock is a znode whose children
 * include queue nodes of a lock family (dlock_zk_rule.c decides what a queue
 * node is and who holds); the walk and the deletes are sent asynchronously and
 * waited for with one deadline, as every other request of the wing. */
#include "dlock_zk_admin.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_zk_call.h"
#include "dlock_zk_err.h"
#include "dlock_zk_queue.h"
#include "dlock_zk_rule.h"

/* The families a znode's children may belong to, with their names. */
static const dlock_kind admin_families[] = {DLOCK_KIND_MUTEX, DLOCK_KIND_READ,
                                            DLOCK_KIND_SEMAPHORE};
static const char *const admin_family_names[] = {"mutex", "rw", "semaphore"};
#define ADMIN_FAMILIES 3

/* The family most of kids belong to (index into admin_families) and how
 * many queue nodes it has in *n; -1 when none is a queue node. */
static int admin_family(const struct String_vector *kids, size_t *n)
{
	size_t counts[ADMIN_FAMILIES] = {0, 0, 0}, best = 0;
	int i, j, fam = -1;
	dlock_entry e;

	for (i = 0; i < kids->count; i++) {
		for (j = 0; j < ADMIN_FAMILIES; j++) {
			if (dlock_rule_parse(admin_families[j], kids->data[i], &e)) {
				counts[j]++;
				break;
			}
		}
	}
	for (j = 0; j < ADMIN_FAMILIES; j++) {
		if (counts[j] > best) {
			best = counts[j];
			fam = j;
		}
	}
	*n = best;
	return fam;
}

/* "parent/name" (no double slash under the root), or NULL when out of memory. */
static char *admin_join(const char *parent, const char *name)
{
	size_t pl = strlen(parent), nl = strlen(name);
	char *p = malloc(pl + nl + 2);

	if (!p) {
		return NULL;
	}
	memcpy(p, parent, pl);
	if (pl == 0 || parent[pl - 1] != '/') {
		p[pl++] = '/';
	}
	memcpy(p + pl, name, nl + 1);
	return p;
}

static int admin_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Lists path's children into *kids within deadline. ZNONODE is an empty
 * listing. Returns DLOCK_OK or an error with err set. */
static int admin_children(dlock_session *s, const char *path, int64_t deadline, int64_t timeout_ms,
                          const dlock_interrupt *intr, struct String_vector *kids, dlock_err *err)
{
	dlock_call *c = dlock_call_children(s, path);
	int rc = dlock_call_wait(c, deadline, intr), zrc = c ? c->rc : 0;

	kids->count = 0;
	kids->data = NULL;
	if (rc == DLOCK_OK && zrc == ZOK) {
		*kids = dlock_call_take_kids(c);
	}
	dlock_call_release(c);
	if (rc == DLOCK_ETIMEDOUT) {
		return dlock_err_set(err, DLOCK_ECONNLOSS, ZOPERATIONTIMEOUT,
		                     "cannot list %.128s: no answer from ZooKeeper within "
		                     "connect_timeout (%.3f s)",
		                     path, (double)timeout_ms / 1000.0);
	}
	if (rc != DLOCK_OK) {
		return dlock_call_failed(rc, "listing", path, err);
	}
	if (zrc != ZOK && zrc != ZNONODE) {
		return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot list %.128s: %s", path,
		                     zerror(zrc));
	}
	return DLOCK_OK;
}

/* Connected, within deadline. */
static int admin_ready(dlock_session *s, int64_t deadline, const dlock_interrupt *intr,
                       dlock_err *err)
{
	int rc;

	if (dlock_session_health(s) == DLOCK_HEALTH_UNCERTAIN &&
	    (rc = dlock_call_reconnect(s, deadline, intr, err)) != DLOCK_OK) {
		return rc;
	}
	if (!dlock_session_zh(s)) {
		return dlock_err_set(err, DLOCK_ESESSION, ZSESSIONEXPIRED, "session expired");
	}
	return DLOCK_OK;
}

/* Whether path starts with prefix ("/" starts every path). */
static int admin_under(const char *path, const char *prefix)
{
	return strcmp(prefix, "/") == 0 || strncmp(path, prefix, strlen(prefix)) == 0;
}

int dlock_zk_admin_list(dlock_session *s, const char *prefix, int64_t timeout_ms,
                        const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
                        dlock_err *err)
{
	int64_t deadline = dlock_now_ms() + timeout_ms;
	char **todo = NULL; /* paths still to visit: a stack, kept in tree order */
	size_t ntodo = 0, cap = 0, visited = 0, n = 0, ncap = 0;
	dlock_lock_entry *list = NULL;
	int rc;

	*out = NULL;
	*count = 0;
	if ((rc = admin_ready(s, deadline, intr, err)) != DLOCK_OK) {
		return rc;
	}
	/* the walk starts at the prefix's parent (a name prefix, as on the
	 * other backends: "/a/pf" finds "/a/pfx/job"), whose own entry and
	 * children are kept only where they start with the prefix; below
	 * those every path does */
	if (!(todo = malloc(sizeof(*todo) * (cap = 64))) ||
	    !(todo[0] = strndup(prefix, (size_t)(strrchr(prefix, '/') - prefix)))) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	if (!todo[0][0] || strcmp(prefix, "/") == 0) {
		free(todo[0]);
		if (!(todo[0] = strdup("/"))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
	}
	ntodo = 1;
	while (ntodo > 0) {
		char *path = todo[--ntodo];
		struct String_vector kids;
		size_t queued = 0, i;
		int fam, top = visited == 0;

		if (++visited > DLOCK_ZK_ADMIN_MAX_NODES) {
			free(path);
			rc = dlock_err_set(err, DLOCK_EINVAL, 0,
			                   "more than %d znodes under %.128s: give a longer prefix",
			                   DLOCK_ZK_ADMIN_MAX_NODES, prefix);
			goto done;
		}
		if ((rc = admin_children(s, path, deadline, timeout_ms, intr, &kids, err)) != DLOCK_OK) {
			free(path);
			goto done;
		}
		fam = admin_family(&kids, &queued);
		if (fam >= 0 && admin_under(path, prefix)) {
			if (n == ncap) {
				dlock_lock_entry *g = realloc(list, sizeof(*list) * (ncap = ncap * 2 + 16));

				if (!g) {
					free(path);
					deallocate_String_vector(&kids);
					rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
					goto done;
				}
				list = g;
			}
			list[n].name = path;
			list[n].kind = admin_family_names[fam];
			list[n].contenders = queued;
			n++;
			path = NULL;
		}
		/* children that are not queue nodes may hold locks of their own;
		 * pushed in reverse order so that they are visited sorted */
		qsort(kids.data, (size_t)kids.count, sizeof(*kids.data), admin_name_cmp);
		for (i = (size_t)kids.count; i-- > 0;) {
			dlock_entry e;
			const char *base = path ? path : list[n - 1].name;
			int j, queue_node = 0;

			for (j = 0; j < ADMIN_FAMILIES && !queue_node; j++) {
				queue_node = dlock_rule_parse(admin_families[j], kids.data[i], &e);
			}
			if (queue_node || (strcmp(base, "/") == 0 && strcmp(kids.data[i], "zookeeper") == 0)) {
				continue;
			}
			if (ntodo == cap) {
				char **g = realloc(todo, sizeof(*todo) * (cap *= 2));

				if (!g) {
					rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
					break;
				}
				todo = g;
			}
			if (!(todo[ntodo] = admin_join(base, kids.data[i]))) {
				rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
				break;
			}
			if (top && !admin_under(todo[ntodo], prefix)) {
				free(todo[ntodo]); /* a sibling of the prefix's last segment */
				continue;
			}
			ntodo++;
		}
		free(path);
		deallocate_String_vector(&kids);
		if (rc != DLOCK_OK) {
			goto done;
		}
	}
	*out = list;
	*count = n;
	list = NULL;
	n = 0;
done:
	while (ntodo > 0) {
		free(todo[--ntodo]);
	}
	free(todo);
	dlock_lock_entries_free(list, n);
	return rc;
}

int dlock_zk_admin_break(dlock_session *s, const char *path, int64_t timeout_ms,
                         const dlock_interrupt *intr, int *broken, dlock_err *err)
{
	int64_t deadline = dlock_now_ms() + timeout_ms;
	struct String_vector kids = {0, NULL};
	dlock_participant *q = NULL;
	dlock_call **dels = NULL;
	size_t queued = 0, n = 0, i, ndel = 0;
	char *full = NULL;
	int rc, fam;

	*broken = 0;
	if ((rc = admin_ready(s, deadline, intr, err)) != DLOCK_OK ||
	    (rc = admin_children(s, path, deadline, timeout_ms, intr, &kids, err)) != DLOCK_OK) {
		return rc;
	}
	fam = admin_family(&kids, &queued);
	deallocate_String_vector(&kids);
	if (fam < 0) {
		return DLOCK_OK; /* no queue: nothing held */
	}
	if (admin_families[fam] == DLOCK_KIND_SEMAPHORE) {
		return dlock_err_set(err, DLOCK_EUNSUPPORTED, 0,
		                     "a semaphore: which leases hold depends on its "
		                     "maxLeases, which ZooKeeper does not store; not broken");
	}
	/* who holds now, by the family's own rule */
	rc = dlock_queue_list(s, admin_families[fam], 1, path, deadline - dlock_now_ms(), intr, &q, &n,
	                      err);
	if (rc != DLOCK_OK) {
		return rc;
	}
	if (!(dels = calloc(n + 1, sizeof(*dels)))) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < n; i++) {
		if (!q[i].holder) {
			continue;
		}
		free(full);
		if (!(full = admin_join(path, q[i].name)) || !(dels[ndel] = dlock_call_delete(s, full))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
		ndel++;
	}
	for (i = 0; i < ndel; i++) {
		int w = dlock_call_wait(dels[i], deadline, intr);

		if (w != DLOCK_OK) {
			rc = w == DLOCK_ETIMEDOUT
			         ? dlock_err_set(err, DLOCK_ECONNLOSS, ZOPERATIONTIMEOUT,
			                         "breaking %.128s: no answer from ZooKeeper in time", path)
			         : dlock_call_failed(w, "breaking", path, err);
			goto done;
		}
		if (dels[i]->rc == ZOK) {
			(*broken)++;
		} else if (dels[i]->rc != ZNONODE) { /* gone meanwhile: released */
			rc = dlock_err_set(err, dlock_zk_status(dels[i]->rc), dels[i]->rc,
			                   "cannot delete a holder's node of %.128s: %s", path,
			                   zerror(dels[i]->rc));
			goto done;
		}
	}
done:
	for (i = 0; dels && i < ndel; i++) {
		dlock_call_release(dels[i]);
	}
	free(dels);
	free(full);
	dlock_participants_free(q, n);
	return rc;
}

int dlock_zk_admin_wait(dlock_session *s, const char *path, int64_t timeout_ms,
                        int64_t connect_timeout_ms, const dlock_interrupt *intr, int *changed,
                        dlock_err *err)
{
	int64_t deadline = dlock_now_ms() + timeout_ms;
	size_t len = strlen(path);
	char *key = malloc(len + 2);
	dlock_watch *w = NULL;
	dlock_call *c;
	uint64_t mark;
	int rc, zrc;

	*changed = 0;
	if (!key) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	/* a record of its own: a child watch, keyed apart from the lock
	 * recipe's data watches (no znode path starts with \1) */
	key[0] = '\1';
	memcpy(key + 1, path, len + 1);
	if ((rc = admin_ready(s, dlock_now_ms() + connect_timeout_ms, intr, err)) != DLOCK_OK) {
		goto done;
	}
	if (!(w = dlock_session_watch_get(s, key))) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	mark = dlock_session_watch_mark(s, w);
	c = dlock_call_watch_children(s, w, path);
	rc = dlock_call_wait(c, dlock_now_ms() + connect_timeout_ms, intr);
	zrc = c ? c->rc : 0;
	dlock_call_release(c);
	if (rc == DLOCK_ETIMEDOUT) {
		rc = dlock_err_set(err, DLOCK_ECONNLOSS, ZOPERATIONTIMEOUT,
		                   "cannot watch %.128s: no answer from ZooKeeper within "
		                   "connect_timeout",
		                   path);
		goto done;
	}
	if (rc != DLOCK_OK) {
		rc = dlock_call_failed(rc, "watching", path, err);
		goto done;
	}
	if (zrc == ZNONODE) {
		*changed = -1;
		goto done;
	}
	if (zrc != ZOK) {
		rc = dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot watch %.128s: %s", path,
		                   zerror(zrc));
		goto done;
	}
	rc = dlock_session_wait_watches(s, &w, &mark, 1, deadline, intr, NULL);
	if (rc == DLOCK_OK) {
		*changed = 1;
	} else if (rc == DLOCK_ETIMEDOUT) {
		rc = DLOCK_OK;
	} else {
		rc = dlock_call_failed(rc, "watching", path, err);
	}
done:
	if (w) {
		dlock_session_watch_put(s, w);
	}
	free(key);
	return rc;
}
