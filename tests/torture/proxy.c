/* proxy.c: the torture run's network fault injector. A single-threaded
 * poll() TCP forwarder on loopback: each "LISTEN:UPSTREAM" pair forwards
 * connections from 127.0.0.1:LISTEN to 127.0.0.1:UPSTREAM. A control port
 * takes one line per command and applies it to every forwarded connection:
 *   stall MS     forward nothing either way for MS ms (connections stay up)
 *   delay MS     hold every chunk MS ms before forwarding it, until "clear"
 *   drop         reset every connection (RST) now, the client's side first
 *   halfclose    close the client-bound direction of every connection (the
 *                client reads EOF while its writes still go through)
 *   clear        undo stall and delay
 * and answers "ok". Usage: proxy CONTROL_PORT LISTEN:UPSTREAM... */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_LISTEN 8
#define MAX_CONN   512
#define CHUNK      16384

typedef struct chunk {
	int64_t due;        /* when it may be written, ms */
	size_t len, off;    /* bytes and bytes already written */
	struct chunk *next; /* FIFO */
	char data[];
} chunk;

/* One direction of a connection: bytes read from `from`, queued for `to`. */
typedef struct pipe_dir {
	int from, to;        /* file descriptors */
	chunk *head, **tail; /* pending bytes */
	int eof;             /* `from` reached EOF: shut `to` down once drained */
	int dead;            /* this direction is closed (half-close) */
} pipe_dir;

typedef struct conn {
	int used;
	pipe_dir up;   /* client -> server */
	pipe_dir down; /* server -> client */
} conn;

static int listen_fd[MAX_LISTEN], upstream_port[MAX_LISTEN], nlisten;
static int ctl_fd, ctl_client = -1;
static char ctl_buf[256];
static size_t ctl_len;
static conn conns[MAX_CONN];
static int64_t stall_until, delay_ms;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int listen_on(int port)
{
	struct sockaddr_in a = {0};
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) != 0 || listen(fd, 128) != 0) {
		fprintf(stderr, "proxy: cannot listen on %d: %s\n", port, strerror(errno));
		exit(1);
	}
	return fd;
}

