/* dlock_wait.c: the monotonic clock and the interrupt hook's call. */
#include "dlock_wait.h"

#include <stddef.h>
#include <time.h>

int64_t dlock_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int dlock_interrupted(const dlock_interrupt *intr)
{
	return intr && intr->fn && intr->fn(intr->arg);
}
