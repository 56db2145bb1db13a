/* dlock_redis_revoke.h: revocation on Redis, pushed, never polled: one
 * subscriber thread per server (and user, database) with its own connection
 * PSUBSCRIBEd to every lock's revocation channel; a request PUBLISHes the
 * holder's field on the lock's channel, and the thread raises the revocation
 * cell of the matching revocable hold of this process. */
#ifndef DLOCK_REDIS_REVOKE_H
#define DLOCK_REDIS_REVOKE_H

#include "../dlock_backend.h"
#include "../dlock_revoke.h"

/* Where revocation requests of lock `name` are published (malloc()ed, NULL
 * when out of memory): "dlock_revoke__channel:" + the name as Redisson
 * spells keys. */
char *dlock_redis_revoke_channel(const char *name);

/* Makes sure this process's subscriber for server t is subscribed (starting
 * it, waiting for its subscription until deadline, ms on dlock_now_ms's
 * clock), then registers `owner` (a lock object; one registration each, a
 * new one replaces the old) as the hold with `field` on lock `name`, whose
 * cell (a reference is taken) is raised when a request for that field
 * arrives. Called before the lock request: a request sent once the hold is
 * granted finds the subscription in place. Returns DLOCK_OK, DLOCK_ECONNECT
 * (not subscribed by the deadline: nothing registered), DLOCK_ESERVER (the
 * server refused the subscription, NOPERM: at once, and that subscriber does
 * not retry until it is stopped) or DLOCK_ENOMEM. */
int dlock_redis_revoke_watch(const void *owner, const dlock_target *t, const char *name,
                             const char *field, dlock_revoke *cell, int64_t deadline,
                             dlock_err *err);

/* Forgets owner's registration (its cell reference is dropped); none: no-op. */
void dlock_redis_revoke_unwatch(const void *owner);

/* PUBLISHes a request for each of `count` holder fields of lock `name` on t.
 * *asked: how many were sent. Returns DLOCK_OK or a connection error. */
int dlock_redis_revoke_publish(const dlock_target *t, const char *name, const dlock_participant *p,
                               size_t count, const dlock_interrupt *intr, int *asked,
                               dlock_err *err);

/* Stops the subscribers no registration needs (request end), or all of them
 * (force != 0: module end). */
void dlock_redis_revoke_stop(int force);

/* Open subscriber connections of this process. */
unsigned dlock_redis_revoke_connections(void);

#endif
