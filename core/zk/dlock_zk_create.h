/* dlock_zk_create.h: puts a contender's node into a lock's queue: one pipelined
 * create + listing, missing parents created as containers, and the recovery
 * of a create whose reply was lost, which never leaves a second node of ours
 * behind (Curator's protected mode: the node name carries a GUID). */
#ifndef DLOCK_ZK_CREATE_H
#define DLOCK_ZK_CREATE_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_err.h"
#include "dlock_zk_session.h"

/* What to create. Strings are borrowed for the call. */
typedef struct dlock_create_req {
	const char *path;            /* the lock path: parent of the node */
	const char *prefix;          /* "<path>/_c_<guid>-<marker>": the node, less its sequence */
	const char *guid;            /* the GUID inside prefix */
	const char *data;            /* node data */
	size_t data_len;             /* bytes of data */
	int64_t deadline;            /* waits for a reconnect end here (<0: none) */
	int64_t call_deadline;       /* server calls are given up here (<0: none) */
	const dlock_interrupt *intr; /* called between wait slices; may be NULL */
	int (*less)(const char *a, const char *b); /* queue order of two child names, to pick
	                                              the first of several recovered nodes */
} dlock_create_req;

/* What was created. */
typedef struct dlock_created {
	char *node;                /* the node's full path (owned by the caller) */
	int64_t czxid;             /* its creation zxid: the fencing token */
	struct String_vector kids; /* the listing sent with the create, or data NULL */
} dlock_created;

/* Creates r's EPHEMERAL_SEQUENTIAL node on s. Connection losses are ridden
 * out until r->deadline; after a loss the node is looked for by GUID (after a
 * sync, so a lagging server cannot hide it) and adopted when s owns it, any
 * second node of ours deleted. On DLOCK_OK *out is filled. Otherwise nothing
 * of ours is left: a node that may exist unseen is handed to the session's
 * retry thread by GUID. Returns DLOCK_OK, DLOCK_ETIMEDOUT (a call did not
 * answer by r->call_deadline), DLOCK_ECONNLOSS, DLOCK_ESESSION, DLOCK_EINTR,
 * DLOCK_EAUTH, DLOCK_EZK or DLOCK_ENOMEM. */
int dlock_create_node(dlock_session *s, const dlock_create_req *r, dlock_created *out,
                      dlock_err *err);

/* Frees the lock paths remembered as existing (module shutdown: the strings
 * would leak otherwise). Afterwards every path is unknown again. */
void dlock_create_forget_all(void);

#endif
