/* dlock_redis_watchdog.h: the lease watchdog: one thread per process,
 * started when the first Redis lock is held, with its own connection per
 * server and every signal blocked. It renews every held lease each lease/3
 * in one script call per server, marks a lock lost when its hash field is
 * gone, and keeps for each lock the monotonic time until which the hold is
 * certain, so that "held?" is answered locally and truthfully. It never
 * touches the Zend API. A fork child has no watchdog and no leases. */
#ifndef DLOCK_REDIS_WATCHDOG_H
#define DLOCK_REDIS_WATCHDOG_H

#include <stdint.h>

#include "../dlock_backend.h"

#define DLOCK_REDIS_FIELD_MAX 96

/* One held lock's lease; embedded in the lock, which owns it. Every field is
 * guarded by the watchdog's mutex while registered. */
typedef struct dlock_redis_lease {
	struct dlock_redis_lease *next;    /* in the watchdog's list while registered */
	const dlock_target *target;        /* the server (borrowed; outlives the registration) */
	const char *key;                   /* the lock's key (borrowed; likewise) */
	char field[DLOCK_REDIS_FIELD_MAX]; /* our hash field (or owner token) */
	char format[16];                   /* the hold's format ("r", "s", "l", "z<leases>") */
	int64_t lease_ms;                  /* the lease each renewal sets */
	int64_t max_until;                 /* no renewal from then on (ms); < 0: none */
	int64_t renew_at;                  /* next renewal due (ms) */
	int64_t valid_until;               /* the hold is certain before this (ms) */
	uint64_t gen;                      /* registration number, to match late replies */
	int lost;                          /* the watchdog found the field gone */
	int registered;                    /* in the list */
} dlock_redis_lease;

/* How much of a lease is not trusted: clock-rate drift between us and the
 * server (1%) plus 2 ms. */
#define DLOCK_REDIS_DRIFT(lease_ms) ((lease_ms) / 100 + 2)

/* Registers l (target, key, field, lease_ms, max_until filled by the caller)
 * as held since a request sent at sent_at; starts the thread if needed.
 * Returns DLOCK_OK, or DLOCK_ENOMEM when the thread cannot start (l is then
 * not registered). */
int dlock_redis_watchdog_register(dlock_redis_lease *l, int64_t sent_at, dlock_err *err);

/* Removes l; after it returns the thread no longer uses l. */
void dlock_redis_watchdog_unregister(dlock_redis_lease *l);

/* Non-zero while l is registered, not found lost, and certain now. */
int dlock_redis_watchdog_valid(dlock_redis_lease *l);

/* Until when (ms) l's hold is certain: 0 when l is not registered or lost. */
int64_t dlock_redis_watchdog_until(dlock_redis_lease *l);

/* Records what a check the caller made (a renewal sent at sent_at) found:
 * held (extends the certainty) or not (lost). */
void dlock_redis_watchdog_confirm(dlock_redis_lease *l, int64_t sent_at, int held);

/* Stops the thread and closes its connections when no lease is registered
 * (request end), or in any case when force != 0 (module end: leases still
 * registered are forgotten and lapse on the server). */
void dlock_redis_watchdog_stop(int force);

/* Connections the watchdog has open. */
unsigned dlock_redis_watchdog_connections(void);

#endif
