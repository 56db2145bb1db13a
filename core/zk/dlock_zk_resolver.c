/* dlock_zk_resolver.c: the bounded resolver check of a fork child (see
 * dlock_zk_resolver.h). The check's state is shared by the waiting caller
 * and the resolving thread; whichever of them is last frees it, since a
 * thread stuck on the inherited lock never returns. */
#include "dlock_zk_resolver.h"

#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

typedef struct resolver_check {
	pthread_mutex_t mu;
	pthread_cond_t cond;
	int done;  /* the thread resolved every host */
	int users; /* 2 while both sides may touch it */
	char hosts[];
} resolver_check;

static void resolver_put(resolver_check *c)
{
	int last;

	pthread_mutex_lock(&c->mu);
	last = --c->users == 0;
	pthread_mutex_unlock(&c->mu);
	if (last) {
		pthread_cond_destroy(&c->cond);
		pthread_mutex_destroy(&c->mu);
		free(c);
	}
}

/* Resolves one "host:port" (brackets around an IPv6 address allowed) with
 * the ZooKeeper client's hints; the answer is not used. */
static void resolver_one(char *hp)
{
	struct addrinfo hints, *res = NULL;
	char *port = strrchr(hp, ':'), *host = hp;

	if (!port) {
		return;
	}
	*port++ = '\0';
	if (*host == '[') {
		host++;
		host[strcspn(host, "]")] = '\0';
	}
	memset(&hints, 0, sizeof(hints));
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_protocol = IPPROTO_TCP;
#ifdef AI_ADDRCONFIG
	hints.ai_flags = AI_ADDRCONFIG;
#endif
	if (getaddrinfo(host, port, &hints, &res) == 0) {
		freeaddrinfo(res);
	}
}

static void *resolver_main(void *arg)
{
	resolver_check *c = arg;
	char *save = NULL, *hp;

	c->hosts[strcspn(c->hosts, "/")] = '\0'; /* the chroot suffix */
	for (hp = strtok_r(c->hosts, ",", &save); hp; hp = strtok_r(NULL, ",", &save)) {
		resolver_one(hp);
	}
	pthread_mutex_lock(&c->mu);
	c->done = 1;
	pthread_cond_broadcast(&c->cond);
	pthread_mutex_unlock(&c->mu);
	resolver_put(c);
	return NULL;
}

int dlock_zk_resolver_check(const char *hosts, int64_t timeout_ms)
{
	size_t n = strlen(hosts) + 1;
	resolver_check *c = malloc(sizeof(*c) + n);
	pthread_condattr_t ca;
	pthread_attr_t ta;
	pthread_t t;
	sigset_t all, old;
	struct timespec ts;
	int rc, done;

	if (!c) {
		return -2;
	}
	memcpy(c->hosts, hosts, n);
	c->done = 0;
	c->users = 2;
	pthread_mutex_init(&c->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	pthread_attr_init(&ta);
	pthread_attr_setdetachstate(&ta, PTHREAD_CREATE_DETACHED);
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(&t, &ta, resolver_main, c);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&ta);
	if (rc != 0) {
		c->users = 1;
		resolver_put(c);
		return -2;
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	ts.tv_sec += (time_t)(timeout_ms / 1000);
	ts.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&c->mu);
	while (!c->done && pthread_cond_timedwait(&c->cond, &c->mu, &ts) == 0) {
	}
	done = c->done;
	pthread_mutex_unlock(&c->mu);
	resolver_put(c);
	return done ? 0 : -1;
}
