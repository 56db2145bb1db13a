/* dlock_idle.h: closes this process's idle sessions and connections between
 * requests. A php-fpm worker keeps its sessions across requests (one per
 * server), and an idle worker never runs code that could give them back: a
 * thread of this module closes them once the worker has been between
 * requests for the idle time, so a fleet's servers count only the workers
 * that took a lock lately. Between requests no lock exists (request end
 * released and freed them all), so everything pooled is idle. */
#ifndef DLOCK_IDLE_H
#define DLOCK_IDLE_H

#include <stdint.h>

/* A request begins: from here until dlock_idle_request_end nothing is closed
 * behind the request's back. Waits while a close is under way (a few ms). */
void dlock_idle_request_begin(void);

/* The request has ended and freed every lock object: after idle_ms more
 * without a request, every pooled session and connection of every backend
 * is closed (dlock_backends_shutdown(0)); the next lock opens one again,
 * one connect. idle_ms <= 0: nothing is closed. Starts the closing thread
 * on first use in a process (a fork child starts its own). */
void dlock_idle_request_end(int64_t idle_ms);

/* How many idle closes this process has made. */
uint64_t dlock_idle_closes(void);

/* Stops and joins the closing thread of this process (module shutdown,
 * before the backends' final shutdown). */
void dlock_idle_stop(void);

#endif
