/* dlock_shared.c: what every class of the glue shares: the one mapping of
 * core status codes to exceptions, settings from INI and options (turned
 * into a dlock_target), the wait interrupt hook, and this request's held
 * locks. Called by the class files and the module file; calls only the core. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "php.h"
#include "zend_exceptions.h"

#include "php_dlock.h"
#include "php_dlock_int.h"

/* A malloc()ed copy of s (the core frees target strings with free()). */
static char *estrdup_or_null(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d) {
		zend_error_noreturn(E_ERROR, "dlock: out of memory");
	}
	return d;
}

/* The engine's interrupt flags: atomics from PHP 8.2 on, plain bools in 8.1. */
#if PHP_VERSION_ID >= 80200
#define php_dlock_vm_interrupt()       zend_atomic_bool_load_ex(&EG(vm_interrupt))
#define php_dlock_timed_out()          zend_atomic_bool_load_ex(&EG(timed_out))
#define php_dlock_vm_interrupt_clear() zend_atomic_bool_store_ex(&EG(vm_interrupt), false)
#else
#define php_dlock_vm_interrupt()       EG(vm_interrupt)
#define php_dlock_timed_out()          EG(timed_out)
#define php_dlock_vm_interrupt_clear() (EG(vm_interrupt) = 0)
#endif

/* Runs the pcntl handlers of signals that arrived during a dlock call before
 * it throws: the engine dispatches them only after the call returns, and with
 * an exception pending it drops them unrun. A pending execution timeout is
 * left to the VM. A handler's own exception becomes the previous exception of
 * the one thrown next. */
static void php_dlock_signals_dispatch(void)
{
	if (!EG(exception) && php_dlock_vm_interrupt() && !php_dlock_timed_out() &&
	    zend_interrupt_function) {
		php_dlock_vm_interrupt_clear();
		zend_interrupt_function(EG(current_execute_data));
	}
}

void php_dlock_throw_ex(zend_class_entry *ce, const char *format, ...)
{
	va_list va;
	zend_string *msg;

	va_start(va, format);
	msg = zend_vstrpprintf(0, format, va);
	va_end(va);
	php_dlock_signals_dispatch();
	zend_throw_exception(ce, ZSTR_VAL(msg), 0);
	zend_string_release(msg);
}

void php_dlock_throw(int status, const dlock_err *err, const char *path)
{
	zend_class_entry *ce = dlock_ce_exception;
	const char *detail = err && err->msg[0] ? err->msg : dlock_status_name(status);

	php_dlock_signals_dispatch();
	switch (status) {
	case DLOCK_EINVAL:
		zend_value_error("%s", detail);
		return;
	case DLOCK_ECONNECT:
	case DLOCK_ECONNLOSS:
	case DLOCK_ESESSION:
		ce = dlock_ce_connection_exception;
		break;
	case DLOCK_ELOST:
		ce = dlock_ce_lost_exception;
		break;
	default:
		break;
	}
	zend_throw_exception_ex(ce, err ? err->zrc : 0, "%s%s%s", path ? path : "", path ? ": " : "",
	                        detail);
}

/* ---- options ------------------------------------------------------------ */

static const char *php_dlock_backend_name(dlock_backend_id id)
{
	switch (id) {
	case DLOCK_BACKEND_REDIS:
		return "Redis";
	case DLOCK_BACKEND_POSTGRES:
		return "PostgreSQL";
	case DLOCK_BACKEND_MYSQL:
		return "MySQL";
	default:
		return "ZooKeeper";
	}
}

void php_dlock_settings_init(php_dlock_settings *set)
{
	dlock_err err;

	memset(set, 0, sizeof(*set));
	set->target.backend = DLOCK_BACKEND_ZOOKEEPER;
	set->target.session_timeout_ms = (int)DLOCK_G(session_timeout);
	set->target.connect_timeout_ms = (int64_t)(DLOCK_G(connect_timeout) * 1000.0);
	set->target.lease_ms = (int64_t)(DLOCK_G(lease) * 1000.0);
	set->target.max_hold_ms = (int64_t)(DLOCK_G(max_hold) * 1000.0);
	set->target.format = 'r';
	set->reentrant = true;
	if (DLOCK_G(dsn) && DLOCK_G(dsn)[0] &&
	    dlock_dsn_parse(DLOCK_G(dsn), strlen(DLOCK_G(dsn)), &set->target, &err) == DLOCK_OK) {
		return; /* validated when set; a failure here is out of memory: fall back */
	}
	set->target.hosts = estrdup_or_null(DLOCK_G(hosts));
}

