/* dlock_zk_probe.c: tells a ZooKeeper server's connection limit from an
 * unreachable server when a session could not connect. A server over
 * maxClientCnxns (per client address, default 60) accepts the TCP connection
 * and closes it at once, and the C client just retries: to the caller that
 * looks like a server that never answers. A plain TCP connect to each server
 * that the server closes without a word is that refusal. */
#include "dlock_zk_probe.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "../dlock_wait.h"

#define PROBE_MAX_SERVERS 16
#define PROBE_PAUSE_MS    20  /* between two rounds */
#define PROBE_SILENCE_MS  500 /* a server that keeps the connection this long accepted it */

/* One server: 1 closed at once after accepting, 2 kept the connection
 * open, 0 no answer, -1 refused the TCP connect (nothing listening). */
static int probe_one(const char *host, const char *port, int64_t deadline)
{
	struct addrinfo hints, *ai = NULL;
	struct pollfd p;
	int fd = -1, res = 0, soerr = 0, n;
	socklen_t len = sizeof(soerr);
	char c;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_NUMERICSERV;
	if (getaddrinfo(host, port, &hints, &ai) != 0 || !ai) {
		return 0;
	}
	fd = socket(ai->ai_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		goto out;
	}
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
		if (errno == ECONNREFUSED) {
			res = -1;
			goto out;
		}
		if (errno != EINPROGRESS) {
			goto out;
		}
		p.fd = fd;
		p.events = POLLOUT;
		n = poll(&p, 1, (int)(deadline - dlock_now_ms() > 0 ? deadline - dlock_now_ms() : 0));
		if (n != 1 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len) != 0) {
			goto out;
		}
		if (soerr != 0) {
			res = soerr == ECONNREFUSED ? -1 : 0;
			goto out;
		}
	}
	/* connected: a server under its limit waits for our ConnectRequest */
	p.fd = fd;
	p.events = POLLIN;
	n = deadline - dlock_now_ms();
	n = poll(&p, 1, n < 0 ? 0 : n > PROBE_SILENCE_MS ? PROBE_SILENCE_MS : n);
	if (n == 1) {
		ssize_t r = recv(fd, &c, 1, 0);

		res = r == 0 || (r < 0 && (errno == ECONNRESET || errno == EPIPE)) ? 1 : 0;
	} else if (n == 0) {
		res = 2;
	}
out:
	if (fd >= 0) {
		close(fd);
	}
	freeaddrinfo(ai);
	return res;
}

/* One round over the servers of hosts[0..end): how many there are and what
 * each did (probe_one), the first refusing one's "host:port" in first. */
static void probe_round(const char *hosts, const char *end, int64_t deadline, int *servers,
                        int *refused, int *down, int *silent, char *first, size_t size)
{
	const char *p = hosts;

	*servers = *refused = *down = *silent = 0;
	while (p < end && *servers < PROBE_MAX_SERVERS && dlock_now_ms() < deadline) {
		const char *comma = memchr(p, ',', (size_t)(end - p)), *stop = comma ? comma : end;
		char hp[300], *host = hp, *colon;
		size_t len = (size_t)(stop - p);
		int r;

		if (len == 0 || len >= sizeof(hp)) {
			p = stop + 1;
			continue;
		}
		memcpy(hp, p, len);
		hp[len] = '\0';
		p = stop + 1;
		colon = strrchr(hp, ':');
		if (!colon) {
			continue;
		}
		*colon = '\0';
		if (host[0] == '[' && colon > host && colon[-1] == ']') { /* [v6]:port */
			host++;
			colon[-1] = '\0';
		}
		(*servers)++;
		r = probe_one(host, colon + 1, deadline);
		if (r == 1) {
			if (!(*refused)++) {
				snprintf(first, size, "%.*s", (int)len, stop - len);
			}
		} else if (r < 0) {
			(*down)++;
		} else if (r == 2) {
			(*silent)++;
		}
	}
}

dlock_zk_probe_result dlock_zk_probe(const char *hosts, int64_t budget_ms, char *where, size_t size)
{
	int64_t deadline = dlock_now_ms() + budget_ms;
	const char *end = hosts + strcspn(hosts, "/");
	int servers, refused, down, silent;
	char first[300] = "";

	/* rounds until one is conclusive or the time is spent: on a loaded
	 * machine a server may take a while to get to a connection */
	do {
		probe_round(hosts, end, deadline, &servers, &refused, &down, &silent, first, sizeof(first));
		if (servers > 0 && refused > 0 && refused + down == servers) {
			snprintf(where, size, "%s", first);
			return DLOCK_ZK_PROBE_REFUSED;
		}
		if (servers > 0 && down == servers) {
			return DLOCK_ZK_PROBE_DOWN;
		}
		if (silent > 0) {
			return DLOCK_ZK_PROBE_SILENT; /* a server kept a connection: not all refuse */
		}
		if (dlock_now_ms() + PROBE_PAUSE_MS < deadline) {
			poll(NULL, 0, PROBE_PAUSE_MS); /* between rounds: no busy loop on a fast failure */
		}
	} while (servers > 0 && dlock_now_ms() < deadline);
	return DLOCK_ZK_PROBE_UNKNOWN;
}
