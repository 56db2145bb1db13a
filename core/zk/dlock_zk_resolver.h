/* dlock_zk_resolver.h: whether the C library's resolver still works in a
 * fork child. While a session is disconnected, the ZooKeeper client resolves
 * its servers again on every poll, in its I/O thread, and glibc's
 * getaddrinfo() holds an internal lock meanwhile (the AI_ADDRCONFIG
 * interface check, which the client asks for). A fork() that lands inside
 * leaves that lock held for ever in the child, and the child's first
 * getaddrinfo() (its own session's zookeeper_init()) would wait for ever. The
 * check resolves the same way on a thread of its own, bounded. */
#ifndef DLOCK_ZK_RESOLVER_H
#define DLOCK_ZK_RESOLVER_H

#include <stdint.h>

/* Resolves every "host:port" of hosts (a connect string, a chroot suffix
 * ignored) as the ZooKeeper client does, on a new thread with every signal
 * blocked, waiting at most timeout_ms. Returns 0 when the resolver answered
 * (whatever it answered), -1 when it did not in time (its lock is held by a
 * thread that no longer exists: the thread is left blocked, its memory with
 * it), -2 when no thread could be started (the caller may go on). */
int dlock_zk_resolver_check(const char *hosts, int64_t timeout_ms);

#endif