void php_dlock_settings_dtor(php_dlock_settings *set)
{
	dlock_target_clear(&set->target);
	if (set->data) {
		zend_string_release(set->data);
		set->data = NULL;
	}
}

static bool php_dlock_option_type_error(uint32_t arg_num, const char *name, const char *type,
                                        zval *val)
{
	zend_argument_type_error(arg_num, "option \"%s\" must be of type %s, %s given", name, type,
	                         zend_zval_type_name(val));
	return false;
}

/* A number of seconds in [min, max] from an int or float option; false with
 * an error set otherwise. */
static bool php_dlock_seconds_option(zval *val, const char *name, double min, double max,
                                     uint32_t arg_num, double *out)
{
	double v;

	if (Z_TYPE_P(val) == IS_LONG) {
		v = (double)Z_LVAL_P(val);
	} else if (Z_TYPE_P(val) == IS_DOUBLE) {
		v = Z_DVAL_P(val);
	} else {
		return php_dlock_option_type_error(arg_num, name, "int|float", val);
	}
	if (!zend_finite(v) || v < min || v > max) {
		if (min > 0 && min < 0.01) {
			zend_argument_value_error(arg_num,
			                          "option \"%s\" must be a finite number of seconds greater "
			                          "than 0 and at most %g",
			                          name, max);
		} else {
			zend_argument_value_error(
			    arg_num, "option \"%s\" must be a finite number of seconds from %g to %g", name,
			    min, max);
		}
		return false;
	}
	*out = v;
	return true;
}

static bool php_dlock_string_option(zval *val, const char *name, uint32_t arg_num)
{
	if (Z_TYPE_P(val) != IS_STRING) {
		return php_dlock_option_type_error(arg_num, name, "string", val);
	}
	return true;
}

/* Reads the password of option "password_file" from the local file path:
 * its first line without the line end, 1 to DLOCK_AUTH_MAX bytes, no NUL.
 * open_basedir applies; no stream wrapper but plain files; no warning. Stores
 * a malloc()ed copy in *out. On failure throws a ValueError naming the file
 * (never its contents) and returns false. */
static bool php_dlock_password_file(zend_string *path, uint32_t arg_num, char **out)
{
	char buf[DLOCK_AUTH_MAX + 3];
	php_stream *s = NULL;
	size_t n = 0;
	ssize_t got;

	if (ZSTR_LEN(path) == 0 || ZSTR_LEN(path) > 4096 || strstr(ZSTR_VAL(path), "://") ||
	    memchr(ZSTR_VAL(path), '\0', ZSTR_LEN(path))) {
		zend_argument_value_error(arg_num,
		                          "option \"password_file\" must be the path of a local file");
		return false;
	}
	/* a regular file only: opening a FIFO blocks until a writer comes (no
	 * timeout ends it), a device or directory is not a password file */
	if (php_check_open_basedir_ex(ZSTR_VAL(path), 0) == 0) {
		zend_stat_t st;

		if (VCWD_STAT(ZSTR_VAL(path), &st) == 0 && !S_ISREG(st.st_mode)) {
			zend_argument_value_error(
			    arg_num, "option \"password_file\": \"%s\" is not a regular file", ZSTR_VAL(path));
			return false;
		}
		s = php_stream_open_wrapper(ZSTR_VAL(path), "rb", 0, NULL);
	}
	if (!s || !php_stream_is(s, PHP_STREAM_IS_STDIO)) {
		if (s) {
			php_stream_close(s);
		}
		zend_argument_value_error(arg_num,
		                          "option \"password_file\": cannot read \"%s\" (missing, not "
		                          "readable, or outside open_basedir)",
		                          ZSTR_VAL(path));
		return false;
	}
	while (n < sizeof(buf) && (got = php_stream_read(s, buf + n, sizeof(buf) - n)) > 0) {
		n += (size_t)got;
	}
	php_stream_close(s);
	n = memchr(buf, '\n', n) ? (size_t)((char *)memchr(buf, '\n', n) - buf) : n;
	if (n > 0 && buf[n - 1] == '\r') {
		n--;
	}
	if (n == 0 || n > DLOCK_AUTH_MAX || memchr(buf, '\0', n)) {
		ZEND_SECURE_ZERO(buf, sizeof(buf));
		zend_argument_value_error(
		    arg_num,
		    "option \"password_file\": \"%s\" must hold a password of 1 to %d "
		    "bytes (no NUL) on its first line",
		    ZSTR_VAL(path), DLOCK_AUTH_MAX);
		return false;
	}
	*out = malloc(n + 1);
	if (*out) {
		memcpy(*out, buf, n);
		(*out)[n] = '\0';
	}
	ZEND_SECURE_ZERO(buf, sizeof(buf));
	if (!*out) {
		zend_throw_error(NULL, "out of memory");
		return false;
	}
	return true;
}

