/* dlock_fault.c: counters behind the fault-injection seam (test builds only). */
#include "dlock_fault.h"

#ifdef DLOCK_FAULT_INJECTION
#include <pthread.h>

static pthread_mutex_t fault_mu = PTHREAD_MUTEX_INITIALIZER;
static int fault_armed[DLOCK_FAULT_SITES];
static int fault_count[DLOCK_FAULT_SITES];

void dlock_fault_arm(int site, int count)
{
	pthread_mutex_lock(&fault_mu);
	fault_armed[site] = count;
	pthread_mutex_unlock(&fault_mu);
}

int dlock_fault_hit(int site)
{
	int hit = 0;

	pthread_mutex_lock(&fault_mu);
	if (fault_armed[site] > 0) {
		fault_armed[site]--;
		fault_count[site]++;
		hit = 1;
	}
	pthread_mutex_unlock(&fault_mu);
	return hit;
}

int dlock_fault_fired(int site)
{
	int n;

	pthread_mutex_lock(&fault_mu);
	n = fault_count[site];
	pthread_mutex_unlock(&fault_mu);
	return n;
}
#else
typedef int dlock_fault_unused; /* ISO C forbids an empty translation unit */
#endif
