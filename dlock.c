/* dlock.c: Zend glue of the dlock extension: the DistributedLock class and its
 * exceptions, option and INI parsing, the request lifecycle (release at request
 * end) and phpinfo(). The lock logic lives in core/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <unistd.h>

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"

#include "php_dlock.h"
#include "core/dlock_core.h"
#include "dlock_arginfo.h"

#define DLOCK_DATA_MAX            1000000    /* bytes; the server caps a request at ~1 MiB */
#define DLOCK_TIMEOUT_MAX         31536000.0 /* one year, in seconds */
#define DLOCK_SESSION_TIMEOUT_MIN 100        /* ms */
#define DLOCK_SESSION_TIMEOUT_MAX 3600000
#define DLOCK_CONNECT_TIMEOUT_MAX 3600.0

ZEND_DECLARE_MODULE_GLOBALS(dlock)

static zend_class_entry *dlock_ce_lock;
static zend_class_entry *dlock_ce_exception;
static zend_class_entry *dlock_ce_connection_exception;
static zend_class_entry *dlock_ce_lost_exception;
static zend_object_handlers dlock_lock_handlers;

/* Connection settings and node data, from the options array and INI. */
typedef struct php_dlock_settings {
	zend_string *hosts;        /* connect string */
	zend_long session_timeout; /* ms */
	double connect_timeout;    /* s */
	zend_string *data;         /* node data; NULL: "hostname:pid" at acquire time */
} php_dlock_settings;

/* A DistributedLock object. */
typedef struct php_dlock_obj {
	dlock_mutex *mutex;     /* the core lock; NULL until constructed */
	php_dlock_settings set; /* owned strings */
	zend_object std;
} php_dlock_obj;

static inline php_dlock_obj *php_dlock_from_obj(zend_object *obj)
{
	return (php_dlock_obj *)((char *)obj - XtOffsetOf(php_dlock_obj, std));
}

#define Z_DLOCK_P(zv) php_dlock_from_obj(Z_OBJ_P(zv))

