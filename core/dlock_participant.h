/* dlock_participant.h: one entry of a lock's queue as every backend reports
 * it (who holds, who waits), and one lock found by a listing (listLocks). A
 * leaf. */
#ifndef DLOCK_PARTICIPANT_H
#define DLOCK_PARTICIPANT_H

#include <stddef.h>
#include <stdint.h>

/* One contender, in queue order. */
typedef struct dlock_participant {
	char *name;      /* node name or waiter id (owned by the array) */
	char *data;      /* node data, NUL-terminated (owned by the array) */
	size_t data_len; /* bytes of data */
	char *session;   /* the entry's server session as the server describes it (SQL: client
	                    address and application_name), or NULL (owned by the array) */
	int64_t token;   /* the fencing token of that hold (0 when not known) */
	int64_t owner;   /* ephemeral owner session id (ZooKeeper), else 0 */
	int64_t since;   /* when it entered the queue (ZooKeeper: node creation) or was
	                    granted, ms since the Unix epoch by the server's clock; 0: unknown */
	int writer;      /* an exclusive node (for read-write locks: a writer) */
	int holder;      /* non-zero when this entry holds now */
} dlock_participant;

/* Frees an array of count participants and their strings. p may be NULL. */
void dlock_participants_free(dlock_participant *p, size_t count);

/* One lock found under a prefix (dlock_backend_list_locks). */
typedef struct dlock_lock_entry {
	char *name;        /* the lock's name as a lock object takes it (owned by the array) */
	const char *kind;  /* "mutex", "rw", "semaphore" or "unknown" (static) */
	size_t contenders; /* holders and waiters seen; 0 when the backend cannot tell */
} dlock_lock_entry;

/* Frees an array of count lock entries and their names. p may be NULL. */
void dlock_lock_entries_free(dlock_lock_entry *p, size_t count);

#endif
