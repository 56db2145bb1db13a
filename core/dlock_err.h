/* dlock_err.h: status codes and the caller-owned error record of the lock core. */
#ifndef DLOCK_ERR_H
#define DLOCK_ERR_H

#include <stddef.h>

/* Every core function returns one of these; DLOCK_OK is zero. */
typedef enum dlock_status {
	DLOCK_OK = 0,
	DLOCK_ETIMEDOUT,    /* not acquired within the caller's timeout (not a fault) */
	DLOCK_EINVAL,       /* an argument is invalid; msg says which and why */
	DLOCK_ENOMEM,       /* allocation failed */
	DLOCK_ECONNECT,     /* no session could be established within connect_timeout */
	DLOCK_ECONNLOSS,    /* the connection dropped mid-operation */
	DLOCK_ESESSION,     /* the session expired (or was closed) mid-operation */
	DLOCK_ELOST,        /* the lock was held, but its node is gone */
	DLOCK_ENOTHELD,     /* release() of a lock this object does not hold */
	DLOCK_EINTR,        /* the caller's interrupt hook asked to stop waiting */
	DLOCK_EFORKED,      /* the session belongs to the parent of a fork() */
	DLOCK_EAUTH,        /* the server refused our credentials or the node's ACL */
	DLOCK_EZK,          /* any other ZooKeeper error; zrc holds its code */
	DLOCK_EDEADLK,      /* refused: waiting would wait for this process itself, or the
	                       request would let another holder in beside ours */
	DLOCK_EUNSUPPORTED, /* the backend does not offer this kind of lock */
	DLOCK_ESERVER       /* any other server error (Redis); msg says which */
} dlock_status;

/* Filled by a failing core call; owned by the caller (usually on its stack). */
typedef struct dlock_err {
	int zrc;       /* ZooKeeper return code behind the failure, 0 if none (Redis: 0) */
	char msg[256]; /* human-readable detail, NUL-terminated, never a secret */
} dlock_err;

/* Clears err (zrc = 0, empty msg). err may be NULL. */
void dlock_err_clear(dlock_err *err);

/* Records zrc and a printf-style message in err (may be NULL); returns status
 * unchanged so callers can write `return dlock_err_set(err, DLOCK_EINVAL, ...)`. */
int dlock_err_set(dlock_err *err, int status, int zrc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Static name of a status, e.g. "DLOCK_ECONNLOSS". */
const char *dlock_status_name(int status);

#endif
