/* dlock_zk_create.c: a contender's node in a lock's queue. The create and the
 * children listing are sent together (one round trip: the server handles a
 * session's requests in order, so the listing includes the new node). Every
 * server call obeys the caller's deadline. */
#include "dlock_zk_create.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlock_zk_call.h"
#include "../dlock_fault.h"
#include "dlock_zk_err.h"

#define DLOCK_CREATE_TRIES  8   /* parent reaped between mkdir and create; lost replies */
#define DLOCK_PARENTS_KNOWN 256 /* lock paths remembered as existing, per process */

/* Lock paths this process saw exist, each with the session that saw it: a
 * known path's node is created at once; an unknown one gets its container
 * created in the same round trip, just before the node (a session's requests
 * are handled in order), so a lock on a new per-entity path costs what one on
 * an existing path does. The server removes an empty container after a while:
 * a create that then finds no parent forgets the path and creates it again.
 * The PHP thread is the only user (NTS builds only). */
static struct {
	int64_t sid; /* session that saw it; 0: free slot */
	char *path;  /* owned */
} parents_known[DLOCK_PARENTS_KNOWN];
static unsigned parents_next; /* the slot the next new path takes (oldest first) */

static int parent_slot(int64_t sid, const char *path)
{
	unsigned i;

	for (i = 0; i < DLOCK_PARENTS_KNOWN; i++) {
		/* newest first: the same few paths are locked again and again */
		unsigned k = (parents_next + DLOCK_PARENTS_KNOWN - 1 - i) % DLOCK_PARENTS_KNOWN;

		if (parents_known[k].sid == sid && parents_known[k].path &&
		    strcmp(parents_known[k].path, path) == 0) {
			return (int)k;
		}
	}
	return -1;
}

static void parent_remember(int64_t sid, const char *path)
{
	char *copy;

	if (parent_slot(sid, path) >= 0 || !(copy = strdup(path))) {
		return;
	}
	free(parents_known[parents_next].path);
	parents_known[parents_next].path = copy;
	parents_known[parents_next].sid = sid;
	parents_next = (parents_next + 1) % DLOCK_PARENTS_KNOWN;
}

static void parent_forget(int64_t sid, const char *path)
{
	int k = parent_slot(sid, path);

	if (k >= 0) {
		free(parents_known[k].path);
		parents_known[k].path = NULL;
		parents_known[k].sid = 0;
	}
}

void dlock_create_forget_all(void)
{
	unsigned i;

	for (i = 0; i < DLOCK_PARENTS_KNOWN; i++) {
		free(parents_known[i].path);
		parents_known[i].path = NULL;
		parents_known[i].sid = 0;
	}
	parents_next = 0;
}

/* Creates r->path as a container node (a persistent one on servers without
 * containers), and its missing ancestors: the deepest first, going up only
 * while the parent is missing, so a new lock under an existing parent costs
 * one create. */
static int create_parents(dlock_session *s, const dlock_create_req *r, dlock_err *err)
{
	size_t len = strlen(r->path), end = len, depth = 0;
	char *buf = malloc(len + 1);
	int rc = DLOCK_OK, zrc, flags = ZOO_CONTAINER;

	if (!buf) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	for (;;) {
		dlock_call *c;

		memcpy(buf, r->path, end);
		buf[end] = '\0';
		c = dlock_call_create(s, buf, NULL, 0, flags);
		rc = dlock_call_wait(c, r->call_deadline, r->intr);
		zrc = c ? c->rc : 0;
		dlock_call_release(c);
		if (rc != DLOCK_OK) {
			rc = dlock_call_failed(rc, "creating", buf, err);
			break;
		}
		if (zrc == ZUNIMPLEMENTED && flags == ZOO_CONTAINER) {
			flags = ZOO_PERSISTENT; /* a server without container nodes */
			continue;
		}
		if (zrc == ZNONODE && end > 1 && memchr(r->path + 1, '/', end - 1) == NULL) {
			/* a node right under the root has no parent to create: the root
			 * is the connect string's chroot, and it does not exist */
			rc = dlock_err_set(err, dlock_zk_status(zrc), zrc,
			                   "cannot create %.128s: the chroot \"%.128s\" of the connect string "
			                   "does not exist on the server (create it first)",
			                   buf, dlock_session_chroot(s) ? dlock_session_chroot(s) : "/");
			break;
		}
		if (zrc == ZNONODE && end > 1) {
			while (end > 0 && r->path[--end] != '/') {
			}
			depth++; /* the parent is missing too: create it first */
			continue;
		}
		if (zrc != ZOK && zrc != ZNODEEXISTS) {
			rc = dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot create %.128s: %s", buf,
			                   zerror(zrc));
			break;
		}
		if (depth == 0) {
			break;
		}
		do { /* back down one level */
			end++;
		} while (end < len && r->path[end] != '/');
		depth--;
	}
	free(buf);
	return rc;
}

