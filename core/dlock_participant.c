/* dlock_participant.c: freeing participant and lock listing arrays. */
#include "dlock_participant.h"

#include <stdlib.h>

void dlock_participants_free(dlock_participant *p, size_t count)
{
	size_t i;

	if (!p) {
		return;
	}
	for (i = 0; i < count; i++) {
		free(p[i].name);
		free(p[i].data);
		free(p[i].session);
	}
	free(p);
}

void dlock_lock_entries_free(dlock_lock_entry *p, size_t count)
{
	size_t i;

	if (!p) {
		return;
	}
	for (i = 0; i < count; i++) {
		free(p[i].name);
	}
	free(p);
}
