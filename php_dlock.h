/* php_dlock.h: module entry, globals and version of the dlock extension. */
#ifndef PHP_DLOCK_H
#define PHP_DLOCK_H

extern zend_module_entry dlock_module_entry;
#define phpext_dlock_ptr &dlock_module_entry

#define PHP_DLOCK_VERSION "0.3.0"

ZEND_BEGIN_MODULE_GLOBALS(dlock)
char *hosts;               /* dlock.hosts: default connect string */
char *dsn;                 /* dlock.dsn: default backend and server; empty: ZooKeeper at hosts */
double lease;              /* dlock.lease: Redis lease, s */
double max_hold;           /* dlock.max_hold: Redis cap on one hold, s; 0: none */
zend_long session_timeout; /* dlock.session_timeout: ms */
double connect_timeout;    /* dlock.connect_timeout: seconds */
double max_wait;    /* dlock.max_wait: cap of an unbounded acquire(), s; <0: max_execution_time */
bool persistent;    /* dlock.persistent: keep sessions across requests */
double idle_close;  /* dlock.idle_close: s between requests before persistent sessions close; 0:
                       never */
int64_t idle_ms;    /* this request's idle close, read at RSHUTDOWN (INI is reset before the
                       post-deactivate hook that arms it) */
bool async_release; /* dlock.async_release: release() does not wait for the delete */
char *log_file;     /* dlock.log_file: ZooKeeper client log and slow-lock lines; empty: off
                       (slow-lock lines go to PHP's error log) */
char default_data[300]; /* "hostname:pid", computed once per pid */
pid_t default_data_pid; /* pid default_data was computed for */
HashTable held;         /* this request's held locks: object handle => php_dlock_obj* */
bool bailout;           /* a fatal error inside a wait's signal handler, caught so the core
                           could clean up; re-raised when the core returns */
ZEND_END_MODULE_GLOBALS(dlock)

ZEND_EXTERN_MODULE_GLOBALS(dlock)
#define DLOCK_G(v) ZEND_MODULE_GLOBALS_ACCESSOR(dlock, v)

#if defined(ZTS) && defined(COMPILE_DL_DLOCK)
ZEND_TSRMLS_CACHE_EXTERN()
#endif

#endif