/* Full path of child `name` of r->path (malloc'd) or NULL. */
static char *child_path(const dlock_create_req *r, const char *name)
{
	size_t n = strlen(r->path) + strlen(name) + 2;
	char *full = malloc(n);

	if (full) {
		snprintf(full, n, "%s/%s", r->path, name);
	}
	return full;
}

/* After a create whose reply was lost: syncs, lists, and adopts the first of
 * the children carrying our GUID whose ephemeral owner is this session (a
 * lagging server can still list a dead session's node: CURATOR-498); any
 * other such node of ours is deleted (guaranteed). Returns DLOCK_OK with
 * out->node set, DLOCK_OK with out->node NULL (not there: create again), or
 * the failing call's code. */
static int create_find_own(dlock_session *s, const dlock_create_req *r, dlock_created *out,
                           dlock_err *err)
{
	dlock_call *sync = dlock_call_sync(s, r->path), *list = dlock_call_children(s, r->path);
	struct String_vector kids = {0, NULL};
	int64_t me = dlock_session_id(s);
	const char *best = NULL;
	int rc, zrc, i;

	rc = dlock_call_wait(list, r->call_deadline, r->intr);
	zrc = list ? list->rc : 0;
	if (rc == DLOCK_OK && zrc == ZOK) {
		kids = dlock_call_take_kids(list);
	}
	dlock_call_release(list);
	dlock_call_release(sync); /* ordered before the listing: its reply adds nothing */
	if (rc != DLOCK_OK) {
		return dlock_call_failed(rc, "listing", r->path, err);
	}
	if (zrc == ZNONODE) {
		return DLOCK_OK;
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_zk_status(zrc), zrc, "cannot list %.128s: %s", r->path,
		                     zerror(zrc));
	}
	for (i = 0; i < kids.count && rc == DLOCK_OK; i++) {
		char *full;
		dlock_call *c;

		if (!strstr(kids.data[i], r->guid)) {
			continue;
		}
		if (!(full = child_path(r, kids.data[i]))) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			break;
		}
		c = dlock_call_exists(s, full);
		rc = dlock_call_wait(c, r->call_deadline, r->intr);
		if (rc != DLOCK_OK) {
			rc = dlock_call_failed(rc, "checking", full, err);
		} else if (dlock_call_unknown(c->rc)) {
			rc = dlock_err_set(err, DLOCK_ECONNLOSS, c->rc, "connection lost");
		} else if (c->rc == ZOK && c->stat.ephemeralOwner == me) {
			if (!best || r->less(kids.data[i], best)) {
				if (best) { /* a second node of ours: the later one goes */
					free(out->node);
				}
				best = kids.data[i];
				out->node = full;
				out->czxid = c->stat.czxid;
				full = NULL;
			}
		}
		dlock_call_release(c);
		free(full);
	}
	for (i = 0; i < kids.count && rc == DLOCK_OK && best; i++) {
		char *full;

		if (kids.data[i] != best && strstr(kids.data[i], r->guid) &&
		    (full = child_path(r, kids.data[i])) != NULL) {
			dlock_session_delete_async(s, full); /* a duplicate: never a second place */
			free(full);
		}
	}
	if (rc != DLOCK_OK) {
		free(out->node);
		out->node = NULL;
	}
	deallocate_String_vector(&kids);
	return rc;
}