bool php_dlock_settings_parse(php_dlock_settings *set, HashTable *opts, uint32_t arg_num)
{
	zend_string *key, *password_file = NULL;
	zval *val;
	dlock_err err;
	const char *zk_only = NULL, *redis_only = NULL, *hosts_given = NULL, *dsn_given = NULL;

	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, key, val)
	{
		ZVAL_DEREF(val);
		if (!key) {
			zend_argument_value_error(arg_num, "must be an array with string keys (option names)");
			return false;
		}
		if (zend_string_equals_literal(key, "hosts")) {
			char *copy;

			if (!php_dlock_string_option(val, "hosts", arg_num)) {
				return false;
			}
			if (dlock_hosts_validate(Z_STRVAL_P(val), Z_STRLEN_P(val), &err) != DLOCK_OK) {
				zend_argument_value_error(arg_num, "option \"hosts\" %s", err.msg);
				return false;
			}
			copy = estrdup_or_null(Z_STRVAL_P(val));
			free(set->target.hosts);
			set->target.hosts = copy;
			set->target.backend = DLOCK_BACKEND_ZOOKEEPER;
			hosts_given = "hosts";
		} else if (zend_string_equals_literal(key, "dsn")) {
			if (!php_dlock_string_option(val, "dsn", arg_num)) {
				return false;
			}
			if (dlock_dsn_parse(Z_STRVAL_P(val), Z_STRLEN_P(val), &set->target, &err) != DLOCK_OK) {
				zend_argument_value_error(arg_num, "option \"dsn\": %s", err.msg);
				return false;
			}
			dsn_given = "dsn";
		} else if (zend_string_equals_literal(key, "session_timeout")) {
			if (Z_TYPE_P(val) != IS_LONG) {
				return php_dlock_option_type_error(arg_num, "session_timeout", "int", val);
			}
			if (Z_LVAL_P(val) < DLOCK_SESSION_TIMEOUT_MIN ||
			    Z_LVAL_P(val) > DLOCK_SESSION_TIMEOUT_MAX) {
				zend_argument_value_error(arg_num,
				                          "option \"session_timeout\" must be between %d and %d "
				                          "(milliseconds)",
				                          DLOCK_SESSION_TIMEOUT_MIN, DLOCK_SESSION_TIMEOUT_MAX);
				return false;
			}
			set->target.session_timeout_ms = (int)Z_LVAL_P(val);
			zk_only = "session_timeout";
		} else if (zend_string_equals_literal(key, "connect_timeout")) {
			double v;

			if (!php_dlock_seconds_option(val, "connect_timeout", 0.001, DLOCK_CONNECT_TIMEOUT_MAX,
			                              arg_num, &v)) {
				return false;
			}
			set->target.connect_timeout_ms = (int64_t)(v * 1000.0);
		} else if (zend_string_equals_literal(key, "lease")) {
			double v;

			if (!php_dlock_seconds_option(val, "lease", DLOCK_LEASE_MIN, DLOCK_LEASE_MAX, arg_num,
			                              &v)) {
				return false;
			}
			set->target.lease_ms = (int64_t)(v * 1000.0);
			redis_only = "lease";
		} else if (zend_string_equals_literal(key, "max_hold")) {
			double v;

			if (!php_dlock_seconds_option(val, "max_hold", 0, DLOCK_TIMEOUT_MAX, arg_num, &v)) {
				return false;
			}
			set->target.max_hold_ms = (int64_t)ceil(v * 1000.0);
			redis_only = "max_hold";
		} else if (zend_string_equals_literal(key, "wait_replicas")) {
			if (Z_TYPE_P(val) != IS_LONG) {
				return php_dlock_option_type_error(arg_num, "wait_replicas", "int", val);
			}
			if (Z_LVAL_P(val) < 0 || Z_LVAL_P(val) > DLOCK_WAIT_REPLICAS_MAX) {
				zend_argument_value_error(arg_num,
				                          "option \"wait_replicas\" must be between 0 and %d",
				                          DLOCK_WAIT_REPLICAS_MAX);
				return false;
			}
			set->target.wait_replicas = (int)Z_LVAL_P(val);
			redis_only = "wait_replicas";
		} else if (zend_string_equals_literal(key, "format")) {
			if (!php_dlock_string_option(val, "format", arg_num)) {
				return false;
			}
			if (zend_string_equals_literal(Z_STR_P(val), "redisson")) {
				set->target.format = 'r';
			} else if (zend_string_equals_literal(Z_STR_P(val), "symfony")) {
				set->target.format = 's';
			} else if (zend_string_equals_literal(Z_STR_P(val), "laravel")) {
				set->target.format = 'l';
			} else {
				zend_argument_value_error(arg_num,
				                          "option \"format\" must be \"redisson\", \"symfony\" or "
				                          "\"laravel\"");
				return false;
			}
			redis_only = "format";
		} else if (zend_string_equals_literal(key, "data")) {
			if (!php_dlock_string_option(val, "data", arg_num)) {
				return false;
			}
			if (Z_STRLEN_P(val) > DLOCK_DATA_MAX) {
				zend_argument_value_error(arg_num,
				                          "option \"data\" must be at most %d bytes, %zu given",
				                          DLOCK_DATA_MAX, Z_STRLEN_P(val));
				return false;
			}
			if (set->data) {
				zend_string_release(set->data);
			}
			set->data = zend_string_copy(Z_STR_P(val));
		} else if (zend_string_equals_literal(key, "auth")) {
			const char *colon;
			char *copy;

			if (!php_dlock_string_option(val, "auth", arg_num)) {
				return false;
			}
			colon = memchr(Z_STRVAL_P(val), ':', Z_STRLEN_P(val));
			if (!colon || colon == Z_STRVAL_P(val) || Z_STRLEN_P(val) > DLOCK_AUTH_MAX ||
			    memchr(Z_STRVAL_P(val), '\0', Z_STRLEN_P(val))) {
				/* never echo the value: it is a secret */
				zend_argument_value_error(arg_num,
				                          "option \"auth\" must be \"user:password\" (digest "
				                          "scheme, at most %d bytes, no NUL)",
				                          DLOCK_AUTH_MAX);
				return false;
			}
			copy = estrdup_or_null(Z_STRVAL_P(val));
			if (set->target.auth) {
				memset(set->target.auth, 0, strlen(set->target.auth));
				free(set->target.auth);
			}
			set->target.auth = copy;
			zk_only = "auth";
		} else if (zend_string_equals_literal(key, "password_file")) {
			if (!php_dlock_string_option(val, "password_file", arg_num)) {
				return false;
			}
			password_file = Z_STR_P(val); /* read below, once the backend is known */
		} else if (zend_string_equals_literal(key, "reentrant")) {
			if (Z_TYPE_P(val) != IS_TRUE && Z_TYPE_P(val) != IS_FALSE) {
				return php_dlock_option_type_error(arg_num, "reentrant", "bool", val);
			}
			set->reentrant = Z_TYPE_P(val) == IS_TRUE;
		} else {
			zend_argument_value_error(
			    arg_num,
			    "contains unknown option \"%s\" (known: dsn, hosts, session_timeout, "
			    "connect_timeout, lease, max_hold, wait_replicas, format, data, auth, "
			    "password_file, "
			    "reentrant)",
			    ZSTR_LEN(key) > 64 || memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key)) ? "..."
			                                                                     : ZSTR_VAL(key));
			return false;
		}
	}
	ZEND_HASH_FOREACH_END();
	if (hosts_given && dsn_given) {
		zend_argument_value_error(arg_num, "must not have both options \"hosts\" and \"dsn\"");
		return false;
	}
	if (zk_only && set->target.backend != DLOCK_BACKEND_ZOOKEEPER) {
		zend_argument_value_error(arg_num, "option \"%s\" applies to ZooKeeper only, not to %s",
		                          zk_only, php_dlock_backend_name(set->target.backend));
		return false;
	}
	if (password_file && set->target.backend == DLOCK_BACKEND_ZOOKEEPER) {
		zend_argument_value_error(arg_num,
		                          "option \"password_file\" applies to Redis, PostgreSQL and MySQL "
		                          "(ZooKeeper's digest credentials are option \"auth\")");
		return false;
	}
	if (password_file) {
		char *pw;

		if (!php_dlock_password_file(password_file, arg_num, &pw)) {
			return false;
		}
		if (set->target.password) {
			/* the file's password replaces the DSN's */
			memset(set->target.password, 0, strlen(set->target.password));
			free(set->target.password);
		}
		set->target.password = pw;
	}
	if (redis_only && set->target.backend != DLOCK_BACKEND_REDIS) {
		zend_argument_value_error(arg_num,
		                          "option \"%s\" applies to Redis only (on %s a hold lasts as "
		                          "long as the session)",
		                          redis_only, php_dlock_backend_name(set->target.backend));
		return false;
	}
	return true;
}

