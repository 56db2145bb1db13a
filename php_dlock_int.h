/* php_dlock_int.h: what the glue files share: object layouts, class entries,
 * and the helpers dlock_shared.c provides (exceptions, options, waiting, held
 * locks). Calls flow dlock.c -> class files -> dlock_shared.c -> core. */
#ifndef PHP_DLOCK_INT_H
#define PHP_DLOCK_INT_H

#include <stddef.h> /* offsetof */

#include "php.h"
#include "core/dlock_core.h"

/* Where the lock lives and how it behaves, from INI and the options array. */
typedef struct php_dlock_settings {
	dlock_target target; /* backend, server and timeouts (owned, malloc()ed strings) */
	zend_string *data;   /* node data; NULL: "hostname:pid" at acquire time */
	bool reentrant;      /* a second acquire() counts (true) or throws (false) */
	bool revocable;      /* holds listen for revocation requests */
} php_dlock_settings;

/* A DistributedLock (mutex, or a read/write part) or DistributedSemaphore. */
typedef struct php_dlock_obj {
	dlock_handle *lock;     /* the core lock; NULL until constructed */
	php_dlock_settings set; /* owned strings */
	zval listener;          /* onRevocation()'s callable, or UNDEF */
	zend_object std;
} php_dlock_obj;

/* A DistributedReadWriteLock: owns its two parts. */
typedef struct php_dlock_rw_obj {
	zend_object *read;  /* DistributedLock of kind read (counted) or NULL */
	zend_object *write; /* DistributedLock of kind write (counted) or NULL */
	zend_object std;
} php_dlock_rw_obj;

/* A DistributedMultiLock. */
typedef struct php_dlock_multi_obj {
	zend_object **locks; /* php_dlock_obj objects in acquisition order (counted) */
	uint32_t count;      /* number of locks; 0 until constructed */
	zend_object std;
} php_dlock_multi_obj;

static inline php_dlock_obj *php_dlock_from_obj(zend_object *obj)
{
	return (php_dlock_obj *)((char *)obj - offsetof(php_dlock_obj, std));
}

static inline php_dlock_rw_obj *php_dlock_rw_from_obj(zend_object *obj)
{
	return (php_dlock_rw_obj *)((char *)obj - offsetof(php_dlock_rw_obj, std));
}

static inline php_dlock_multi_obj *php_dlock_multi_from_obj(zend_object *obj)
{
	return (php_dlock_multi_obj *)((char *)obj - offsetof(php_dlock_multi_obj, std));
}

#define Z_DLOCK_P(zv)       php_dlock_from_obj(Z_OBJ_P(zv))
#define Z_DLOCK_RW_P(zv)    php_dlock_rw_from_obj(Z_OBJ_P(zv))
#define Z_DLOCK_MULTI_P(zv) php_dlock_multi_from_obj(Z_OBJ_P(zv))

extern zend_class_entry *dlock_ce_interface;
extern zend_class_entry *dlock_ce_lock;
extern zend_class_entry *dlock_ce_rw;
extern zend_class_entry *dlock_ce_semaphore;
extern zend_class_entry *dlock_ce_multi;
extern zend_class_entry *dlock_ce_exception;
extern zend_class_entry *dlock_ce_connection_exception;
extern zend_class_entry *dlock_ce_lost_exception;

/* dlock_shared.c: the one place where core status codes become exceptions; `path`
 * (may be NULL) prefixes the message. */
void php_dlock_throw(int status, const dlock_err *err, const char *path);
/* dlock_shared.c: throws ce (a dlock exception class) with a formatted message.
 * Both throwers first run the handlers of pcntl signals that arrived during the
 * call (the engine would drop them once an exception is pending): every
 * exception a dlock method throws after talking to a server goes through them. */
void php_dlock_throw_ex(zend_class_entry *ce, const char *format, ...)
    ZEND_ATTRIBUTE_FORMAT(printf, 2, 3);