/* The one place where core status codes become exceptions. */
static void php_dlock_throw(int status, const dlock_err *err, const char *path)
{
	zend_class_entry *ce = dlock_ce_exception;
	const char *detail = err && err->msg[0] ? err->msg : dlock_status_name(status);

	switch (status) {
	case DLOCK_EINVAL:
		zend_value_error("%s", detail);
		return;
	case DLOCK_ENOMEM:
		ce = dlock_ce_exception;
		break;
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
STD_PHP_INI_ENTRY("dlock.log_file", "", PHP_INI_SYSTEM, OnUpdateString, log_file,
                  zend_dlock_globals, dlock_globals)
PHP_INI_END()

static void php_dlock_settings_init(php_dlock_settings *set)
{
	set->hosts = zend_string_init(DLOCK_G(hosts), strlen(DLOCK_G(hosts)), 0);
	set->session_timeout = DLOCK_G(session_timeout);
	set->connect_timeout = DLOCK_G(connect_timeout);
	set->data = NULL;
}

static void php_dlock_settings_dtor(php_dlock_settings *set)
{
	if (set->hosts) {
		zend_string_release(set->hosts);
		set->hosts = NULL;
	}
	if (set->data) {
		zend_string_release(set->data);
		set->data = NULL;
	}
}

static void php_dlock_session_cfg(const php_dlock_settings *set, dlock_session_cfg *cfg)
{
	cfg->hosts = ZSTR_VAL(set->hosts);
	cfg->session_timeout_ms = (int)set->session_timeout;
	cfg->connect_timeout_ms = (int64_t)(set->connect_timeout * 1000.0);
}

/* ---- object handlers ---------------------------------------------------- */

static zend_object *php_dlock_create(zend_class_entry *ce)
{
	php_dlock_obj *o = zend_object_alloc(sizeof(php_dlock_obj), ce);

	zend_object_std_init(&o->std, ce);
	object_properties_init(&o->std, ce);
	o->std.handlers = &dlock_lock_handlers;
	return &o->std;
}

static void php_dlock_free(zend_object *obj)
{
	php_dlock_obj *o = php_dlock_from_obj(obj);

	if (o->mutex) {
		zend_hash_index_del(&DLOCK_G(held), obj->handle);
		dlock_mutex_free(o->mutex); /* releases a lock still held */
		o->mutex = NULL;
	}
	php_dlock_settings_dtor(&o->set);
	zend_object_std_dtor(obj);
}

static HashTable *php_dlock_debug_info(zend_object *obj, int *is_temp)
{
	php_dlock_obj *o = php_dlock_from_obj(obj);
	HashTable *ht = zend_new_array(4);
	zval zv;

	*is_temp = 1;
	if (!o->mutex) {
		return ht;
	}
	ZVAL_STRING(&zv, dlock_mutex_path(o->mutex));
	zend_hash_str_update(ht, "path", sizeof("path") - 1, &zv);
	ZVAL_STR_COPY(&zv, o->set.hosts);
	zend_hash_str_update(ht, "hosts", sizeof("hosts") - 1, &zv);
	ZVAL_BOOL(&zv, dlock_mutex_held(o->mutex));
	zend_hash_str_update(ht, "acquired", sizeof("acquired") - 1, &zv);
	ZVAL_LONG(&zv, (zend_long)dlock_mutex_holds(o->mutex));
	zend_hash_str_update(ht, "holds", sizeof("holds") - 1, &zv);
	return ht;
}

/* ---- options ------------------------------------------------------------ */

static bool php_dlock_option_type_error(const char *name, const char *type, zval *val)
{
	zend_argument_type_error(2, "option \"%s\" must be of type %s, %s given", name, type,
	                         zend_zval_type_name(val));
	return false;
}

static bool php_dlock_parse_options(php_dlock_settings *o, HashTable *opts)
{
	zend_string *key;
	zval *val;
	dlock_err err;

	ZEND_HASH_FOREACH_STR_KEY_VAL(opts, key, val)
	{
		ZVAL_DEREF(val);
		if (!key) {
			zend_argument_value_error(2, "must be an array with string keys (option names)");
			return false;
		}
		if (zend_string_equals_literal(key, "hosts")) {
			if (Z_TYPE_P(val) != IS_STRING) {
				return php_dlock_option_type_error("hosts", "string", val);
			}
			if (dlock_hosts_validate(Z_STRVAL_P(val), Z_STRLEN_P(val), &err) != DLOCK_OK) {
				zend_argument_value_error(2, "option \"hosts\" %s", err.msg);
				return false;
			}
			zend_string_release(o->hosts);
			o->hosts = zend_string_copy(Z_STR_P(val));
		} else if (zend_string_equals_literal(key, "session_timeout")) {
			if (Z_TYPE_P(val) != IS_LONG) {
				return php_dlock_option_type_error("session_timeout", "int", val);
			}
			if (Z_LVAL_P(val) < DLOCK_SESSION_TIMEOUT_MIN ||
			    Z_LVAL_P(val) > DLOCK_SESSION_TIMEOUT_MAX) {
				zend_argument_value_error(2,
				                          "option \"session_timeout\" must be between %d and %d "
				                          "(milliseconds)",
				                          DLOCK_SESSION_TIMEOUT_MIN, DLOCK_SESSION_TIMEOUT_MAX);
				return false;
			}
			o->session_timeout = Z_LVAL_P(val);
		} else if (zend_string_equals_literal(key, "connect_timeout")) {
			double v;

			if (Z_TYPE_P(val) == IS_LONG) {
				v = (double)Z_LVAL_P(val);
			} else if (Z_TYPE_P(val) == IS_DOUBLE) {
				v = Z_DVAL_P(val);
			} else {
				return php_dlock_option_type_error("connect_timeout", "int|float", val);
			}
			if (!zend_finite(v) || v <= 0 || v > DLOCK_CONNECT_TIMEOUT_MAX) {
				zend_argument_value_error(2,
				                          "option \"connect_timeout\" must be a finite number of "
				                          "seconds greater than 0 and at most %.0f",
				                          DLOCK_CONNECT_TIMEOUT_MAX);
				return false;
			}
			o->connect_timeout = v;
		} else if (zend_string_equals_literal(key, "data")) {
			if (Z_TYPE_P(val) != IS_STRING) {
				return php_dlock_option_type_error("data", "string", val);
			}
			if (Z_STRLEN_P(val) > DLOCK_DATA_MAX) {
				zend_argument_value_error(2, "option \"data\" must be at most %d bytes, %zu given",
				                          DLOCK_DATA_MAX, Z_STRLEN_P(val));
				return false;
			}
			if (o->data) {
				zend_string_release(o->data);
			}
			o->data = zend_string_copy(Z_STR_P(val));
		} else {
			zend_argument_value_error(2,
			                          "contains unknown option \"%s\" (known: hosts, "
			                          "session_timeout, connect_timeout, data)",
			                          ZSTR_LEN(key) > 64 ? "..." : ZSTR_VAL(key));
			return false;
		}
	}
	ZEND_HASH_FOREACH_END();
	return true;
}

/* ---- waiting ------------------------------------------------------------ */

/* Runs between wait slices: lets pcntl async signal handlers run (an exception
 * from one stops the wait), and stops on a pending execution timeout, leaving
 * the VM to raise it once we return. */
static int php_dlock_interrupt(void *arg)
{
	(void)arg;
	if (EG(exception)) {
		return 1;
	}
	if (zend_atomic_bool_load_ex(&EG(vm_interrupt))) {
		if (zend_atomic_bool_load_ex(&EG(timed_out))) {
			return 1;
		}
		zend_atomic_bool_store_ex(&EG(vm_interrupt), false);
		if (zend_interrupt_function) {
			zend_interrupt_function(EG(current_execute_data));
		}
		if (EG(exception)) {
			return 1;
		}
	}
	return 0;
}

/* Wall-clock cap (ms) of an acquire() without timeout; < 0 when uncapped. */
static int64_t php_dlock_wait_cap_ms(void)
{
	double cap = DLOCK_G(max_wait);

	if (cap < 0) {
		cap = (double)EG(timeout_seconds);
	}
	return cap > 0 ? (int64_t)(cap * 1000.0) : -1;
}

static php_dlock_obj *php_dlock_this(zval *zv)
{
	php_dlock_obj *o = Z_DLOCK_P(zv);

	if (!o->mutex) {
		zend_throw_error(NULL, "DistributedLock object is not initialized");
		return NULL;
	}
	return o;
}

/* Shared body of acquire() and tryAcquire(). timeout_ms < 0: no timeout. */
static void php_dlock_do_acquire(php_dlock_obj *o, int64_t timeout_ms, zval *return_value)
{
	dlock_session_cfg cfg;
	dlock_interrupt intr = {php_dlock_interrupt, NULL};
	dlock_session *s = NULL;
	dlock_err err;
	zend_string *data = NULL;
	int64_t cap = -1;
	int rc;

	dlock_err_clear(&err);
	if (dlock_mutex_held(o->mutex)) {
		rc = dlock_mutex_acquire(o->mutex, NULL, NULL, 0, 0, NULL, &err);
		RETURN_BOOL(rc == DLOCK_OK);
	}
	if (timeout_ms < 0) {
		cap = php_dlock_wait_cap_ms();
		timeout_ms = cap;
	}
	php_dlock_session_cfg(&o->set, &cfg);
	rc = dlock_pool_get(&cfg, &intr, &s, &err);
	if (rc != DLOCK_OK) {
		goto fail;
	}
	if (o->set.data) {
		data = zend_string_copy(o->set.data);
	} else {
		char host[256] = "";

		gethostname(host, sizeof(host) - 1);
		data = zend_strpprintf(0, "%s:%ld", host, (long)getpid());
	}
	rc = dlock_mutex_acquire(o->mutex, s, ZSTR_VAL(data), ZSTR_LEN(data), timeout_ms, &intr, &err);
	zend_string_release(data);
	dlock_session_unref(s);
	if (rc == DLOCK_OK) {
		zval zv;

		ZVAL_PTR(&zv, o);
		zend_hash_index_update(&DLOCK_G(held), o->std.handle, &zv);
		RETURN_TRUE;
	}
	if (rc == DLOCK_ETIMEDOUT && cap >= 0) {
		zend_throw_exception_ex(dlock_ce_exception, 0,
		                        "%s: not acquired within %.3f s, the wall-clock cap of acquire() "
		                        "without a timeout (dlock.max_wait, or max_execution_time when "
		                        "dlock.max_wait is -1)",
		                        dlock_mutex_path(o->mutex), (double)cap / 1000.0);
		RETURN_THROWS();
	}
	if (rc == DLOCK_ETIMEDOUT) {
		RETURN_FALSE;
	}
	if (rc == DLOCK_EINTR) {
		if (EG(exception)) {
			RETURN_THROWS();
		}
		RETURN_FALSE; /* execution timeout pending: the VM raises it next */
	}
fail:
	if (rc == DLOCK_EINTR && EG(exception)) {
		RETURN_THROWS();
	}
	php_dlock_throw(rc, &err, dlock_mutex_path(o->mutex));
	RETURN_THROWS();
}

/* ---- methods ------------------------------------------------------------ */

PHP_METHOD(DistributedLock, __construct)
{
	php_dlock_obj *o = Z_DLOCK_P(ZEND_THIS);
	zend_string *path;
	HashTable *opts = NULL;
	dlock_err err;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (o->mutex) {
		zend_throw_error(NULL, "DistributedLock object is already initialized");
		RETURN_THROWS();
	}
	if (dlock_path_validate(ZSTR_VAL(path), ZSTR_LEN(path), &err) != DLOCK_OK) {
		zend_argument_value_error(1, "%s", err.msg);
		RETURN_THROWS();
	}
	php_dlock_settings_init(&o->set);
	if (opts && !php_dlock_parse_options(&o->set, opts)) {
		RETURN_THROWS();
	}
	if (dlock_mutex_new(ZSTR_VAL(path), ZSTR_LEN(path), &o->mutex, &err) != DLOCK_OK) {
		php_dlock_throw(DLOCK_ENOMEM, &err, NULL);
		RETURN_THROWS();
	}
}

PHP_METHOD(DistributedLock, acquire)
{
	php_dlock_obj *o;
	double timeout = 0;
	bool timeout_null = true;

	ZEND_PARSE_PARAMETERS_START(0, 1)
	Z_PARAM_OPTIONAL
	Z_PARAM_DOUBLE_OR_NULL(timeout, timeout_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (timeout_null) {
		php_dlock_do_acquire(o, -1, return_value);
		return;
	}
	if (!zend_finite(timeout)) {
		zend_argument_value_error(1, "must be a finite number of seconds or null");
		RETURN_THROWS();
	}
	if (timeout < 0 || timeout > DLOCK_TIMEOUT_MAX) {
		zend_argument_value_error(1, "must be between 0 and %.0f seconds, or null",
		                          DLOCK_TIMEOUT_MAX);
		RETURN_THROWS();
	}
	php_dlock_do_acquire(o, (int64_t)ceil(timeout * 1000.0), return_value);
}

PHP_METHOD(DistributedLock, tryAcquire)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_dlock_do_acquire(o, 0, return_value);
}

PHP_METHOD(DistributedLock, release)
{
	php_dlock_obj *o;
	dlock_err err;
	int rc;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rc = dlock_mutex_release(o->mutex, &err);
	if (!dlock_mutex_holds(o->mutex)) {
		zend_hash_index_del(&DLOCK_G(held), o->std.handle);
	}
	if (rc != DLOCK_OK) {
		php_dlock_throw(rc, &err, NULL);
		RETURN_THROWS();
	}
}

PHP_METHOD(DistributedLock, isAcquired)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_BOOL(dlock_mutex_held(o->mutex));
}

PHP_METHOD(DistributedLock, getFencingToken)
{
	php_dlock_obj *o;
	dlock_err err;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if (!dlock_mutex_held(o->mutex)) {
		dlock_err_set(&err, DLOCK_ENOTHELD, 0, "lock %s is not held: no fencing token",
		              dlock_mutex_path(o->mutex));
		php_dlock_throw(DLOCK_ENOTHELD, &err, NULL);
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long)dlock_mutex_token(o->mutex));
}

