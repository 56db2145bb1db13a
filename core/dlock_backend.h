/* dlock_backend.h: the seam between the PHP glue and the backends. The glue
 * sees only a dlock_handle (one lock object) and a dlock_target (where and
 * how to reach a server); each backend (ZooKeeper, Redis) implements the
 * small table of operations below. Layers: glue -> dlock_handle ->
 * {dlock_zk_backend -> the ZooKeeper recipe, redis/ -> hiredis}. */
#ifndef DLOCK_BACKEND_H
#define DLOCK_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "dlock_err.h"
#include "dlock_participant.h"
#include "dlock_kind.h"
#include "dlock_revoke.h"
#include "dlock_wait.h"

typedef enum dlock_backend_id {
	DLOCK_BACKEND_ZOOKEEPER = 0,
	DLOCK_BACKEND_REDIS,
	DLOCK_BACKEND_POSTGRES,
	DLOCK_BACKEND_MYSQL
} dlock_backend_id;

/* A backend's names, known whether or not this build has it (a DSN of a
 * backend left out still parses, and fails at the lock with a message that
 * names the switch that builds it). */
typedef struct dlock_backend_name {
	const char *scheme;  /* its DSN scheme, e.g. "postgres"; "zookeeper" is the default */
	const char *display; /* "PostgreSQL": phpinfo() and messages */
	const char *build;   /* its ./configure switch: --with-dlock-<build> */
} dlock_backend_name;

/* Every backend's names, indexed by dlock_backend_id (dlock_target.c). A
 * backend is this row, its dlock_backend_ops and its row of
 * dlock_backend_table. */
extern const dlock_backend_name dlock_backend_names[];

/* Where a lock lives and the settings of its connection. Strings are owned
 * by whoever filled the struct (dlock_target_copy/dlock_target_clear for
 * owned copies). */
typedef struct dlock_target {
	dlock_backend_id backend;
	int64_t connect_timeout_ms; /* how long a connect may take */
	/* ZooKeeper */
	char *hosts;            /* connect string (with chroot), validated */
	int session_timeout_ms; /* requested session timeout */
	char *auth;             /* digest "user:password" or NULL; a secret */
	/* Redis, PostgreSQL, MySQL */
	char *host;          /* host name or address (with sentinels: none) */
	int port;            /* TCP port */
	int db;              /* Redis database number (SELECT) */
	char *dbname;        /* SQL database name or NULL (the server's default) */
	char *user;          /* ACL user or NULL */
	char *password;      /* password or NULL; a secret */
	int64_t lease_ms;    /* lease of a held lock, renewed by the watchdog */
	int64_t max_hold_ms; /* renewals stop this long after the acquire; 0: never */
	char *sentinels;     /* "host:port[,host:port...]" of Redis Sentinels, or NULL */
	char *master_name;   /* the master's name the sentinels know (with sentinels) */
	int wait_replicas;   /* an acquire counts once this many replicas have it (WAIT) */
	char format;         /* how a hold looks: 'r' Redisson (default), 's' symfony/lock,
	                        'l' Laravel */
	char *params;        /* SQL DSN query, "key=value\n" lines (TLS files, modes), or NULL */
} dlock_target;

/* Deep-copies src into dst (dst's old contents are not freed). Returns
 * DLOCK_OK or DLOCK_ENOMEM (dst then holds nothing to free). */
int dlock_target_copy(dlock_target *dst, const dlock_target *src, dlock_err *err);

/* Frees an owned target's strings (secrets zeroed first) and zeroes it. */
void dlock_target_clear(dlock_target *t);

/* Non-zero when a and b name the same server (backend, address or
 * sentinels and master name, database) with the same connection parameters
 * (TLS); credentials are not compared. */
int dlock_target_same_server(const dlock_target *a, const dlock_target *b);

/* Writes t's lock space: what decides whether two targets' locks of one
 * name are one lock (backend, address with the spellings of one host that
 * can be told without a lookup folded into one, e.g. "localhost",
 * "127.0.0.1", "127.1" and "::1" all as "loopback", port, database, or
 * sentinels and master name); never a user or password: on one server and
 * database a name is one lock whoever asks. Truncated to size with a NUL. */
void dlock_target_lock_space(const dlock_target *t, char *buf, size_t size);

