/* dlock_zk_enqueue.c: putting a contender's node into a ZooKeeper queue: a
 * fresh GUID for the attempt, the node's Curator-style name
 * (PATH/_c_GUID-MARKER), the pipelined create and list (dlock_zk_create.c),
 * and adopting the node (of a recovered create's duplicates, the first in
 * queue order stays). Below dlock_zk_lock.c. */
#include "dlock_zk_lock_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../dlock_backend.h"
#include "dlock_zk_create.h"

/* The sort key of a lock node's name, whatever its kind (NULL: not one). */
static const char *name_key(const char *name)
{
	static const dlock_kind kinds[] = {DLOCK_KIND_READ, DLOCK_KIND_MUTEX, DLOCK_KIND_SEMAPHORE};
	dlock_entry e;
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		if (dlock_rule_parse(kinds[i], name, &e)) {
			return e.key;
		}
	}
	return NULL;
}

/* Queue order of two of our node names (to pick one of a create's recovered
 * duplicates: the first in the queue stays). */
static int name_less(const char *a, const char *b)
{
	const char *ka = name_key(a), *kb = name_key(b);

	return ka && kb ? dlock_seq_cmp(ka, kb) < 0 : strcmp(a, b) < 0;
}

/* A fresh random GUID for this attempt, what dlock_guid() writes (version 4,
 * 8-4-4-4-12 lower-case hex), formatted by hand: dlock_guid's snprintf of
 * sixteen arguments was ~6,300 instructions a cycle, a third of acquire()'s
 * own (callgrind, bench/results/2026-11-25-i11/callgrind.txt). */
static int lock_guid(char out[DLOCK_GUID_LEN + 1], dlock_err *err)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char b[16];
	size_t got = 0, i;
	char *p = out;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0) {
			if (errno == EINTR) {
				continue;
			}
			return dlock_guid(out, err); /* it reports the failure */
		}
		got += (size_t)n;
	}
	b[6] = (unsigned char)((b[6] & 0x0F) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3F) | 0x80); /* RFC 4122 variant */
	for (i = 0; i < sizeof(b); i++) {
		if (i == 4 || i == 6 || i == 8 || i == 10) {
			*p++ = '-';
		}
		*p++ = hex[b[i] >> 4];
		*p++ = hex[b[i] & 0x0F];
	}
	*p = '\0';
	return DLOCK_OK;
}

int dlock_zk_enqueue(dlock_lock *l, dlock_session *s, const dlock_acquire_opts *o, int64_t deadline,
                     struct String_vector *first, dlock_err *err)
{
	const char *marker = dlock_kind_marker(l->kind);
	size_t plen = strlen(l->path), mlen = strlen(marker);
	char *prefix = malloc(plen + 4 + DLOCK_GUID_LEN + 1 + mlen + 1);
	dlock_create_req r;
	dlock_created got;
	int rc;
	int64_t sent = dlock_now_ms(); /* the create+list below are sent after this */

	if (!prefix) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	rc = lock_guid(l->guid, err);
	if (rc == DLOCK_OK) { /* PATH/_c_GUID-MARKER, without snprintf */
		char *p = prefix;

		memcpy(p, l->path, plen);
		p += plen;
		memcpy(p, "/_c_", 4);
		p += 4;
		memcpy(p, l->guid, DLOCK_GUID_LEN);
		p += DLOCK_GUID_LEN;
		*p++ = '-';
		memcpy(p, marker, mlen + 1);
		r.path = l->path;
		r.prefix = prefix;
		r.guid = l->guid;
		r.data = o->data;
		r.data_len = o->data_len;
		r.deadline = deadline;
		r.call_deadline = dlock_zk_call_deadline(deadline);
		r.intr = o->intr;
		r.less = name_less;
		rc = dlock_create_node(s, &r, &got, err);
	}
	if (rc == DLOCK_OK) {
		l->node = got.node;
		l->token = got.czxid;
		l->sess = s;
		dlock_session_ref(s);
		char space[1100];

		dlock_zk_hosts_space(o->cfg->hosts, space, sizeof(space));
		l->hosts = strdup(space); /* the ensemble as the guard and the registry compare it */
		l->confirmed_at = sent;
		*first = got.kids;
		if (!l->hosts) {
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		}
	}
	free(prefix);
	return rc;
}
