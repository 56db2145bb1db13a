/* dlock.c: the module: INI, request lifecycle (release at request end),
 * phpinfo(), class registration, and the helpers every class shares: options,
 * the exception mapping, and the wait interrupt hook. The lock logic lives in
 * core/; the classes' methods in dlock_lock_class.c and dlock_multi_class.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"

#include "php_dlock.h"
#include "php_dlock_int.h"
#include "dlock_arginfo.h"

#define DLOCK_DATA_MAX            1000000 /* bytes; the server caps a request at ~1 MiB */
#define DLOCK_SESSION_TIMEOUT_MIN 100     /* ms */
#define DLOCK_SESSION_TIMEOUT_MAX 3600000
#define DLOCK_CONNECT_TIMEOUT_MAX 3600.0
#define DLOCK_AUTH_MAX            1024

ZEND_DECLARE_MODULE_GLOBALS(dlock)

zend_class_entry *dlock_ce_interface;
zend_class_entry *dlock_ce_lock;
zend_class_entry *dlock_ce_rw;
zend_class_entry *dlock_ce_semaphore;
zend_class_entry *dlock_ce_multi;
zend_class_entry *dlock_ce_exception;
zend_class_entry *dlock_ce_connection_exception;
zend_class_entry *dlock_ce_lost_exception;