/* ---- waiting ------------------------------------------------------------ */

/* Runs between wait slices: lets pcntl async signal handlers run (an exception
 * from one stops the wait), and stops on a pending execution timeout, leaving
 * the VM to raise it once we return. A fatal error in a handler longjmps
 * (bailout): it is caught here so the core can withdraw its node and free
 * what it holds, and re-raised by php_dlock_after_wait(). */
static int php_dlock_interrupt(void *arg)
{
	(void)arg;
	if (EG(exception) || DLOCK_G(bailout)) {
		return 1;
	}
	if (php_dlock_vm_interrupt()) {
		if (php_dlock_timed_out()) {
			return 1;
		}
		php_dlock_vm_interrupt_clear();
		if (zend_interrupt_function) {
			zend_try
			{
				zend_interrupt_function(EG(current_execute_data));
			}
			zend_catch
			{
				DLOCK_G(bailout) = true;
			}
			zend_end_try();
		}
		if (EG(exception) || DLOCK_G(bailout)) {
			return 1;
		}
	}
	return 0;
}

void php_dlock_after_wait(void)
{
	if (DLOCK_G(bailout)) {
		DLOCK_G(bailout) = false;
		zend_bailout();
	}
}

const dlock_interrupt php_dlock_intr = {php_dlock_interrupt, NULL};

int64_t php_dlock_wait_cap_ms(void)
{
	double cap = DLOCK_G(max_wait);

	if (cap < 0) {
		cap = (double)EG(timeout_seconds);
	}
	return cap > 0 ? (int64_t)(cap * 1000.0) : -1;
}

void php_dlock_cap_start(php_dlock_cap *cap)
{
	cap->total_ms = php_dlock_wait_cap_ms();
	cap->until = cap->total_ms < 0 ? -1 : dlock_now_ms() + cap->total_ms;
	cap->what = NULL;
}

/* ---- held locks --------------------------------------------------------- */

void php_dlock_held_add(php_dlock_obj *o)
{
	zval zv;

	ZVAL_PTR(&zv, o);
	zend_hash_index_update(&DLOCK_G(held), o->std.handle, &zv);
}

void php_dlock_held_remove(php_dlock_obj *o)
{
	zend_hash_index_del(&DLOCK_G(held), o->std.handle);
}