int dlock_create_node(dlock_session *s, const dlock_create_req *r, dlock_created *out,
                      dlock_err *err)
{
	int rc = DLOCK_OK, zrc, tries, pending = 0;

	memset(out, 0, sizeof(*out));
	for (tries = 0; tries < DLOCK_CREATE_TRIES; tries++) {
		dlock_call *mkdir = NULL, *create, *list;
		int64_t sid = dlock_session_id(s);

		if (pending) { /* a create may have succeeded unseen: look for it first */
			rc = dlock_call_reconnect(s, r->deadline, r->intr, err);
			if (rc != DLOCK_OK) {
				break;
			}
			rc = create_find_own(s, r, out, err);
			if (rc == DLOCK_ECONNLOSS) {
				continue; /* the connection flapped again: ride it out again */
			}
			if (rc != DLOCK_OK || out->node) {
				break;
			}
			pending = 0;
		}
		if (tries == 0 && parent_slot(sid, r->path) < 0) {
			/* its reply comes before the create's: "exists" is fine, any other
			 * failure shows again as the create's ZNONODE */
			mkdir = dlock_call_create(s, r->path, NULL, 0, ZOO_CONTAINER);
		}
		create = dlock_call_create(s, r->prefix, r->data, r->data_len, ZOO_EPHEMERAL_SEQUENTIAL);
		list = dlock_call_children(s, r->path);
		rc = dlock_call_wait(create, r->call_deadline, r->intr);
		dlock_call_release(mkdir); /* answered before the create (or given up with it) */
		if (rc != DLOCK_OK) {
			pending = create != NULL; /* in flight: it may still land */
			dlock_call_release(create);
			dlock_call_release(list);
			rc = dlock_call_failed(rc, "creating a node under", r->path, err);
			break;
		}
		zrc = create->rc;
		if (zrc == ZOK && dlock_fault_hit(DLOCK_FAULT_CREATE_REPLY_LOST)) {
			zrc = ZCONNECTIONLOSS; /* the node exists, but we "never saw" the reply */
		}
		if (zrc == ZOK) {
			parent_remember(sid, r->path);
			out->node = dlock_call_take_created(create);
			out->czxid = create->stat.czxid;
			if (dlock_call_wait(list, r->call_deadline, r->intr) == DLOCK_OK && list->rc == ZOK) {
				out->kids = dlock_call_take_kids(list);
			}
			dlock_call_release(create);
			dlock_call_release(list);
			rc = DLOCK_OK;
			break;
		}
		dlock_call_release(create);
		dlock_call_release(list);
		if (dlock_call_unknown(zrc)) {
			pending = 1;
			continue;
		}
		if (zrc != ZNONODE) {
			rc = dlock_err_set(err, dlock_zk_status(zrc), zrc,
			                   "cannot create a lock node under %.128s: %s", r->path, zerror(zrc));
			break;
		}
		parent_forget(sid, r->path); /* reaped since, or its own parent is missing */
		rc = create_parents(s, r, err);
		if (rc == DLOCK_ECONNLOSS) {
			rc = dlock_call_reconnect(s, r->deadline, r->intr, err);
		}
		if (rc != DLOCK_OK) {
			break;
		}
	}
	if (tries == DLOCK_CREATE_TRIES) {
		rc = dlock_err_set(err, DLOCK_ECONNLOSS, ZCONNECTIONLOSS,
		                   "cannot create a lock node under %.128s after %d tries", r->path,
		                   DLOCK_CREATE_TRIES);
	}
	if (rc != DLOCK_OK && pending && rc != DLOCK_ESESSION) {
		/* the node may exist: the retry thread removes it by its GUID */
		dlock_session_delete_later(s, r->path, r->guid);
	}
	return rc;
}
