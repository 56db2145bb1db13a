/* dlock_wait.h: what every blocking wait of every backend shares: the
 * monotonic clock and the caller's interrupt hook. A leaf: no other core
 * header is needed to use it. */
#ifndef DLOCK_WAIT_H
#define DLOCK_WAIT_H

#include <stdint.h>

/* Called between wait slices on the waiting thread with no lock held; returns
 * non-zero to make the wait give up with DLOCK_EINTR. It must always return
 * (the PHP glue catches a bailout inside it and re-raises it after the core
 * has cleaned up), so the core may keep state on its stack across waits. */
typedef int (*dlock_interrupt_fn)(void *arg);

typedef struct dlock_interrupt {
	dlock_interrupt_fn fn; /* may be NULL: never interrupted */
	void *arg;             /* passed to fn */
} dlock_interrupt;

/* How long one wait slice lasts before the interrupt hook runs again, ms. */
#define DLOCK_WAIT_SLICE_MS 50

/* Milliseconds on a monotonic clock that includes time suspended. */
int64_t dlock_now_ms(void);

/* Microseconds on the same clock (the lock numbers' wait and hold times). */
int64_t dlock_now_us(void);

/* Milliseconds left until deadline_us (dlock_now_us), rounded up, 0 once it
 * passed: a wait given this never ends before the deadline on this clock,
 * where a difference of two truncated dlock_now_ms() readings may fall short
 * by up to 1 ms. */
int64_t dlock_left_ms(int64_t deadline_us);

/* Non-zero when intr (may be NULL) asks the wait to stop. */
int dlock_interrupted(const dlock_interrupt *intr);

#endif
