/* dlock_queue.c: lists a lock's contenders in queue order with their data. */
#include "dlock_queue.h"

#include <stdlib.h>
#include <string.h>

#include "dlock_path.h"
#include "dlock_rule.h"

#define DLOCK_QUEUE_DATA_MAX (1024 * 1024)

void dlock_queue_free(dlock_participant *p, size_t count)
{
	dlock_participants_free(p, count);
}

int dlock_queue_list(dlock_session *s, dlock_kind kind, int max_leases, const char *path,
                     dlock_participant **out, size_t *count, dlock_err *err)
{
	struct String_vector kids = {0, NULL};
	dlock_entry *order = NULL;
	dlock_participant *list = NULL;
	char *full = NULL, *buf = NULL;
	size_t n = 0, m = 0, i;
	int zrc, rc = DLOCK_OK;

	*out = NULL;
	*count = 0;
	if (!dlock_session_zh(s)) {
		return dlock_err_set(err, DLOCK_ESESSION, ZSESSIONEXPIRED, "session expired");
	}
	zrc = zoo_get_children(dlock_session_zh(s), path, 0, &kids);
	if (zrc == ZNONODE) {
		return DLOCK_OK;
	}
	if (zrc != ZOK) {
		return dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot list %.128s: %s", path,
		                     zerror(zrc));
	}
	order = calloc((size_t)kids.count + 1, sizeof(*order));
	list = calloc((size_t)kids.count + 1, sizeof(*list));
	full = malloc(strlen(path) + 512);
	buf = malloc(DLOCK_QUEUE_DATA_MAX);
	if (!order || !list || !full || !buf) {
		rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
		goto done;
	}
	for (i = 0; i < (size_t)kids.count; i++) {
		if (strlen(kids.data[i]) < 500 && dlock_rule_parse(kind, kids.data[i], &order[n])) {
			n++;
		}
	}
	dlock_rule_sort(order, n);
	for (i = 0; i < n; i++) {
		struct Stat st;
		int len = DLOCK_QUEUE_DATA_MAX;
		dlock_participant *p = &list[m];

		strcpy(full, path);
		strcat(full, "/");
		strcat(full, order[i].name);
		zrc = zoo_get(dlock_session_zh(s), full, 0, buf, &len, &st);
		if (zrc == ZNONODE) {
			continue;
		}
		if (zrc != ZOK) {
			rc = dlock_err_set(err, dlock_err_from_zk(zrc), zrc, "cannot read %.128s: %s", full,
			                   zerror(zrc));
			goto done;
		}
		if (len < 0) {
			len = 0;
		}
		p->name = strdup(order[i].name);
		p->data = malloc((size_t)len + 1);
		if (!p->name || !p->data) {
			free(p->name);
			free(p->data);
			rc = dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
			goto done;
		}
		memcpy(p->data, buf, (size_t)len);
		p->data[len] = '\0';
		p->data_len = (size_t)len;
		p->token = st.czxid;
		p->owner = st.ephemeralOwner;
		p->writer = order[i].writer;
		p->holder = dlock_rule_holds(kind, max_leases, order, n, i);
		m++;
	}
	*out = list;
	*count = m;
	list = NULL;
done:
	dlock_queue_free(list, m);
	free(order);
	free(full);
	free(buf);
	deallocate_String_vector(&kids);
	return rc;
}
