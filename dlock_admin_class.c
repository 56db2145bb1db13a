/* dlock_admin_class.c: the operator's static methods of DistributedLock
 * (listLocks(), forceBreak(), waitForChange()), which the dlock command (bin/dlock) is built
 * on. Zend glue only: the work is each backend's, behind the seam
 * (dlock_backend_list_locks, dlock_backend_force_break). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "php_dlock.h"
#include "php_dlock_int.h"

/* Parses opts into set (argument opts_arg) and throws on failure. */
static bool php_dlock_admin_settings(php_dlock_settings *set, HashTable *opts, uint32_t opts_arg)
{
	php_dlock_settings_init(set);
	if (opts && !php_dlock_settings_parse(set, opts, opts_arg)) {
		php_dlock_settings_dtor(set);
		return false;
	}
	return true;
}

/* Throws for a failed admin call on name: a bad name is argument 1's. */
static void php_dlock_admin_throw(int rc, const dlock_err *err, const char *name)
{
	if (rc == DLOCK_EINVAL) {
		zend_argument_value_error(1, "%s", err->msg);
	} else if (!EG(exception)) {
		php_dlock_throw(rc, err, name);
	}
}

PHP_METHOD(DistributedLock, listLocks)
{
	zend_string *prefix;
	HashTable *opts = NULL;
	php_dlock_settings set;
	dlock_lock_entry *list = NULL;
	size_t n = 0, i;
	dlock_err err;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(prefix)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_dlock_admin_settings(&set, opts, 2)) {
		RETURN_THROWS();
	}
	rc = dlock_backend_list_locks(&set.target, ZSTR_VAL(prefix), ZSTR_LEN(prefix), &php_dlock_intr,
	                              &list, &n, &err);
	php_dlock_settings_dtor(&set);
	php_dlock_after_wait();
	if (rc != DLOCK_OK) {
		php_dlock_admin_throw(rc, &err, ZSTR_VAL(prefix));
		RETURN_THROWS();
	}
	array_init_size(return_value, (uint32_t)n);
	for (i = 0; i < n; i++) {
		zval entry;

		array_init_size(&entry, 3);
		add_assoc_string(&entry, "name", list[i].name);
		add_assoc_string(&entry, "kind", list[i].kind);
		add_assoc_long(&entry, "contenders", (zend_long)list[i].contenders);
		add_next_index_zval(return_value, &entry);
	}
	dlock_lock_entries_free(list, n);
}

PHP_METHOD(DistributedLock, forceBreak)
{
	zend_string *path;
	HashTable *opts = NULL;
	php_dlock_settings set;
	dlock_err err;
	int rc, broken = 0;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_dlock_admin_settings(&set, opts, 2)) {
		RETURN_THROWS();
	}
	rc = dlock_backend_force_break(&set.target, ZSTR_VAL(path), ZSTR_LEN(path), &php_dlock_intr,
	                               &broken, &err);
	php_dlock_settings_dtor(&set);
	php_dlock_after_wait();
	if (rc != DLOCK_OK) {
		php_dlock_admin_throw(rc, &err, ZSTR_VAL(path));
		RETURN_THROWS();
	}
	RETURN_LONG(broken);
}

PHP_METHOD(DistributedLock, waitForChange)
{
	zend_string *path;
	double timeout;
	HashTable *opts = NULL;
	php_dlock_settings set;
	dlock_err err;
	int rc, changed = -1;

	ZEND_PARSE_PARAMETERS_START(2, 3)
	Z_PARAM_STR(path)
	Z_PARAM_DOUBLE(timeout)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (!(timeout >= 0 && timeout <= 86400)) {
		zend_argument_value_error(2, "must be between 0 and 86400 seconds");
		RETURN_THROWS();
	}
	if (!php_dlock_admin_settings(&set, opts, 3)) {
		RETURN_THROWS();
	}
	rc = dlock_backend_wait_change(&set.target, ZSTR_VAL(path), ZSTR_LEN(path),
	                               (int64_t)(timeout * 1000.0), &php_dlock_intr, &changed, &err);
	php_dlock_settings_dtor(&set);
	php_dlock_after_wait();
	if (rc != DLOCK_OK) {
		php_dlock_admin_throw(rc, &err, ZSTR_VAL(path));
		RETURN_THROWS();
	}
	if (changed < 0) {
		RETURN_NULL();
	}
	RETURN_BOOL(changed > 0);
}
