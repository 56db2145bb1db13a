/* dlock_kind.h: the lock kinds every backend implements. */
#ifndef DLOCK_KIND_H
#define DLOCK_KIND_H

/* Lock kinds; the node name of each is `_c_<guid>-<marker><seq>`, as Curator names them. */
typedef enum dlock_kind {
	DLOCK_KIND_MUTEX = 0, /* marker "lock-": exclusive (InterProcessMutex) */
	DLOCK_KIND_READ,      /* marker "__READ__": shared (InterProcessReadWriteLock) */
	DLOCK_KIND_WRITE,     /* marker "__WRIT__": exclusive among readers and writers */
	DLOCK_KIND_SEMAPHORE  /* marker "lease-": at most max_leases holders */
} dlock_kind;

#endif
