/* dlock_shared.c: what every class of the glue shares: the one mapping of
 * core status codes to exceptions, settings from INI and options (turned
 * into a dlock_target), the wait interrupt hook, and this request's held
 * locks. Called by the class files and the module file; calls only the core. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

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

/* Checks val for option o (the row of core/dlock_option.c) and stores it in
 * set, except password_file, left in *password_file to be read once the
 * backend is known. False with a TypeError or ValueError thrown otherwise. */
static bool php_dlock_option_value(php_dlock_settings *set, const dlock_option *o, zval *val,
                                   uint32_t arg_num, zend_string **password_file)
{
	dlock_err err;
	int rc = DLOCK_OK;

	switch (o->type) {
	case DLOCK_OT_STRING:
		if (Z_TYPE_P(val) != IS_STRING) {
			return php_dlock_option_type_error(arg_num, o->name, "string", val);
		}
		if (o->set) {
			rc = o->set(&set->target, Z_STRVAL_P(val), Z_STRLEN_P(val), &err);
		} else if ((rc = dlock_option_check_len(o, Z_STRLEN_P(val), &err)) != DLOCK_OK) {
			break;
		} else if (o->id == DLOCK_OPT_DATA) {
			if (set->data) {
				zend_string_release(set->data);
			}
			set->data = zend_string_copy(Z_STR_P(val));
		} else if (o->id == DLOCK_OPT_PASSWORD_FILE) {
			*password_file = Z_STR_P(val);
		}
		break;
	case DLOCK_OT_INT:
		if (Z_TYPE_P(val) != IS_LONG) {
			return php_dlock_option_type_error(arg_num, o->name, "int", val);
		}
		rc = dlock_option_set_int(o, (int64_t)Z_LVAL_P(val), &set->target, &err);
		break;
	case DLOCK_OT_SECONDS:
		if (Z_TYPE_P(val) == IS_LONG) {
			rc = dlock_option_set_seconds(o, (double)Z_LVAL_P(val), &set->target, &err);
		} else if (Z_TYPE_P(val) == IS_DOUBLE) {
			rc = dlock_option_set_seconds(o, Z_DVAL_P(val), &set->target, &err);
		} else {
			return php_dlock_option_type_error(arg_num, o->name, "int|float", val);
		}
		break;
	case DLOCK_OT_BOOL:
		if (Z_TYPE_P(val) != IS_TRUE && Z_TYPE_P(val) != IS_FALSE) {
			return php_dlock_option_type_error(arg_num, o->name, "bool", val);
		}
		if (o->id == DLOCK_OPT_REENTRANT) {
			set->reentrant = Z_TYPE_P(val) == IS_TRUE;
		} else if (o->id == DLOCK_OPT_REVOCABLE) {
			set->revocable = Z_TYPE_P(val) == IS_TRUE;
		}
		break;
	}
	if (rc == DLOCK_ENOMEM) {
		zend_error_noreturn(E_ERROR, "dlock: out of memory");
	}
	if (rc != DLOCK_OK) {
		zend_argument_value_error(arg_num, "%s", err.msg);
		return false;
	}
	return true;
}

bool php_dlock_settings_parse(php_dlock_settings *set, HashTable *opts, uint32_t arg_num)
{
	const dlock_option *given[DLOCK_OPTIONS] = {NULL};
	size_t n = 0;
	zend_string *key, *password_file = NULL;
	zval *val;
	dlock_err err;

	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, key, val)
	{
		const dlock_option *o;

		ZVAL_DEREF(val);
		if (!key) {
			zend_argument_value_error(arg_num, "must be an array with string keys (option names)");
			return false;
		}
		o = dlock_option_find(ZSTR_VAL(key), ZSTR_LEN(key));
		if (!o) {
			char known[256];

			dlock_option_names(known, sizeof(known));
			zend_argument_value_error(
			    arg_num, "contains unknown option \"%s\" (known: %s)",
			    ZSTR_LEN(key) > 64 || memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key)) ? "..."
			                                                                     : ZSTR_VAL(key),
			    known);
			return false;
		}
		if (!php_dlock_option_value(set, o, val, arg_num, &password_file)) {
			return false;
		}
		given[n++] = o; /* keys are unique: at most one entry per option */
	}
	ZEND_HASH_FOREACH_END();
	if (dlock_option_check_scope(given, n, set->target.backend, &err) != DLOCK_OK) {
		zend_argument_value_error(arg_num, "%s", err.msg);
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
