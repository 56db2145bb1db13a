/* dlock_redis_watchdog.h: the lease watchdog. Held leases are grouped by
 * what a renewal must be sent as: the server, the credentials, the database
 * and connect_timeout. Each group has its own thread (started with its first
 * lease, every signal blocked) and its own connection, so a stalled server or
 * a refused user delays only the leases of its own group. A thread renews its
 * group's due leases each lease/3 in one script call, marks a lock lost when
 * its hold is gone, and keeps for each lock the monotonic time until which
 * the hold is certain, so that "held?" is answered locally and truthfully.
 * On a Sentinel target a round renews only on the master the sentinels name
 * just before it, and a change of master voids the group's certainty.
 * Stopping interrupts a renewal in flight: it returns within the slice of a
 * wait, or connect_timeout while a connect is under way. No thread touches the
 * Zend API. A fork child has no watchdog threads and no leases. */
#ifndef DLOCK_REDIS_WATCHDOG_H
#define DLOCK_REDIS_WATCHDOG_H

#include <stdint.h>

#include "../dlock_backend.h"

#define DLOCK_REDIS_FIELD_MAX 96

struct dlock_redis_wd_group;

/* One held lock's lease; embedded in the lock, which owns it. Every field is
 * guarded by the watchdog's mutex while registered. */
typedef struct dlock_redis_lease {
	struct dlock_redis_lease *next;     /* in its group's list while registered */
	struct dlock_redis_wd_group *group; /* the group renewing it (while registered) */
	const dlock_target *target;         /* the server (borrowed; outlives the registration) */
	const char *key;                    /* the lock's key (borrowed; likewise) */
	char field[DLOCK_REDIS_FIELD_MAX];  /* our hash field (or owner token) */
	char format[16];                    /* the hold's format ("r", "s", "l", "z<leases>") */
	int64_t lease_ms;                   /* the lease each renewal sets */
	int64_t max_until;                  /* no renewal from then on (ms); < 0: none */
	int64_t renew_at;                   /* next renewal due (ms) */
	int64_t valid_until;                /* the hold is certain before this (ms) */
	uint64_t gen;                       /* registration number, to match late replies */
	int wait_replicas;                  /* replicas that must acknowledge a renewal before it
	                                       extends the certainty (0: none): what a promoted
	                                       replica has is what the holder may count on */
	int lost;                           /* the watchdog found the field gone */
	int registered;                     /* in a group's list */
} dlock_redis_lease;

/* How much of a lease is not trusted: clock-rate drift between us and the
 * server (1%) plus 2 ms. */
#define DLOCK_REDIS_DRIFT(lease_ms) ((lease_ms) / 100 + 2)

/* Registers l (target, key, field, lease_ms, max_until filled by the caller)
 * as held since a request sent at sent_at, in the group of l->target (server,
 * user, password, db, connect_timeout); starts that group's thread if needed.
 * Returns DLOCK_OK, or DLOCK_ENOMEM when the group or its thread cannot be
 * made (l is then not registered). */
int dlock_redis_watchdog_register(dlock_redis_lease *l, int64_t sent_at, dlock_err *err);

/* Removes l; after it returns no thread uses l. */
void dlock_redis_watchdog_unregister(dlock_redis_lease *l);

/* Non-zero while l is registered, not found lost, and certain now. */
int dlock_redis_watchdog_valid(dlock_redis_lease *l);

/* Until when (ms) l's hold is certain: 0 when l is not registered or lost. */
int64_t dlock_redis_watchdog_until(dlock_redis_lease *l);

/* Records what a check the caller made (a renewal sent at sent_at) found:
 * held (extends the certainty) or not (lost). */
void dlock_redis_watchdog_confirm(dlock_redis_lease *l, int64_t sent_at, int held);

/* Stops the threads of the groups with no lease registered and closes their
 * connections (request end), or of every group when force != 0 (module end:
 * leases still registered are forgotten and lapse on the server). A thread
 * in a renewal is interrupted: this returns within connect_timeout (a
 * connect under way) plus one wait slice, whatever the lease. */
void dlock_redis_watchdog_stop(int force);

/* Connections the watchdog has open. */
unsigned dlock_redis_watchdog_connections(void);

#endif
