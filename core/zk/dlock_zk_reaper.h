/* dlock_zk_reaper.h: guaranteed deletion of lock nodes whose delete could not
 * reach the server (Curator's "guaranteed delete"). One thread per session
 * retries each delete after every reconnect, until it succeeds or the session
 * is gone, so an orphan node never blocks a queue while its session lives. */
#ifndef DLOCK_ZK_REAPER_H
#define DLOCK_ZK_REAPER_H

#include <stddef.h>

#ifndef THREADED
#define THREADED
#endif
#include <zookeeper/zookeeper.h>

typedef struct dlock_reaper dlock_reaper;

/* Starts a reaper for handle zh (its thread blocks every signal). Returns NULL
 * when out of memory or threads. */
dlock_reaper *dlock_reaper_start(zhandle_t *zh);

/* Queues `path` (copied) for deletion; with a guid, queues the deletion of
 * every child of `path` whose name contains it (a create whose reply was
 * lost). Callable from any thread, including the completion thread (it only
 * appends and signals). */
void dlock_reaper_add(dlock_reaper *r, const char *path, const char *guid);

/* Tells the reaper the handle is connected: pending deletes are retried. */
void dlock_reaper_connected(dlock_reaper *r);

/* Forgets every pending path (their session is gone, and its nodes with it). */
void dlock_reaper_abandon(dlock_reaper *r);

/* Deletes still pending. */
size_t dlock_reaper_pending(dlock_reaper *r);

/* Stops and joins the thread, frees r. Call before zookeeper_close(). */
void dlock_reaper_stop(dlock_reaper *r);

#endif
