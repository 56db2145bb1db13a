/* dlock.c: the module, on top of the glue: INI, request lifecycle (release at
 * request end), phpinfo() and class registration. The helpers every class
 * shares are in dlock_shared.c, the classes in dlock_*_class.c, the lock
 * logic in core/. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "php.h"
#include "php_ini.h"
#include "ext/standard/info.h"
#include "php_main.h"
#include "SAPI.h"
#include "zend_exceptions.h"
#include "zend_attributes.h" /* #[\SensitiveParameter] in dlock_arginfo.h */
#include "zend_interfaces.h"
#include "ext/spl/spl_exceptions.h"

#include "php_dlock.h"
#include "php_dlock_int.h"
#include "dlock_arginfo.h"
#include "core/dlock_idle.h"
#include "core/dlock_stats.h"

ZEND_DECLARE_MODULE_GLOBALS(dlock)

zend_class_entry *dlock_ce_interface;
zend_class_entry *dlock_ce_lock;
zend_class_entry *dlock_ce_rw;
zend_class_entry *dlock_ce_semaphore;
zend_class_entry *dlock_ce_multi;
zend_class_entry *dlock_ce_exception;
zend_class_entry *dlock_ce_connection_exception;
zend_class_entry *dlock_ce_lost_exception;

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

static ZEND_INI_MH(OnUpdateDlockDsn)
{
	dlock_target t;
	dlock_err err;
	int rc;

	if (ZSTR_LEN(new_value) > 0) {
		memset(&t, 0, sizeof(t));
		rc = dlock_dsn_parse(ZSTR_VAL(new_value), ZSTR_LEN(new_value), &t, &err);
		dlock_target_clear(&t);
		if (rc != DLOCK_OK) {
			php_error_docref(NULL, E_WARNING, "Invalid dlock.dsn: %s", err.msg);
			return FAILURE;
		}
	}
	return OnUpdateString(entry, new_value, mh_arg1, mh_arg2, mh_arg3, stage);
}

/* dlock.lease (mh_arg1 NULL) and dlock.max_hold (mh_arg1 non-NULL), seconds */
static ZEND_INI_MH(OnUpdateDlockLease)
{
	const char *end = NULL;
	double v = zend_strtod(ZSTR_VAL(new_value), &end);
	bool is_max_hold = mh_arg1 != NULL;
	const dlock_option *range;

	/* wholly a decimal number, as dlock.max_wait: "abc" or "0x1" read as 0
	 * would silently remove max_hold's cap */
	while (end && (*end == ' ' || *end == '\t')) {
		end++;
	}
	/* the range of the option of the same name (core/dlock_option.c) */
	range = dlock_option_get(is_max_hold ? DLOCK_OPT_MAX_HOLD : DLOCK_OPT_LEASE);
	if (ZSTR_LEN(new_value) == 0 || !end || *end != '\0' || end == ZSTR_VAL(new_value) ||
	    !zend_finite(v) || v < range->min || v > range->max) {
		php_error_docref(NULL, E_WARNING, "%s must be %s", ZSTR_VAL(entry->name),
		                 is_max_hold ? "0 (no cap) or a positive number of seconds"
		                             : "a number of seconds from 0.1 to 86400");
		return FAILURE;
	}
	if (is_max_hold) {
		DLOCK_G(max_hold) = v;
	} else {
		DLOCK_G(lease) = v;
	}
	return SUCCESS;
}

/* dlock.session_timeout: an int in the range of the option of the same name */
static ZEND_INI_MH(OnUpdateDlockSessionTimeout)
{
	const dlock_option *range = dlock_option_get(DLOCK_OPT_SESSION_TIMEOUT);
#if PHP_VERSION_ID >= 80200
	zend_long v = zend_ini_parse_quantity_warn(new_value, entry->name);
#else
	zend_long v = ZEND_ATOL(ZSTR_VAL(new_value)); /* 8.1: no quantity parser */
#endif

	if (v < range->min || v > range->max) {
		php_error_docref(NULL, E_WARNING, "dlock.session_timeout must be between %.0f and %.0f ms",
		                 range->min, range->max);
		return FAILURE;
	}
	DLOCK_G(session_timeout) = v;
	return SUCCESS;
}