/* dlock_shared.c: settings from INI, then the options array (arg_num for
 * messages). On false an exception is set and *set must still be destroyed. */
void php_dlock_settings_init(php_dlock_settings *set);
bool php_dlock_settings_parse(php_dlock_settings *set, HashTable *opts, uint32_t arg_num);
void php_dlock_settings_dtor(php_dlock_settings *set);

/* dlock_shared.c: the interrupt hook for waits (pcntl handlers, execution timeout).
 * After every core call given it, call php_dlock_after_wait(): it re-raises
 * a fatal error that happened inside a handler during the wait. */
extern const dlock_interrupt php_dlock_intr;
void php_dlock_after_wait(void);

/* dlock_shared.c: wall-clock cap (ms) of an acquire() without timeout; < 0: none. */
int64_t php_dlock_wait_cap_ms(void);

/* The cap of one acquire() without timeout, started once: a multi-lock's
 * parts share it, so the whole multi-lock waits at most the cap. */
typedef struct php_dlock_cap {
	int64_t until;    /* dlock_now_ms() when it ends; < 0: no cap */
	int64_t total_ms; /* its whole length, for messages; < 0: no cap */
	const char *what; /* what the message names (NULL: the lock's path) */
} php_dlock_cap;

/* dlock_shared.c: starts a cap of php_dlock_wait_cap_ms() now. */
void php_dlock_cap_start(php_dlock_cap *cap);

/* dlock_shared.c: this request's held locks, released at request end. */
void php_dlock_held_add(php_dlock_obj *o);
void php_dlock_held_remove(php_dlock_obj *o);

/* dlock_lock_class.c: shared by the multi-lock. timeout < 0: none, capped by
 * cap (NULL: a cap of its own starts now). Sets return_value to true/false or
 * throws. */
void php_dlock_obj_acquire(php_dlock_obj *o, double timeout, const php_dlock_cap *cap,
                           zval *return_value);
/* Releases one hold; throws on failure. */
void php_dlock_obj_release(php_dlock_obj *o);
/* Releases one hold after a failure that wins (a callback's exception, a
 * multi-lock's unwind): waits for the reply unless dlock.async_release, keeps
 * any pending exception and swallows the release's own error. */
void php_dlock_obj_release_quiet(php_dlock_obj *o);
/* Converts a timeout argument (null allowed) into seconds (< 0: none); false
 * with a ValueError set when invalid. */
bool php_dlock_timeout_arg(double t, bool is_null, uint32_t arg_num, double *out);
/* dlock_lock_class.c, shared by the read-write lock: gives o a core lock of
 * kind on path with settings parsed from opts (argument opts_arg); false with
 * an exception set on bad input. */
bool php_dlock_init(php_dlock_obj *o, dlock_kind kind, zend_long max_leases, zend_string *path,
                    HashTable *opts, uint32_t opts_arg);
/* The server identity of a lock object, for ordering and messages. */
void php_dlock_where(const php_dlock_obj *o, char *buf, size_t size);
/* Sets return_value to the participants of a queue of kind on path, or throws. */
void php_dlock_participants(dlock_kind kind, zend_long max_leases, zend_string *path,
                            HashTable *opts, uint32_t opts_arg, zval *return_value);

/* dlock_revoke_glue.c: revocation's delivery at a safe point. MINIT installs
 * the engine interrupt hook and the kick; RINIT/RSHUTDOWN reset the pending
 * flag for the request. */
void php_dlock_revocation_minit(void);
void php_dlock_revocation_mshutdown(void);
void php_dlock_revocation_rinit(void);

/* Class set-up, called from MINIT. */
void php_dlock_lock_classes_init(void);

/* dlock_metrics.c: the lock numbers' phpinfo() table; the slow-lock log's
 * hook installed (MINIT) and removed (MSHUTDOWN). */
void php_dlock_metrics_info(void);
void php_dlock_metrics_init(void);
void php_dlock_metrics_shutdown(void);
void php_dlock_rw_class_init(void);
void php_dlock_multi_class_init(void);

#endif
