/* dlock_wait.c: the monotonic clock and the interrupt hook's call. */
#include "dlock_wait.h"

#include <stddef.h>
#include <time.h>

/* CLOCK_BOOTTIME goes on while the machine is suspended, CLOCK_MONOTONIC
 * does not: a hold confirmed before a suspend must not look fresh after it
 * (its lease or session ran out on the server meanwhile). Every user takes
 * differences of this clock only. */
int64_t dlock_now_ms(void)
{
	struct timespec ts;

#ifdef CLOCK_BOOTTIME
	if (clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
#endif
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t dlock_now_us(void)
{
	struct timespec ts;

#ifdef CLOCK_BOOTTIME
	if (clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
#endif
		clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

int64_t dlock_left_ms(int64_t deadline_us)
{
	int64_t left = deadline_us - dlock_now_us();

	return left > 0 ? (left + 999) / 1000 : 0;
}

int dlock_interrupted(const dlock_interrupt *intr)
{
	return intr && intr->fn && intr->fn(intr->arg);
}
