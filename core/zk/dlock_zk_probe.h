/* dlock_zk_probe.h: why a ZooKeeper connect did not succeed, asked of the
 * servers themselves with a plain TCP connection: nobody listening, or a
 * server that accepts and closes at once (what ZooKeeper does to a client
 * address over maxClientCnxns). */
#ifndef DLOCK_ZK_PROBE_H
#define DLOCK_ZK_PROBE_H

#include <stddef.h>
#include <stdint.h>

/* What the probe saw on the servers of a connect string. */
typedef enum dlock_zk_probe_result {
	DLOCK_ZK_PROBE_UNKNOWN = 0, /* nothing conclusive (a server kept the connection open, or the
	                               probe ran out of time) */
	DLOCK_ZK_PROBE_REFUSED,     /* every server answered the TCP connect and closed it at once,
	                               before a word was sent: a connection limit */
	DLOCK_ZK_PROBE_DOWN,        /* every server refused the TCP connect: nothing listening */
	DLOCK_ZK_PROBE_SILENT       /* a server took the TCP connection and kept it, silent (no
	                               refusal seen: overloaded, or a long accept queue of
	                               connections it will refuse) */
} dlock_zk_probe_result;

/* Probes each "host:port" of hosts (the connect string; a chroot suffix is
 * ignored; at most 16 servers), one after the other: a TCP connect, then up
 * to 500 ms waiting for the server to close the silent connection (a busy
 * server takes a while to accept and close); again, 20 ms later, while no
 * round was conclusive, spending at most budget_ms in all. On
 * DLOCK_ZK_PROBE_REFUSED writes the first refusing server's "host:port" to
 * where[0..size). Never blocks longer than budget_ms; sends nothing. */
dlock_zk_probe_result dlock_zk_probe(const char *hosts, int64_t budget_ms, char *where,
                                     size_t size);

#endif