static int connect_to(int port)
{
	struct sockaddr_in a = {0};
	int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	a.sin_family = AF_INET;
	a.sin_port = htons((uint16_t)port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) != 0) {
		close(fd);
		return -1;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void dir_init(pipe_dir *d, int from, int to)
{
	d->from = from;
	d->to = to;
	d->head = NULL;
	d->tail = &d->head;
	d->eof = d->dead = 0;
}

static void dir_free(pipe_dir *d)
{
	while (d->head) {
		chunk *c = d->head;

		d->head = c->next;
		free(c);
	}
	d->tail = &d->head;
}

/* Closes both sockets; with rst, makes the close a reset. The client's side
 * goes first, as in a real network failure: the client's socket shows the
 * end before the server can see it. That order matters for the SQL backends,
 * whose holds are server sessions that the server frees as soon as it sees
 * the connection end: the other order would let the server grant the lock to
 * someone else while the old holder's socket still looked alive (a window no
 * client could close; see sql_kill_session() in torture.php). */
static void conn_close(conn *c, int rst)
{
	struct linger lg = {1, 0};

	if (rst) {
		setsockopt(c->up.from, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		setsockopt(c->up.to, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	}
	close(c->up.from); /* the client */
	close(c->up.to);   /* then the server */
	dir_free(&c->up);
	dir_free(&c->down);
	c->used = 0;
}

static void accept_on(int li)
{
	int cfd = accept(listen_fd[li], NULL, NULL), sfd, i, one = 1;

	if (cfd < 0) {
		return;
	}
	setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	sfd = connect_to(upstream_port[li]);
	if (sfd < 0) {
		close(cfd); /* upstream down: the client sees a refused/closed connection */
		return;
	}
	for (i = 0; i < MAX_CONN && conns[i].used; i++) {
	}
	if (i == MAX_CONN) {
		close(cfd);
		close(sfd);
		return;
	}
	fcntl(cfd, F_SETFL, O_NONBLOCK);
	fcntl(sfd, F_SETFL, O_NONBLOCK);
	conns[i].used = 1;
	dir_init(&conns[i].up, cfd, sfd);
	dir_init(&conns[i].down, sfd, cfd);
}

/* Reads what `from` has into a new chunk; returns -1 when the connection must go. */
static int dir_read(pipe_dir *d)
{
	chunk *c = malloc(sizeof(*c) + CHUNK);
	ssize_t n;

	if (!c) {
		return -1;
	}
	n = read(d->from, c->data, CHUNK);
	if (n <= 0) {
		free(c);
		if (n == 0) {
			d->eof = 1;
			return 0;
		}
		return errno == EAGAIN || errno == EINTR ? 0 : -1;
	}
	c->len = (size_t)n;
	c->off = 0;
	c->due = now_ms() + delay_ms;
	c->next = NULL;
	*d->tail = c;
	d->tail = &c->next;
	return 0;
}

/* Writes what is due; returns -1 when the connection must go. */
static int dir_write(pipe_dir *d, int64_t now)
{
	while (d->head && d->head->due <= now) {
		chunk *c = d->head;
		ssize_t n = write(d->to, c->data + c->off, c->len - c->off);

		if (n < 0) {
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		}
		c->off += (size_t)n;
		if (c->off < c->len) {
			return 0;
		}
		d->head = c->next;
		if (!d->head) {
			d->tail = &d->head;
		}
		free(c);
	}
	if (!d->head && d->eof && !d->dead) {
		shutdown(d->to, SHUT_WR);
		d->dead = 1;
	}
	return 0;
}

static void control(const char *line)
{
	int i;
	long v = 0;

	if (sscanf(line, "stall %ld", &v) == 1) {
		stall_until = now_ms() + v;
	} else if (sscanf(line, "delay %ld", &v) == 1) {
		delay_ms = v;
	} else if (strncmp(line, "clear", 5) == 0) {
		stall_until = 0;
		delay_ms = 0;
	} else if (strncmp(line, "drop", 4) == 0) {
		for (i = 0; i < MAX_CONN; i++) {
			if (conns[i].used) {
				conn_close(&conns[i], 1);
			}
		}
	} else if (strncmp(line, "halfclose", 9) == 0) {
		for (i = 0; i < MAX_CONN; i++) {
			if (conns[i].used && !conns[i].down.dead) {
				shutdown(conns[i].down.to, SHUT_WR); /* the client reads EOF */
				conns[i].down.dead = 1;
				dir_free(&conns[i].down);
			}
		}
	}
	if (ctl_client >= 0) {
		(void)!write(ctl_client, "ok\n", 3);
	}
}

static void control_read(void)
{
	ssize_t n = read(ctl_client, ctl_buf + ctl_len, sizeof(ctl_buf) - 1 - ctl_len);
	char *nl;

	if (n <= 0) {
		close(ctl_client);
		ctl_client = -1;
		ctl_len = 0;
		return;
	}
	ctl_len += (size_t)n;
	ctl_buf[ctl_len] = '\0';
	while ((nl = strchr(ctl_buf, '\n')) != NULL) {
		*nl = '\0';
		control(ctl_buf);
		ctl_len -= (size_t)(nl + 1 - ctl_buf);
		memmove(ctl_buf, nl + 1, ctl_len + 1);
	}
	if (ctl_len >= sizeof(ctl_buf) - 1) {
		ctl_len = 0;
	}
}

int main(int argc, char **argv)
{
	static struct pollfd pfd[2 * MAX_CONN + MAX_LISTEN + 2];
	static int who[2 * MAX_CONN + MAX_LISTEN + 2];
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: proxy CONTROL_PORT LISTEN:UPSTREAM...\n");
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	ctl_fd = listen_on(atoi(argv[1]));
	for (i = 2; i < argc && nlisten < MAX_LISTEN; i++) {
		int l = 0, u = 0;

		if (sscanf(argv[i], "%d:%d", &l, &u) != 2) {
			fprintf(stderr, "proxy: bad pair %s\n", argv[i]);
			return 2;
		}
		listen_fd[nlisten] = listen_on(l);
		upstream_port[nlisten++] = u;
	}
	printf("proxy ready\n");
	fflush(stdout);
	for (;;) {
		int64_t now = now_ms(), wake = -1;
		int n = 0, stalled = now < stall_until, rc;

		for (i = 0; i < nlisten; i++) {
			pfd[n].fd = listen_fd[i];
			pfd[n].events = POLLIN;
			who[n++] = -1 - i;
		}
		pfd[n].fd = ctl_client >= 0 ? ctl_client : ctl_fd;
		pfd[n].events = POLLIN;
		who[n++] = -100;
		for (i = 0; i < MAX_CONN; i++) {
			pipe_dir *ds[2];
			int k;

			if (!conns[i].used) {
				continue;
			}
			ds[0] = &conns[i].up;
			ds[1] = &conns[i].down;
			for (k = 0; k < 2; k++) {
				pipe_dir *d = ds[k];
				short ev = 0;

				if (!stalled && !d->eof && !d->dead) {
					ev |= POLLIN;
				}
				if (!stalled && d->head) { /* writes are retried each turn */
					int64_t due = d->head->due > now ? d->head->due : now + 5;

					if (wake < 0 || due < wake) {
						wake = due;
					}
				}
				pfd[n].fd = d->from;
				pfd[n].events = ev;
				who[n++] = i * 2 + k;
			}
		}
		if (stalled && (wake < 0 || stall_until < wake)) {
			wake = stall_until;
		}
		rc = poll(pfd, (nfds_t)n, wake < 0 ? 1000 : (int)(wake - now > 0 ? wake - now : 0));
		if (rc < 0 && errno != EINTR) {
			return 1;
		}
		now = now_ms();
		for (i = 0; i < n; i++) {
			int w = who[i];

			if (w <= -1 && w >= -MAX_LISTEN && (pfd[i].revents & POLLIN)) {
				accept_on(-1 - w);
			} else if (w == -100 && pfd[i].revents) {
				if (ctl_client < 0) {
					ctl_client = accept(ctl_fd, NULL, NULL);
				} else {
					control_read();
				}
			}
		}
		for (i = 0; i < n; i++) {
			int w = who[i];
			conn *c;
			pipe_dir *d;

			if (w < 0) {
				continue;
			}
			c = &conns[w / 2];
			if (!c->used) {
				continue;
			}
			d = w % 2 == 0 ? &c->up : &c->down;
			if ((pfd[i].revents & (POLLIN | POLLHUP | POLLERR)) && dir_read(d) < 0) {
				conn_close(c, 0);
				continue;
			}
		}
		if (now >= stall_until) {
			for (i = 0; i < MAX_CONN; i++) {
				if (conns[i].used &&
				    (dir_write(&conns[i].up, now) < 0 || dir_write(&conns[i].down, now) < 0)) {
					conn_close(&conns[i], 0);
				} else if (conns[i].used && conns[i].up.dead && conns[i].down.dead) {
					conn_close(&conns[i], 0);
				}
			}
		}
	}
}
