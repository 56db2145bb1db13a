/* dlock_zk_registry.c: the process's held locks, for the self-deadlock guard. */
#include "dlock_zk_registry.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

static dlock_reg *registry_head; /* entries of holding locks */
static pthread_mutex_t registry_mu = PTHREAD_MUTEX_INITIALIZER;

void dlock_registry_add(dlock_reg *e)
{
	pthread_mutex_lock(&registry_mu);
	if (!e->prev) {
		e->pid = (long)getpid();
		e->next = registry_head;
		if (registry_head) {
			registry_head->prev = &e->next;
		}
		registry_head = e;
		e->prev = &registry_head;
	}
	pthread_mutex_unlock(&registry_mu);
}

void dlock_registry_remove(dlock_reg *e)
{
	pthread_mutex_lock(&registry_mu);
	if (e->prev) {
		*e->prev = e->next;
		if (e->next) {
			e->next->prev = e->prev;
		}
		e->next = NULL;
		e->prev = NULL;
	}
	pthread_mutex_unlock(&registry_mu);
}

/* Non-zero when o holds `path` on `hosts` in this process (entries a fork
 * parent linked are its holds, not ours). */
static int same_lock(const dlock_reg *o, const char *path, const char *hosts)
{
	return o->pid == (long)getpid() && o->path && o->hosts && strcmp(o->path, path) == 0 &&
	       strcmp(o->hosts, hosts) == 0;
}

int dlock_registry_owns(const dlock_reg *self, const char *path, const char *hosts,
                        const char *name)
{
	const dlock_reg *o;
	size_t plen = strlen(path);
	int mine = 0;

	pthread_mutex_lock(&registry_mu);
	for (o = registry_head; o && !mine; o = o->next) {
		mine = o != self && same_lock(o, path, hosts) && o->node &&
		       strncmp(o->node, path, plen) == 0 && o->node[plen] == '/' &&
		       strcmp(o->node + plen + 1, name) == 0;
	}
	pthread_mutex_unlock(&registry_mu);
	return mine;
}

/* Read and write share one queue; a mutex and a semaphore each have their own. */
static int same_family(dlock_kind a, dlock_kind b)
{
	int rw_a = a == DLOCK_KIND_READ || a == DLOCK_KIND_WRITE;
	int rw_b = b == DLOCK_KIND_READ || b == DLOCK_KIND_WRITE;

	return rw_a == rw_b && (rw_a || a == b);
}

int dlock_registry_conflict(const dlock_reg *self, dlock_kind kind, int max_leases,
                            const char *path, const char *hosts)
{
	const dlock_reg *o;
	int leases = 0, conflict = 0;

	pthread_mutex_lock(&registry_mu);
	for (o = registry_head; o && !conflict; o = o->next) {
		if (o == self || !same_lock(o, path, hosts)) {
			continue;
		}
		if (!same_family(o->kind, kind)) {
			conflict = 1; /* another kind on the path: this one would be refused */
			continue;
		}
		if (kind == DLOCK_KIND_SEMAPHORE) {
			leases++;
		} else if (kind == DLOCK_KIND_MUTEX || kind == DLOCK_KIND_WRITE ||
		           o->kind == DLOCK_KIND_WRITE) {
			conflict = 1;
		}
	}
	pthread_mutex_unlock(&registry_mu);
	return conflict || (kind == DLOCK_KIND_SEMAPHORE && leases >= max_leases);
}
