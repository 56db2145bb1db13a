/* dlock_fault.h: fault-injection seam for tests of recovery paths that a live
 * server will not produce on demand. Compiled in only with
 * -DDLOCK_FAULT_INJECTION (the core test binary); otherwise every site is 0. */
#ifndef DLOCK_FAULT_H
#define DLOCK_FAULT_H

/* Numbered sites, one per recovery path. */
typedef enum dlock_fault_site {
	DLOCK_FAULT_CREATE_REPLY_LOST = 1, /* node created, reply "lost" (connection loss) */
	DLOCK_FAULT_LIST_CONNLOSS,         /* children listing fails with connection loss */
	DLOCK_FAULT_WATCH_CONNLOSS,        /* predecessor watch fails with connection loss */
	DLOCK_FAULT_DELETE_CONNLOSS,       /* release/cleanup delete fails with connection loss */
	DLOCK_FAULT_SITES
} dlock_fault_site;

#ifdef DLOCK_FAULT_INJECTION
/* Makes the next `count` passes through `site` fail. */
void dlock_fault_arm(int site, int count);
/* Returns 1 (and counts down) when `site` is armed, else 0. Thread-safe. */
int dlock_fault_hit(int site);
/* How often `site` has fired since start. */
int dlock_fault_fired(int site);
#else
#define dlock_fault_hit(site) 0
#endif

#endif
