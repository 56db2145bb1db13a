/* dlock_held.c: the process's held locks, every backend's (dlock_held.h). */
#include "dlock_held.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

static dlock_held *held_head; /* entries of holding locks */
static pthread_mutex_t held_mu = PTHREAD_MUTEX_INITIALIZER;

void dlock_held_add(dlock_held *e, const void *family, void *owner, dlock_kind kind,
                    const char *path, const char *space, const char *node)
{
	pthread_mutex_lock(&held_mu);
	if (!e->prev) {
		e->family = family;
		e->owner = owner;
		e->kind = kind;
		e->path = path;
		e->space = space;
		e->node = node;
		e->pid = (long)getpid();
		e->next = held_head;
		if (held_head) {
			held_head->prev = &e->next;
		}
		held_head = e;
		e->prev = &held_head;
	}
	pthread_mutex_unlock(&held_mu);
}

void dlock_held_remove(dlock_held *e)
{
	pthread_mutex_lock(&held_mu);
	if (e->prev) {
		*e->prev = e->next;
		if (e->next) {
			e->next->prev = e->prev;
		}
		e->next = NULL;
		e->prev = NULL;
	}
	pthread_mutex_unlock(&held_mu);
}

/* Non-zero when o holds `path` in `space` in this process (entries a fork
 * parent linked are its holds, not ours). */
static int held_same_lock(const dlock_held *o, const char *path, const char *space)
{
	return o->pid == (long)getpid() && o->path && o->space && strcmp(o->path, path) == 0 &&
	       strcmp(o->space, space) == 0;
}

const dlock_held *dlock_held_next(const dlock_held *prev, const dlock_held *self,
                                  const void *family, const char *path, const char *space)
{
	const dlock_held *o;

	pthread_mutex_lock(&held_mu);
	for (o = prev ? prev->next : held_head; o; o = o->next) {
		if (o != self && o->family == family && held_same_lock(o, path, space)) {
			break;
		}
	}
	pthread_mutex_unlock(&held_mu);
	return o;
}

int dlock_held_owns(const dlock_held *self, const char *path, const char *space, const char *name)
{
	const dlock_held *o;
	size_t plen = strlen(path);
	int mine = 0;

	pthread_mutex_lock(&held_mu);
	for (o = held_head; o && !mine; o = o->next) {
		mine = o != self && held_same_lock(o, path, space) && o->node &&
		       strncmp(o->node, path, plen) == 0 && o->node[plen] == '/' &&
		       strcmp(o->node + plen + 1, name) == 0;
	}
	pthread_mutex_unlock(&held_mu);
	return mine;
}

/* Read and write share one queue; a mutex and a semaphore each have their own. */
static int held_same_family(dlock_kind a, dlock_kind b)
{
	int rw_a = a == DLOCK_KIND_READ || a == DLOCK_KIND_WRITE;
	int rw_b = b == DLOCK_KIND_READ || b == DLOCK_KIND_WRITE;

	return rw_a == rw_b && (rw_a || a == b);
}

/* Non-zero when a hold of kind `o` excludes a contender of `kind` under
 * `mix`; *lease is set when it is a lease the contender's semaphore counts. */
static int held_excludes(dlock_kind o, dlock_kind kind, dlock_held_mix mix, int *lease)
{
	*lease = 0;
	if (mix == DLOCK_HELD_MIX_SEMAPHORE_APART) {
		if ((o == DLOCK_KIND_SEMAPHORE) != (kind == DLOCK_KIND_SEMAPHORE)) {
			return 0; /* other server locks */
		}
		if (kind == DLOCK_KIND_SEMAPHORE) {
			*lease = 1;
			return 0;
		}
		return !(o == DLOCK_KIND_READ && kind == DLOCK_KIND_READ);
	}
	if (!held_same_family(o, kind)) {
		return 1; /* another kind on the name: this one would be refused */
	}
	if (kind == DLOCK_KIND_SEMAPHORE) {
		*lease = 1;
		return 0;
	}
	return kind == DLOCK_KIND_MUTEX || kind == DLOCK_KIND_WRITE || o == DLOCK_KIND_WRITE;
}

int dlock_held_conflict(const dlock_held *self, dlock_kind kind, int max_leases, const char *path,
                        const char *space, dlock_held_mix mix)
{
	const dlock_held *o;
	int leases = 0, conflict = 0;

	pthread_mutex_lock(&held_mu);
	for (o = held_head; o && !conflict; o = o->next) {
		int lease;

		if (o == self || !held_same_lock(o, path, space)) {
			continue;
		}
		conflict = held_excludes(o->kind, kind, mix, &lease);
		leases += lease;
	}
	pthread_mutex_unlock(&held_mu);
	return conflict || (kind == DLOCK_KIND_SEMAPHORE && leases >= max_leases);
}