PHP_METHOD(DistributedLock, getPath)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_STRING(dlock_mutex_path(o->mutex));
}

PHP_METHOD(DistributedLock, participants)
{
	zend_string *path;
	HashTable *opts = NULL;
	php_dlock_settings set;
	dlock_session_cfg cfg;
	dlock_interrupt intr = {php_dlock_interrupt, NULL};
	dlock_session *s = NULL;
	dlock_participant *list = NULL;
	size_t n = 0, i;
	dlock_err err;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (dlock_path_validate(ZSTR_VAL(path), ZSTR_LEN(path), &err) != DLOCK_OK) {
		zend_argument_value_error(1, "%s", err.msg);
		RETURN_THROWS();
	}
	php_dlock_settings_init(&set);
	if (opts && !php_dlock_parse_options(&set, opts)) {
		php_dlock_settings_dtor(&set);
		RETURN_THROWS();
	}
	php_dlock_session_cfg(&set, &cfg);
	rc = dlock_pool_get(&cfg, &intr, &s, &err);
	if (rc == DLOCK_OK) {
		rc = dlock_queue_list(s, ZSTR_VAL(path), &list, &n, &err);
		dlock_session_unref(s);
	}
	php_dlock_settings_dtor(&set);
	if (rc != DLOCK_OK) {
		if (!EG(exception)) {
			php_dlock_throw(rc, &err, ZSTR_VAL(path));
		}
		RETURN_THROWS();
	}
	array_init_size(return_value, (uint32_t)n);
	for (i = 0; i < n; i++) {
		zval entry;

		array_init_size(&entry, 4);
		add_assoc_string(&entry, "node", list[i].name);
		add_assoc_stringl(&entry, "data", list[i].data, list[i].data_len);
		add_assoc_long(&entry, "token", (zend_long)list[i].token);
		add_assoc_bool(&entry, "holder", list[i].holder);
		add_next_index_zval(return_value, &entry);
	}
	dlock_queue_free(list, n);
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
	dlock_ce_lock = register_class_DistributedLock();
	dlock_ce_lock->create_object = php_dlock_create;
	dlock_ce_exception = register_class_DistributedLockException(spl_ce_RuntimeException);
	dlock_ce_connection_exception =
	    register_class_DistributedLockConnectionException(dlock_ce_exception);
	dlock_ce_lost_exception = register_class_DistributedLockLostException(dlock_ce_exception);

	memcpy(&dlock_lock_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	dlock_lock_handlers.offset = XtOffsetOf(php_dlock_obj, std);
	dlock_lock_handlers.free_obj = php_dlock_free;
	dlock_lock_handlers.clone_obj = NULL;
	dlock_lock_handlers.get_debug_info = php_dlock_debug_info;
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
	return SUCCESS;
}

/* Releases every lock the request still holds, however it ended. */
static PHP_RSHUTDOWN_FUNCTION(dlock)
{
	zval *zv;

	ZEND_HASH_FOREACH_VAL(&DLOCK_G(held), zv)
	{
		php_dlock_obj *o = Z_PTR_P(zv);

		dlock_mutex_release_all(o->mutex, NULL);
	}
	ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&DLOCK_G(held));
	zend_hash_init(&DLOCK_G(held), 8, NULL, NULL, 0); /* objects freed later still look */
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
