/* dlock_target.c: a dlock_target's lifetime (copy, clear), how targets
 * compare (one server; one lock space, with the spellings of one host folded
 * together) and how one is shown without secrets. */
#include "dlock_dsn.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *dlock_strndup(const char *s, size_t len)
{
	char *d = malloc(len + 1);

	if (d) {
		memcpy(d, s, len);
		d[len] = '\0';
	}
	return d;
}

void dlock_target_free_secret(char **s)
{
	if (*s) {
		memset(*s, 0, strlen(*s));
		free(*s);
		*s = NULL;
	}
}

int dlock_target_copy(dlock_target *dst, const dlock_target *src, dlock_err *err)
{
	*dst = *src;
	dst->hosts = src->hosts ? strdup(src->hosts) : NULL;
	dst->auth = src->auth ? strdup(src->auth) : NULL;
	dst->host = src->host ? strdup(src->host) : NULL;
	dst->user = src->user ? strdup(src->user) : NULL;
	dst->password = src->password ? strdup(src->password) : NULL;
	dst->sentinels = src->sentinels ? strdup(src->sentinels) : NULL;
	dst->master_name = src->master_name ? strdup(src->master_name) : NULL;
	dst->dbname = src->dbname ? strdup(src->dbname) : NULL;
	dst->params = src->params ? strdup(src->params) : NULL;
	if ((src->dbname && !dst->dbname) || (src->params && !dst->params) ||
	    (src->hosts && !dst->hosts) || (src->auth && !dst->auth) || (src->host && !dst->host) ||
	    (src->user && !dst->user) || (src->password && !dst->password) ||
	    (src->sentinels && !dst->sentinels) || (src->master_name && !dst->master_name)) {
		dlock_target_clear(dst);
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	return DLOCK_OK;
}

void dlock_target_clear(dlock_target *t)
{
	free(t->hosts);
	free(t->host);
	free(t->user);
	free(t->sentinels);
	free(t->master_name);
	free(t->dbname);
	free(t->params);
	dlock_target_free_secret(&t->auth);
	dlock_target_free_secret(&t->password);
	memset(t, 0, sizeof(*t));
}

static int dlock_dsn_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int dlock_target_same_server(const dlock_target *a, const dlock_target *b)
{
	if (a->backend != b->backend) {
		return 0;
	}
	if (a->backend == DLOCK_BACKEND_ZOOKEEPER) {
		return dlock_dsn_eq(a->hosts, b->hosts);
	}
	return a->port == b->port && a->db == b->db && dlock_dsn_eq(a->host, b->host) &&
	       dlock_dsn_eq(a->dbname, b->dbname) &&
	       (a->backend == DLOCK_BACKEND_REDIS || dlock_dsn_eq(a->user, b->user)) &&
	       dlock_dsn_eq(a->sentinels, b->sentinels) &&
	       dlock_dsn_eq(a->master_name, b->master_name) && dlock_dsn_eq(a->params, b->params);
}

const dlock_backend_name dlock_backend_names[DLOCK_BACKENDS] = {
    [DLOCK_BACKEND_ZOOKEEPER] = {"zookeeper", "ZooKeeper", "zookeeper"},
    [DLOCK_BACKEND_REDIS] = {"redis", "Redis", "redis"},
    [DLOCK_BACKEND_POSTGRES] = {"postgres", "PostgreSQL", "pgsql"},
    [DLOCK_BACKEND_MYSQL] = {"mysql", "MySQL/MariaDB", "mysql"},
};

/* Writes host's lock-space spelling: lower case without a trailing dot;
 * "localhost" (and names under it), every 127.x.x.x form inet_aton() reads
 * ("127.1", "0x7f.1"), "::1" and "::ffff:127.x.x.x" as "loopback"; other
 * IPv4 forms dotted-decimal, other IPv6 addresses in inet_ntop() form. Only
 * literals: no lookup (a resolver may block or answer differently later),
 * so a name and its address stay two spellings. */
static void dlock_dsn_host_space(const char *host, char *buf, size_t size)
{
	char h[256];
	size_t n = strlen(host), i;
	struct in_addr a4;
	struct in6_addr a6;

	if (n >= sizeof(h) || host[0] == '/') {
		snprintf(buf, size, "%s", host); /* a socket path is case-sensitive */
		return;
	}
	for (i = 0; i < n; i++) {
		h[i] = (char)tolower((unsigned char)host[i]);
	}
	if (n > 1 && h[n - 1] == '.') {
		n--;
	}
	h[n] = '\0';
	if (strcmp(h, "localhost") == 0 || (n > 10 && strcmp(h + n - 10, ".localhost") == 0)) {
		snprintf(buf, size, "loopback");
	} else if (strspn(h, "0123456789abcdefx.") == n && inet_aton(h, &a4)) {
		if ((ntohl(a4.s_addr) >> 24) == 127) {
			snprintf(buf, size, "loopback");
		} else {
			inet_ntop(AF_INET, &a4, buf, (socklen_t)size);
		}
	} else if (inet_pton(AF_INET6, h, &a6) == 1) {
		if (IN6_IS_ADDR_LOOPBACK(&a6) || (IN6_IS_ADDR_V4MAPPED(&a6) && a6.s6_addr[12] == 127)) {
			snprintf(buf, size, "loopback");
		} else if (IN6_IS_ADDR_V4MAPPED(&a6)) {
			inet_ntop(AF_INET, &a6.s6_addr[12], buf, (socklen_t)size);
		} else {
			inet_ntop(AF_INET6, &a6, buf, (socklen_t)size);
		}
	} else {
		snprintf(buf, size, "%s", h);
	}
}

static int dlock_dsn_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The last connect string folded by this thread and what it folded to: a
 * lock folds the same one twice a cycle (the self-wait check, the node's
 * ensemble), ~3,900 instructions each (tokenizing, address parsing, sorting,
 * snprintf), and the spelling is a pure function of the string. */
static __thread char zk_space_in[1024];
static __thread char zk_space_out[1100];

static void zk_hosts_fold(const char *hosts, char *buf, size_t size);

void dlock_zk_hosts_space(const char *hosts, char *buf, size_t size)
{
	size_t in = strlen(hosts), out;

	if (zk_space_out[0] != '\0' && strcmp(hosts, zk_space_in) == 0) {
		out = strlen(zk_space_out);
		if (out < size) {
			memcpy(buf, zk_space_out, out + 1);
			return;
		}
	}
	zk_hosts_fold(hosts, buf, size);
	out = strlen(buf);
	if (in < sizeof(zk_space_in) && out < sizeof(zk_space_out) && out + 1 < size) {
		/* cached only when not cut short by this caller's buffer */
		memcpy(zk_space_in, hosts, in + 1);
		memcpy(zk_space_out, buf, out + 1);
	} else {
		zk_space_out[0] = '\0';
	}
}

static void zk_hosts_fold(const char *hosts, char *buf, size_t size)
{
	char list[1024], *items[64], canon[64][300], host[256];
	const char *chroot = strchr(hosts, '/');
	size_t len = chroot ? (size_t)(chroot - hosts) : strlen(hosts), n = 0, i, off;
	char *tok, *save = NULL;

	if (len >= sizeof(list)) {
		snprintf(buf, size, "zookeeper://%s", hosts);
		return;
	}
	memcpy(list, hosts, len);
	list[len] = '\0';
	for (tok = strtok_r(list, ",", &save); tok && n < 64; tok = strtok_r(NULL, ",", &save)) {
		char *colon = strrchr(tok, ':');
		size_t hl = colon ? (size_t)(colon - tok) : strlen(tok);

		if (hl > 1 && tok[0] == '[' && tok[hl - 1] == ']') {
			tok++;
			hl -= 2;
		}
		snprintf(host, sizeof(host), "%.*s", (int)hl, tok);
		dlock_dsn_host_space(host, canon[n], sizeof(canon[n]));
		off = strlen(canon[n]);
		snprintf(canon[n] + off, sizeof(canon[n]) - off, ":%s", colon ? colon + 1 : "");
		items[n] = canon[n];
		n++;
	}
	qsort(items, n, sizeof(items[0]), dlock_dsn_cmp);
	off = (size_t)snprintf(buf, size, "zookeeper://");
	for (i = 0; i < n && off < size; i++) {
		if (i > 0 && strcmp(items[i], items[i - 1]) == 0) {
			continue; /* one server named twice is one server */
		}
		off += (size_t)snprintf(buf + off, size - off, "%s%s", off > 12 ? "," : "", items[i]);
	}
	if (chroot && off < size) {
		size_t cl = strlen(chroot);

		while (cl > 1 && chroot[cl - 1] == '/') {
			cl--;
		}
		snprintf(buf + off, size - off, "%.*s", (int)cl, chroot);
	}
}

void dlock_target_lock_space(const dlock_target *t, char *buf, size_t size)
{
	char host[256];

	if (t->backend == DLOCK_BACKEND_ZOOKEEPER) {
		dlock_zk_hosts_space(t->hosts ? t->hosts : "", buf, size);
		return;
	}
	if (t->backend == DLOCK_BACKEND_REDIS && t->sentinels) {
		dlock_target_where(t, buf, size);
		return;
	}
	dlock_dsn_host_space(t->host ? t->host : "", host, sizeof(host));
	if (t->backend == DLOCK_BACKEND_REDIS) {
		snprintf(buf, size, "redis://%s:%d/%d", host, t->port, t->db);
	} else {
		/* without one in the DSN, libpq's database is $PGDATABASE, else the
		 * user's name ($PGUSER when the DSN names none) */
		const char *pgdb = getenv("PGDATABASE"), *pguser = getenv("PGUSER");
		const char *db = t->dbname                              ? t->dbname
		                 : t->backend != DLOCK_BACKEND_POSTGRES ? ""
		                 : pgdb && *pgdb                        ? pgdb
		                 : t->user                              ? t->user
		                 : pguser && *pguser                    ? pguser
		                                                        : "";

		snprintf(buf, size, "%s://%s:%d/%s",
		         t->backend == DLOCK_BACKEND_POSTGRES ? "postgres" : "mysql", host, t->port, db);
	}
}

void dlock_target_lock_id(const dlock_target *t, const char *path, char *buf, size_t size)
{
	char space[1100];
	const char *hosts = t->hosts ? t->hosts : "", *chroot = strchr(hosts, '/');

	if (t->backend == DLOCK_BACKEND_ZOOKEEPER && chroot) {
		size_t cl = strlen(chroot);
		char servers[1100];

		while (cl > 1 && chroot[cl - 1] == '/') {
			cl--;
		}
		snprintf(servers, sizeof(servers), "%.*s", (int)(chroot - hosts), hosts);
		dlock_zk_hosts_space(servers, space, sizeof(space));
		snprintf(buf, size, "%s\n%.*s%s", space, (int)cl, chroot, path);
		return;
	}
	dlock_target_lock_space(t, space, sizeof(space));
	snprintf(buf, size, "%s\n%s", space, path);
}

int dlock_target_same_locks(const dlock_target *a, const dlock_target *b)
{
	char x[600], y[600];

	dlock_target_lock_space(a, x, sizeof(x));
	dlock_target_lock_space(b, y, sizeof(y));
	return strcmp(x, y) == 0;
}

void dlock_target_where(const dlock_target *t, char *buf, size_t size)
{
	if (t->backend == DLOCK_BACKEND_REDIS && t->sentinels) {
		snprintf(buf, size, "redis-sentinel://%s/%s/%d", t->sentinels,
		         t->master_name ? t->master_name : "", t->db);
	} else if (t->backend == DLOCK_BACKEND_REDIS && t->host && t->host[0] == '/') {
		snprintf(buf, size, "redis://%s?db=%d", t->host, t->db); /* a Unix socket */
	} else if (t->backend == DLOCK_BACKEND_REDIS) {
		/* params on a Redis target: rediss:// (TLS) */
		snprintf(buf, size, "%s://%s%s%s:%d/%d", t->params ? "rediss" : "redis",
		         strchr(t->host ? t->host : "", ':') ? "[" : "", t->host ? t->host : "",
		         strchr(t->host ? t->host : "", ':') ? "]" : "", t->port, t->db);
	} else if (t->backend == DLOCK_BACKEND_POSTGRES || t->backend == DLOCK_BACKEND_MYSQL) {
		snprintf(buf, size, "%s://%s%s%s%s%s:%d/%s",
		         t->backend == DLOCK_BACKEND_POSTGRES ? "postgres" : "mysql",
		         t->user ? t->user : "", t->user ? "@" : "",
		         strchr(t->host ? t->host : "", ':') ? "[" : "", t->host ? t->host : "",
		         strchr(t->host ? t->host : "", ':') ? "]" : "", t->port,
		         t->dbname ? t->dbname : "");
	} else {
		snprintf(buf, size, "zookeeper://%s", t->hosts ? t->hosts : "");
	}
}