/* Writes a ZooKeeper connect string's lock space: "zookeeper://" and its
 * servers, each host spelled as in dlock_target_lock_space() with its port,
 * sorted and without repeats, then the chroot without a trailing "/"; so
 * "localhost:2181,h:2181/app/" and "h:2181,127.0.0.1:2181/app" are one
 * ensemble. Another subset of the same ensemble stays another spelling.
 * Truncated to size with a NUL. */
void dlock_zk_hosts_space(const char *hosts, char *buf, size_t size);

/* Writes the identity of lock `path` on t: its lock space (above) and its
 * name there, as "<space>\n<name>". On ZooKeeper the chroot belongs to the
 * name, not the space (chroot "/app" and path "/x" are the znode "/app/x",
 * as is path "/app/x" without a chroot), so one znode spelled through two
 * chroots is one identity. Truncated to size with a NUL. */
void dlock_target_lock_id(const dlock_target *t, const char *path, char *buf, size_t size);

/* Non-zero when a and b have the same lock space (above). */
int dlock_target_same_locks(const dlock_target *a, const dlock_target *b);

/* Writes the server identity (no secrets), e.g. "redis://127.0.0.1:6379/0" or
 * "zookeeper://h1:2181,h2:2181/chroot", truncated to size bytes with a NUL. */
void dlock_target_where(const dlock_target *t, char *buf, size_t size);

typedef struct dlock_handle dlock_handle;

/* What one acquire asks for. */
typedef struct dlock_acquire_req {
	int64_t timeout_ms;          /* < 0: wait for ever; 0: one try; > 0: at most that long */
	const char *data;            /* stored with the hold where the backend can */
	size_t data_len;             /* bytes of data */
	const dlock_interrupt *intr; /* called between wait slices; may be NULL */
	dlock_handle *grant_from;    /* set by dlock_handle_acquire, not the caller: a downgrade,
	                                this process's write hold on the same path, or NULL */
	int no_self_wait;            /* the caller waits without a timeout (whatever cap
	                                timeout_ms carries): a wait that depends on this
	                                process's own hold is refused */
	dlock_revoke *revoke;        /* set by dlock_handle_acquire, not the caller: a revocable
	                                first hold's cell, which the backend raises when a
	                                revocation request reaches the hold; else NULL */
	char *holder;                /* set by dlock_handle_acquire: a backend that waited and
	                                knows the data of the holder it waited for writes it here
	                                (dlock_stats_holder_copy), for the slow-lock log */
	size_t holder_size;          /* bytes of holder */
} dlock_acquire_req;

/* The operations a backend provides: the server's side of a lock only. The
 * generic behaviour of a lock object is dlock_handle.c's, once for every
 * backend: nested holds (a nested acquire() re-checks the hold, a nested
 * release() only counts down), the fork rule (a child forgets its parent's
 * holds, never uses or releases them) and the refusal of a second acquire()
 * of one object from a signal handler. Contracts are those of the
 * dlock_handle_* functions in dlock_handle.h, which call them, with these
 * additions. */