static ZEND_INI_MH(OnUpdateDlockSeconds)
{
	const char *end = NULL;
	double v = zend_strtod(ZSTR_VAL(new_value), &end);
	bool is_max_wait = mh_arg1 != NULL;

	/* the whole value must be a decimal number ("abc", "0x1", "1s" and
	 * "nan" are refused, not read as 0 or 1, which would silently change
	 * the cap); max_wait is exactly -1 or at least 0 */
	while (end && (*end == ' ' || *end == '\t')) {
		end++;
	}
	if (ZSTR_LEN(new_value) == 0 || !end || *end != '\0' || end == ZSTR_VAL(new_value) ||
	    !zend_finite(v) || (is_max_wait ? v < 0 && v != -1 : v <= 0) ||
	    v > DLOCK_CONNECT_TIMEOUT_MAX * 24) {
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

/* dlock.idle_close: 0 (never) or seconds, up to a day */
static ZEND_INI_MH(OnUpdateDlockIdleClose)
{
	const char *end = NULL;
	double v = zend_strtod(ZSTR_VAL(new_value), &end);

	while (end && (*end == ' ' || *end == '\t')) {
		end++;
	}
	if (ZSTR_LEN(new_value) == 0 || !end || *end != '\0' || end == ZSTR_VAL(new_value) ||
	    !zend_finite(v) || v < 0 || v > 86400) {
		php_error_docref(NULL, E_WARNING,
		                 "dlock.idle_close must be 0 (never) or a number of seconds up to 86400");
		return FAILURE;
	}
	DLOCK_G(idle_close) = v;
	return SUCCESS;
}

/* dlock.slow_wait_ms (mh_arg1 NULL) and dlock.slow_hold_ms (non-NULL): 0
 * (off) or a whole number of milliseconds up to a day */
static ZEND_INI_MH(OnUpdateDlockSlow)
{
	char *end = NULL;
	zend_long v = ZEND_STRTOL(ZSTR_VAL(new_value), &end, 10);

	while (end && (*end == ' ' || *end == '\t')) {
		end++;
	}
	if (ZSTR_LEN(new_value) == 0 || !end || *end != '\0' || end == ZSTR_VAL(new_value) || v < 0 ||
	    v > 86400000) {
		php_error_docref(NULL, E_WARNING,
		                 "%s must be 0 (off) or a whole number of milliseconds up to 86400000",
		                 ZSTR_VAL(entry->name));
		return FAILURE;
	}
	if (mh_arg1) {
		dlock_stats_slow_hold(v);
	} else {
		dlock_stats_slow_wait(v);
	}
	return SUCCESS;
}

/* phpinfo()'s view of dlock.dsn: the password masked (ini_get() still
 * returns the value as set). */
static PHP_INI_DISP(php_dlock_dsn_displayer)
{
	zend_string *v = type == PHP_INI_DISPLAY_ORIG && ini_entry->modified ? ini_entry->orig_value
	                                                                     : ini_entry->value;
	char *shown;

	if (!v || !ZSTR_LEN(v)) {
		PUTS(sapi_module.phpinfo_as_text ? "no value" : "<i>no value</i>");
		return;
	}
	shown = emalloc(ZSTR_LEN(v) + 4);
	dlock_dsn_mask(ZSTR_VAL(v), ZSTR_LEN(v), shown);
	if (sapi_module.phpinfo_as_text) {
		PHPWRITE(shown, strlen(shown));
	} else {
		php_html_puts(shown, strlen(shown));
	}
	efree(shown);
}

PHP_INI_BEGIN()
STD_PHP_INI_ENTRY("dlock.hosts", "127.0.0.1:2181", PHP_INI_ALL, OnUpdateDlockHosts, hosts,
                  zend_dlock_globals, dlock_globals)
STD_PHP_INI_ENTRY_EX("dlock.dsn", "", PHP_INI_ALL, OnUpdateDlockDsn, dsn, zend_dlock_globals,
                     dlock_globals, php_dlock_dsn_displayer)
PHP_INI_ENTRY("dlock.lease", "30", PHP_INI_ALL, OnUpdateDlockLease)
PHP_INI_ENTRY1("dlock.max_hold", "0", PHP_INI_ALL, OnUpdateDlockLease, (void *)1)
PHP_INI_ENTRY("dlock.session_timeout", "10000", PHP_INI_ALL, OnUpdateDlockSessionTimeout)
PHP_INI_ENTRY("dlock.connect_timeout", "5", PHP_INI_ALL, OnUpdateDlockSeconds)
PHP_INI_ENTRY1("dlock.max_wait", "-1", PHP_INI_ALL, OnUpdateDlockSeconds, (void *)1)
STD_PHP_INI_BOOLEAN("dlock.async_release", "1", PHP_INI_ALL, OnUpdateBool, async_release,
                    zend_dlock_globals, dlock_globals)
STD_PHP_INI_BOOLEAN("dlock.persistent", "1", PHP_INI_ALL, OnUpdateBool, persistent,
                    zend_dlock_globals, dlock_globals)
PHP_INI_ENTRY("dlock.idle_close", "0", PHP_INI_ALL, OnUpdateDlockIdleClose)
STD_PHP_INI_ENTRY("dlock.log_file", "", PHP_INI_SYSTEM, OnUpdateString, log_file,
                  zend_dlock_globals, dlock_globals)
PHP_INI_ENTRY("dlock.slow_wait_ms", "0", PHP_INI_ALL, OnUpdateDlockSlow)
PHP_INI_ENTRY1("dlock.slow_hold_ms", "0", PHP_INI_ALL, OnUpdateDlockSlow, (void *)1)
PHP_INI_END()

/* ---- module lifecycle --------------------------------------------------- */

static PHP_GINIT_FUNCTION(dlock)
{
#if defined(COMPILE_DL_DLOCK) && defined(ZTS)
	ZEND_TSRMLS_CACHE_UPDATE();
#endif
	memset(dlock_globals, 0, sizeof(*dlock_globals));
}

/* Shows the DSN parser's warning (TLS without verification, once per
 * process and backend) to the user. */
static void php_dlock_dsn_warn(const char *msg)
{
	php_error_docref(NULL, E_WARNING, "%s", msg);
}

static PHP_MINIT_FUNCTION(dlock)
{
	dlock_err err;

	REGISTER_INI_ENTRIES();
	if (dlock_backends_log_configure(DLOCK_G(log_file), &err) != DLOCK_OK) {
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
	php_dlock_revocation_minit();
	php_dlock_metrics_init();
	/* after the INI entries: a dlock.dsn read at startup does not warn */
	dlock_dsn_set_warn(php_dlock_dsn_warn);
	return SUCCESS;
}

static PHP_MSHUTDOWN_FUNCTION(dlock)
{
	php_dlock_revocation_mshutdown();
	dlock_idle_stop();          /* no close behind the final shutdown's back */
	dlock_backends_shutdown(1); /* ends this process's sessions, connections and threads */
	dlock_backends_log_configure(NULL, NULL);
	dlock_dsn_set_warn(NULL);
	php_dlock_metrics_shutdown();
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
	php_dlock_revocation_rinit();
	dlock_idle_request_begin(); /* waits for an idle close under way */
	return SUCCESS;
}

/* Releases every lock the request still holds, however it ended. */
static PHP_RSHUTDOWN_FUNCTION(dlock)
{
	zval *zv;

	ZEND_HASH_FOREACH_VAL(&DLOCK_G(held), zv)
	{
		php_dlock_obj *o = Z_PTR_P(zv);

		dlock_handle_release_all(o->lock, 1, NULL); /* waited for: free once the request is over */
	}
	ZEND_HASH_FOREACH_END();
	zend_hash_destroy(&DLOCK_G(held));
	zend_hash_init(&DLOCK_G(held), 8, NULL, NULL, 0); /* objects freed later still look */
	if (!DLOCK_G(persistent)) {
		dlock_backends_shutdown(0); /* each request opens its own sessions */
	} else {
		dlock_backends_request_end(); /* helpers only this request's holds needed */
	}
	DLOCK_G(idle_ms) = DLOCK_G(persistent) ? (int64_t)(DLOCK_G(idle_close) * 1000) : 0;
	return SUCCESS;
}

/* After the request's objects are freed (lock objects live until the
 * executor shuts down, after RSHUTDOWN): from here the process holds no lock
 * and no waiter, so dlock.idle_close may count. */
static ZEND_MODULE_POST_ZEND_DEACTIVATE_D(dlock)
{
	dlock_idle_request_end(DLOCK_G(idle_ms));
	return SUCCESS;
}

static PHP_MINFO_FUNCTION(dlock)
{
	char names[128] = "", row[128], count[16];
	size_t i, off = 0;

	for (i = 0; i < DLOCK_BACKENDS; i++) {
		if (dlock_backend_table[i]) {
			off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", off ? ", " : "",
			                        dlock_backend_names[i].scheme);
		}
	}
	php_info_print_table_start();
	php_info_print_table_header(2, "dlock support", "enabled");
	php_info_print_table_row(2, "Extension version", PHP_DLOCK_VERSION);
	php_info_print_table_row(2, "Backends", names);
	php_info_print_table_row(2, "Lock kinds", "mutex, read-write, semaphore, multi-lock");
	php_info_print_table_row(2, "TLS in this build", dlock_dsn_tls_support());
	for (i = 0; i < DLOCK_BACKENDS; i++) {
		const dlock_backend_ops *b = dlock_backend_table[i];

		if (!b) {
			continue;
		}
		snprintf(row, sizeof(row), "%s client library", dlock_backend_names[i].display);
		php_info_print_table_row(2, row, b->library());
		snprintf(row, sizeof(row), "%s connections open in this process",
		         dlock_backend_names[i].display);
		snprintf(count, sizeof(count), "%u", b->connections());
		php_info_print_table_row(2, row, count);
	}
	snprintf(count, sizeof(count), "%llu", (unsigned long long)dlock_idle_closes());
	php_info_print_table_row(2, "Idle closes in this process (dlock.idle_close)", count);
	php_info_print_table_end();
	php_dlock_metrics_info();
	DISPLAY_INI_ENTRIES();
}

zend_module_entry dlock_module_entry = {STANDARD_MODULE_HEADER,
                                        "dlock",
                                        ext_functions,
                                        PHP_MINIT(dlock),
                                        PHP_MSHUTDOWN(dlock),
                                        PHP_RINIT(dlock),
                                        PHP_RSHUTDOWN(dlock),
                                        PHP_MINFO(dlock),
                                        PHP_DLOCK_VERSION,
                                        PHP_MODULE_GLOBALS(dlock),
                                        PHP_GINIT(dlock),
                                        NULL,
                                        ZEND_MODULE_POST_ZEND_DEACTIVATE_N(dlock),
                                        STANDARD_MODULE_PROPERTIES_EX};

#ifdef COMPILE_DL_DLOCK
#ifdef ZTS
ZEND_TSRMLS_CACHE_DEFINE()
#endif
ZEND_GET_MODULE(dlock)
#endif
