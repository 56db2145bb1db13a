/* dlock_sql_sem.h: a semaphore of N leases on a SQL server whose driver
 * has notifications (PostgreSQL): N slot locks behind a gate lock on which
 * the server queues the contenders, and a channel a release notifies. Used
 * by the SQL lock object (dlock_sql_lock.c) and participants()
 * (dlock_sql_backend.c); uses only the driver. */
#ifndef DLOCK_SQL_SEM_H
#define DLOCK_SQL_SEM_H

#include <stddef.h>
#include <stdint.h>

#include "../dlock_backend.h"
#include "dlock_sql_driver.h"

/* A semaphore's head waiter asks for a free lease again at least this often
 * (ms) when no release has notified it: a holder whose session ended (a
 * killed process) sends no notification. */
#define DLOCK_SQL_SEM_RECHECK_MS 1000

/* Most leases of a semaphore on a SQL server (each is a lock of its own). */
#define DLOCK_SQL_SEM_MAX 1000

/* The server-side name of a semaphore's part `what` ("gate", "wake", or
 * "slot" with i >= 0) for the semaphore named path[0..path_len):
 * path NUL what[i] (a NUL no lock name has), malloc()ed with its length in
 * *len; NULL when out of memory. */
char *dlock_sql_sem_name(const char *path, size_t path_len, const char *what, int i, size_t *len);

/* Takes h's gate on c within wait (ms; < 0 for ever), then a free slot,
 * whose name goes to *slot (malloc()ed, owned by the caller) and *slot_len;
 * the gate is released again either way. wait 0 is a single try that takes
 * no gate: each slot is tried once, so it fails only when all N are held
 * (and may overtake the waiters queued on the gate); a wait > 0 that times
 * out in the gate's queue ends with the same single look. Returns
 * DLOCK_OK, DLOCK_ETIMEDOUT (no slot; nothing held), DLOCK_EINTR, or the
 * driver's failure (DLOCK_ECONNLOSS: c and what it held are gone). */
int dlock_sql_sem_take(const dlock_sql_driver *drv, const dlock_handle *h, dlock_sql_conn *c,
                       int64_t wait, const dlock_interrupt *intr, char **slot, size_t *slot_len,
                       dlock_err *err);

/* Frees slot[0..slot_len) on c and notifies the gate's holder. Returns the
 * unlock's status (as drv->unlock); *lost is set when the notification
 * found c's connection lost (the caller drops it: the slot went with it). */
int dlock_sql_sem_give(const dlock_sql_driver *drv, const dlock_handle *h, dlock_sql_conn *c,
                       const char *slot, size_t slot_len, int *lost, dlock_err *err);

#endif