typedef struct dlock_backend_ops {
	int (*lock_new)(dlock_handle *h, dlock_err *err); /* sets h->impl */
	/* frees h->impl; a hold it still has (h->pid is this process: the handle
	 * forgot a fork parent's first) is released first, errors ignored */
	void (*lock_free)(dlock_handle *h);
	/* takes a first hold: h holds nothing, and this process's other objects'
	 * holds are in the registry of held locks (dlock_held.h) */
	int (*acquire)(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
	/* one more hold on h's hold, taken by this process: DLOCK_OK when it
	 * still stands (asking the server where the backend must); otherwise why
	 * not, and a hold found lost is forgotten (holding() is then 0) */
	int (*reenter)(dlock_handle *h, const dlock_acquire_req *req, dlock_err *err);
	/* gives up h's hold, taken by this process (the last nested one); on
	 * return holding() says whether the backend kept it (still certain,
	 * after a failure that did not drop it) */
	int (*release)(dlock_handle *h, int wait, dlock_err *err);
	/* forgets h's hold without a word to the server (a fork child: the hold
	 * and its session or connection are the parent's) */
	void (*forget)(dlock_handle *h);
	/* non-zero while the backend has a hold for h (certain or not) */
	int (*holding)(const dlock_handle *h);
	int (*held)(dlock_handle *h);
	int (*verify)(dlock_handle *h, dlock_err *err);
	int64_t (*token)(const dlock_handle *h);
	int (*self_conflict)(const dlock_handle *h);
	int (*participants)(const dlock_target *t, dlock_kind kind, int max_leases, const char *path,
	                    size_t len, const dlock_interrupt *intr, dlock_participant **out,
	                    size_t *count, dlock_err *err);
	unsigned (*connections)(void); /* open sessions/connections of this process */
	void (*shutdown)(int final);   /* closes what no lock still uses; final: everything */
	/* optional: a backend that hands out tokens on demand (SQL: a row write
	 * the acquire does not pay for) fetches the hold's token; NULL: token()
	 * is known from the acquire */
	int (*token_fetch)(dlock_handle *h, dlock_err *err);
	/* optional (NULL: DLOCK_EUNSUPPORTED): the locks whose names start with
	 * prefix[0..len), see dlock_backend_list_locks */
	int (*list_locks)(const dlock_target *t, const char *prefix, size_t len,
	                  const dlock_interrupt *intr, dlock_lock_entry **out, size_t *count,
	                  dlock_err *err);
	/* optional (NULL: DLOCK_EUNSUPPORTED): ends the holds of the lock at
	 * path whoever has them, see dlock_backend_force_break */
	int (*force_break)(const dlock_target *t, const char *path, size_t len,
	                   const dlock_interrupt *intr, int *broken, dlock_err *err);
	/* optional (NULL: not offered): blocks until the queue at path changes,
	 * see dlock_backend_wait_change */
	int (*wait_change)(const dlock_target *t, const char *path, size_t len, int64_t timeout_ms,
	                   const dlock_interrupt *intr, int *changed, dlock_err *err);
	const char *(*library)(void); /* the client library and its version, e.g. "hiredis 0.14.1" */
	/* optional: sends the client library's own log to `path` (NULL: back to
	 * its default); DLOCK_OK or an error with err->msg set. NULL: none */
	int (*log_configure)(const char *path, dlock_err *err);
	/* optional: asks every holder of kind's lock at path to give it up
	 * (revocation); *count: how many were asked. NULL: this backend cannot
	 * deliver a revocation without polling, and refuses revocable holds */
	int (*revoke_request)(const dlock_target *t, dlock_kind kind, int max_leases, const char *path,
	                      size_t len, const dlock_interrupt *intr, int *count, dlock_err *err);
	/* without revoke_request: why, for the refusal's message (NULL: a generic one) */
	const char *no_revoke;
	/* optional: request end with persistent connections: stops what only a
	 * request's holds needed (Redis: revocation subscribers no hold uses).
	 * NULL: nothing to do */
	void (*request_end)(void);
} dlock_backend_ops;

/* One lock object of the glue: the generic part every backend shares. */
struct dlock_handle {
	const dlock_backend_ops *ops; /* the backend */
	void *impl;                   /* the backend's contender (owned through ops) */
	dlock_target target;          /* owned copy */
	dlock_kind kind;              /* mutex, read, write or semaphore */
	int max_leases;               /* semaphores: holders allowed at once */
	char *path;                   /* the lock name (owned) */
	size_t path_len;              /* bytes of path */
	unsigned holds;               /* nested holds; > 0 only while the backend holds */
	long pid;                     /* the process that took the hold */
	int reentrant;                /* a second acquire() counts (1) or is refused (0) */
	struct dlock_handle *sibling; /* a read-write lock's other part, or NULL */
	int revocable;                /* holds listen for revocation requests */
	dlock_revoke *revoke;         /* the current (or last) hold's revocation cell, or NULL */
	int64_t held_since_us;        /* when the first hold was taken (dlock_now_us), counted in
	                                 the lock numbers (dlock_stats.h); 0: not held */
};

extern const dlock_backend_ops dlock_zk_backend;
extern const dlock_backend_ops dlock_redis_backend;
extern const dlock_backend_ops dlock_pg_backend;
extern const dlock_backend_ops dlock_my_backend;

/* The backend table, indexed by dlock_backend_id: the one place that lists
 * the backends (dlock_handle.c). */
#define DLOCK_BACKENDS 4
extern const dlock_backend_ops *const dlock_backend_table[DLOCK_BACKENDS];

/* DLOCK_EUNSUPPORTED with a message naming backend `id`, which this build
 * left out (its row in dlock_backend_table is NULL). */
int dlock_backend_missing(dlock_backend_id id, dlock_err *err);

#endif