void php_dlock_throw(int status, const dlock_err *err, const char *path)
{
	zend_class_entry *ce = dlock_ce_exception;
	const char *detail = err && err->msg[0] ? err->msg : dlock_status_name(status);

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

/* ---- INI ---------------------------------------------------------------- */

static ZEND_INI_MH(OnUpdateDlockHosts)
{
	dlock_err err;

	if (dlock_hosts_validate(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &err) != DLOCK_OK) {
		php_error_docref(NULL, E_WARNING, "Invalid dlock.hosts: %s", err.msg);
		return FAILURE;
	}
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

static ZEND_INI_MH(OnUpdateDlockSessionTimeout)
{
	zend_long v = zend_ini_parse_quantity_warn(new_value, entry->name);

	if (v < DLOCK_SESSION_TIMEOUT_MIN || v > DLOCK_SESSION_TIMEOUT_MAX) {
		php_error_docref(NULL, E_WARNING, "dlock.session_timeout must be between %d and %d ms",
		                 DLOCK_SESSION_TIMEOUT_MIN, DLOCK_SESSION_TIMEOUT_MAX);
		return FAILURE;
	}
	DLOCK_G(session_timeout) = v;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateDlockSeconds)
{
	double v = zend_strtod(ZSTR_VAL(new_value), NULL);
	bool is_max_wait = mh_arg1 != NULL;

	if (!zend_finite(v) || (is_max_wait ? v < -1 : v <= 0) || v > DLOCK_CONNECT_TIMEOUT_MAX * 24) {
		php_error_docref(NULL, E_WARNING, "%s must be %s", ZSTR_VAL(entry->name),
		                 is_max_wait ? "-1, 0 or a positive number of seconds"
		                             : "a positive number of seconds");
		return FAILURE;
	}
	if (is_max_wait) {
		DLOCK_G(max_wait) = v;
	} else {
		DLOCK_G(connect_timeout) = v;
	}
	return SUCCESS;
}

PHP_INI_BEGIN()
STD_PHP_INI_ENTRY("dlock.hosts", "127.0.0.1:2181", PHP_INI_ALL, OnUpdateDlockHosts, hosts,
                  zend_dlock_globals, dlock_globals)
PHP_INI_ENTRY("dlock.session_timeout", "10000", PHP_INI_ALL, OnUpdateDlockSessionTimeout)
PHP_INI_ENTRY("dlock.connect_timeout", "5", PHP_INI_ALL, OnUpdateDlockSeconds)
PHP_INI_ENTRY1("dlock.max_wait", "-1", PHP_INI_ALL, OnUpdateDlockSeconds, (void *)1)
STD_PHP_INI_BOOLEAN("dlock.async_release", "1", PHP_INI_ALL, OnUpdateBool, async_release,
                    zend_dlock_globals, dlock_globals)
STD_PHP_INI_BOOLEAN("dlock.persistent", "1", PHP_INI_ALL, OnUpdateBool, persistent,
                    zend_dlock_globals, dlock_globals)
STD_PHP_INI_ENTRY("dlock.log_file", "", PHP_INI_SYSTEM, OnUpdateString, log_file,
                  zend_dlock_globals, dlock_globals)
PHP_INI_END()

/* ---- options ------------------------------------------------------------ */

void php_dlock_settings_init(php_dlock_settings *set)
{
	set->hosts = zend_string_init(DLOCK_G(hosts), strlen(DLOCK_G(hosts)), 0);
	set->session_timeout = DLOCK_G(session_timeout);
	set->connect_timeout = DLOCK_G(connect_timeout);
	set->auth = NULL;
	set->data = NULL;
	set->reentrant = true;
}

void php_dlock_settings_dtor(php_dlock_settings *set)
{
	if (set->hosts) {
		zend_string_release(set->hosts);
		set->hosts = NULL;
	}
	if (set->auth) {
		ZEND_SECURE_ZERO(ZSTR_VAL(set->auth), ZSTR_LEN(set->auth));
		zend_string_release(set->auth);
		set->auth = NULL;
	}
	if (set->data) {
		zend_string_release(set->data);
		set->data = NULL;
	}
}

void php_dlock_session_cfg(const php_dlock_settings *set, dlock_session_cfg *cfg)
{
	cfg->hosts = ZSTR_VAL(set->hosts);
	cfg->session_timeout_ms = (int)set->session_timeout;
	cfg->connect_timeout_ms = (int64_t)(set->connect_timeout * 1000.0);
	cfg->auth = set->auth ? ZSTR_VAL(set->auth) : NULL;
}

static bool php_dlock_option_type_error(uint32_t arg_num, const char *name, const char *type,
                                        zval *val)
{
	zend_argument_type_error(arg_num, "option \"%s\" must be of type %s, %s given", name, type,
	                         zend_zval_type_name(val));
	return false;
}

static void php_dlock_replace(zend_string **slot, zend_string *value)
{
	if (*slot) {
		zend_string_release(*slot);
	}
	*slot = zend_string_copy(value);
}

bool php_dlock_settings_parse(php_dlock_settings *set, HashTable *opts, uint32_t arg_num)
{
	zend_string *key;
	zval *val;
	dlock_err err;

	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, key, val)
	{
		ZVAL_DEREF(val);
		if (!key) {
			zend_argument_value_error(arg_num, "must be an array with string keys (option names)");
			return false;
		}
		if (zend_string_equals_literal(key, "hosts")) {
			if (Z_TYPE_P(val) != IS_STRING) {
				return php_dlock_option_type_error(arg_num, "hosts", "string", val);
			}
			if (dlock_hosts_validate(Z_STRVAL_P(val), Z_STRLEN_P(val), &err) != DLOCK_OK) {
				zend_argument_value_error(arg_num, "option \"hosts\" %s", err.msg);
				return false;
			}
			php_dlock_replace(&set->hosts, Z_STR_P(val));
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
			set->session_timeout = Z_LVAL_P(val);
		} else if (zend_string_equals_literal(key, "connect_timeout")) {
			double v;

			if (Z_TYPE_P(val) == IS_LONG) {
				v = (double)Z_LVAL_P(val);
			} else if (Z_TYPE_P(val) == IS_DOUBLE) {
				v = Z_DVAL_P(val);
			} else {
				return php_dlock_option_type_error(arg_num, "connect_timeout", "int|float", val);
			}
			if (!zend_finite(v) || v <= 0 || v > DLOCK_CONNECT_TIMEOUT_MAX) {
				zend_argument_value_error(arg_num,
				                          "option \"connect_timeout\" must be a finite number of "
				                          "seconds greater than 0 and at most %.0f",
				                          DLOCK_CONNECT_TIMEOUT_MAX);
				return false;
			}
			set->connect_timeout = v;
		} else if (zend_string_equals_literal(key, "data")) {
			if (Z_TYPE_P(val) != IS_STRING) {
				return php_dlock_option_type_error(arg_num, "data", "string", val);
			}
			if (Z_STRLEN_P(val) > DLOCK_DATA_MAX) {
				zend_argument_value_error(arg_num,
				                          "option \"data\" must be at most %d bytes, %zu given",
				                          DLOCK_DATA_MAX, Z_STRLEN_P(val));
				return false;
			}
			php_dlock_replace(&set->data, Z_STR_P(val));
		} else if (zend_string_equals_literal(key, "auth")) {
			const char *colon;

			if (Z_TYPE_P(val) != IS_STRING) {
				return php_dlock_option_type_error(arg_num, "auth", "string", val);
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
			php_dlock_replace(&set->auth, Z_STR_P(val));
		} else if (zend_string_equals_literal(key, "reentrant")) {
			if (Z_TYPE_P(val) != IS_TRUE && Z_TYPE_P(val) != IS_FALSE) {
				return php_dlock_option_type_error(arg_num, "reentrant", "bool", val);
			}
			set->reentrant = Z_TYPE_P(val) == IS_TRUE;
		} else {
			zend_argument_value_error(
			    arg_num,
			    "contains unknown option \"%s\" (known: hosts, "
			    "session_timeout, connect_timeout, data, auth, reentrant)",
			    ZSTR_LEN(key) > 64 || memchr(ZSTR_VAL(key), '\0', ZSTR_LEN(key)) ? "..."
			                                                                     : ZSTR_VAL(key));
			return false;
		}
	}
	ZEND_HASH_FOREACH_END();
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
	if (zend_atomic_bool_load_ex(&EG(vm_interrupt))) {
		if (zend_atomic_bool_load_ex(&EG(timed_out))) {
			return 1;
		}
		zend_atomic_bool_store_ex(&EG(vm_interrupt), false);
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

/* ---- module lifecycle --------------------------------------------------- */

static PHP_GINIT_FUNCTION(dlock)
{
#if defined(COMPILE_DL_DLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(dlock_globals, 0, sizeof(*dlock_globals));
}

static PHP_MINIT_FUNCTION(dlock)
{
	dlock_err err;

	REGISTER_INI_ENTRIES();
	if (dlock_zklog_configure(DLOCK_G(log_file), &err) != DLOCK_OK) {
		php_error_docref(NULL, E_WARNING, "dlock.log_file: %s", err.msg);
	}
	dlock_ce_interface = register_class_DistributedLockInterface();
	dlock_ce_lock = register_class_DistributedLock(dlock_ce_interface);
	dlock_ce_rw = register_class_DistributedReadWriteLock();
	dlock_ce_semaphore = register_class_DistributedSemaphore(dlock_ce_interface);
	dlock_ce_multi = register_class_DistributedMultiLock(dlock_ce_interface);
	dlock_ce_exception = register_class_DistributedLockException(spl_ce_RuntimeException);
	dlock_ce_connection_exception =
	    register_class_DistributedLockConnectionException(dlock_ce_exception);
	dlock_ce_lost_exception = register_class_DistributedLockLostException(dlock_ce_exception);
	php_dlock_lock_classes_init();
	php_dlock_rw_class_init();
	php_dlock_multi_class_init();
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(dlock)
{
	dlock_pool_shutdown(); /* ends this process's sessions */
	dlock_zklog_configure(NULL, NULL);
	UNREGISTER_INI_ENTRIES();
	return SUCCESS;
}

static PHP_RINIT_FUNCTION(dlock)
{
#if defined(COMPILE_DL_DLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	zend_hash_init(&DLOCK_G(held), 8, NULL, NULL, 0);
	DLOCK_G(bailout) = false;
	return SUCCESS;
}

/* Releases every lock the request still holds, however it ended. */
static PHP_RSHUTDOWN_FUNCTION(dlock)
{
	zval *zv;

	ZEND_HASH_FOREACH_VAL(&DLOCK_G(held), zv)
	{
		php_dlock_obj *o = Z_PTR_P(zv);

		dlock_lock_release_all(o->lock, 1, NULL); /* waited for: free once the request is over */
	}
	ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&DLOCK_G(held));
	zend_hash_init(&DLOCK_G(held), 8, NULL, NULL, 0); /* objects freed later still look */
	if (!DLOCK_G(persistent)) {
		dlock_pool_shutdown(); /* each request opens its own sessions */
	}
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(dlock)
{
	char sessions[16];

	snprintf(sessions, sizeof(sessions), "%u", dlock_pool_size());
	php_info_print_table_start();
	php_info_print_table_header(2, "dlock support", "enabled");
	php_info_print_table_row(2, "Extension version", PHP_DLOCK_VERSION);
	php_info_print_table_row(2, "ZooKeeper C client version", ZOO_VERSION);
	php_info_print_table_row(2, "Lock kinds", "mutex, read-write, semaphore, multi-lock");
	php_info_print_table_row(2, "Sessions open in this process", sessions);
	php_info_print_table_end();
	DISPLAY_INI_ENTRIES();
}

zend_module_entry dlock_module_entry = {STANDARD_MODULE_HEADER,
                                        "dlock",
                                        NULL,
                                        PHP_MINIT(dlock),
                                        PHP_MSHUTDOWN(dlock),
                                        PHP_RINIT(dlock),
                                        PHP_RSHUTDOWN(dlock),
                                        PHP_MINFO(dlock),
                                        PHP_DLOCK_VERSION,
                                        PHP_MODULE_GLOBALS(dlock),
                                        PHP_GINIT(dlock),
                                        NULL,
                                        NULL,
                                        STANDARD_MODULE_PROPERTIES_EX};

#ifdef COMPILE_DL_DLOCK
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(dlock)
#endif
