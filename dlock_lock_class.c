/* dlock_lock_class.c: the single-lock classes: DistributedLock (a mutex, or
 * one part of a read-write lock) and DistributedSemaphore (same object layout
 * and methods). DistributedReadWriteLock is in dlock_rw_class.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <unistd.h>

#include "php.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"

#include "php_dlock.h"
#include "php_dlock_int.h"

static zend_object_handlers dlock_lock_handlers;

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

	if (o->lock) {
		php_dlock_held_remove(o);
		if (dlock_handle_holds(o->lock) > 0) {
			/* dropped while held (unset, a dead frame, the global symbol table
			 * destroyed before request shutdown, a collected cycle): released
			 * as at request end, waiting for the delete, so the lock is free
			 * for others once the object is gone */
			dlock_handle_release_all(o->lock, 1, NULL);
		}
		dlock_handle_free(o->lock);
		o->lock = NULL;
	}
	zval_ptr_dtor(&o->listener);
	ZVAL_UNDEF(&o->listener);
	php_dlock_settings_dtor(&o->set);
	zend_object_std_dtor(obj);
}

/* The cycle collector sees the revocation listener (a closure that captures
 * the lock is a cycle). */
static HashTable *php_dlock_get_gc(zend_object *obj, zval **table, int *n)
{
	php_dlock_obj *o = php_dlock_from_obj(obj);

	*table = Z_ISUNDEF(o->listener) ? NULL : &o->listener;
	*n = Z_ISUNDEF(o->listener) ? 0 : 1;
	return zend_std_get_properties(obj);
}

static const char *php_dlock_kind_name(dlock_kind kind)
{
	switch (kind) {
	case DLOCK_KIND_READ:
		return "read";
	case DLOCK_KIND_WRITE:
		return "write";
	case DLOCK_KIND_SEMAPHORE:
		return "semaphore";
	default:
		return "mutex";
	}
}

/* var_dump(): what an operator needs; never the credentials. */
static HashTable *php_dlock_debug_info(zend_object *obj, int *is_temp)
{
	php_dlock_obj *o = php_dlock_from_obj(obj);
	HashTable *ht = zend_new_array(6);
	char where[300];
	zval zv;

	*is_temp = 1;
	if (!o->lock) {
		return ht;
	}
	ZVAL_STRING(&zv, dlock_handle_path(o->lock));
	zend_hash_str_update(ht, "path", sizeof("path") - 1, &zv);
	ZVAL_STRING(&zv, php_dlock_kind_name(dlock_handle_kind(o->lock)));
	zend_hash_str_update(ht, "kind", sizeof("kind") - 1, &zv);
	php_dlock_where(o, where, sizeof(where));
	ZVAL_STRING(&zv, where);
	zend_hash_str_update(ht, "server", sizeof("server") - 1, &zv);
	ZVAL_BOOL(&zv, dlock_handle_held(o->lock));
	zend_hash_str_update(ht, "acquired", sizeof("acquired") - 1, &zv);
	ZVAL_LONG(&zv, (zend_long)dlock_handle_holds(o->lock));
	zend_hash_str_update(ht, "holds", sizeof("holds") - 1, &zv);
	ZVAL_BOOL(&zv, o->set.target.auth != NULL || o->set.target.password != NULL);
	zend_hash_str_update(ht, "auth", sizeof("auth") - 1, &zv);
	return ht;
}

static php_dlock_obj *php_dlock_this(zval *zv)
{
	php_dlock_obj *o = Z_DLOCK_P(zv);

	if (!o->lock) {
		zend_throw_error(NULL, "%s object is not initialized", ZSTR_VAL(Z_OBJCE_P(zv)->name));
		return NULL;
	}
	return o;
}

/* Gives o a core lock of `kind` on `path` with settings parsed from opts. */
bool php_dlock_init(php_dlock_obj *o, dlock_kind kind, zend_long max_leases, zend_string *path,
                    HashTable *opts, uint32_t opts_arg)
{
	dlock_err err;
	int rc;

	php_dlock_settings_init(&o->set);
	if (opts && !php_dlock_settings_parse(&o->set, opts, opts_arg)) {
		return false;
	}
	rc = dlock_handle_new(&o->set.target, kind, (int)max_leases, ZSTR_VAL(path), ZSTR_LEN(path),
	                      &o->lock, &err);
	if (rc == DLOCK_EINVAL) {
		/* the name, or an option the backend refuses for this kind */
		zend_argument_value_error(strncmp(err.msg, "option ", 7) == 0 ? opts_arg : 1, "%s",
		                          err.msg);
		return false;
	}
	if (rc != DLOCK_OK) {
		php_dlock_throw(rc, &err, NULL);
		return false;
	}
	dlock_handle_set_reentrant(o->lock, o->set.reentrant);
	if (o->set.revocable && (rc = dlock_handle_set_revocable(o->lock, &err)) != DLOCK_OK) {
		php_dlock_throw(rc, &err, ZSTR_VAL(path));
		return false;
	}
	return true;
}

void php_dlock_where(const php_dlock_obj *o, char *buf, size_t size)
{
	dlock_target_where(&o->set.target, buf, size);
}

/* ---- acquire and release, shared with the multi-lock ------------------- */

bool php_dlock_timeout_arg(double t, bool is_null, uint32_t arg_num, double *out)
{
	if (is_null) {
		*out = -1;
		return true;
	}
	if (!zend_finite(t)) {
		zend_argument_value_error(arg_num, "must be a finite number of seconds or null");
		return false;
	}
	if (t < 0 || t > DLOCK_TIMEOUT_MAX) {
		zend_argument_value_error(arg_num, "must be between 0 and %.0f seconds, or null",
		                          DLOCK_TIMEOUT_MAX);
		return false;
	}
	*out = t;
	return true;
}

/* The default node data, "hostname:pid": computed once per process (again
 * after a fork), not on every acquire. */
static const char *php_dlock_default_data(size_t *len)
{
	pid_t pid = getpid();

	if (DLOCK_G(default_data_pid) != pid) {
		char host[256] = "";

		gethostname(host, sizeof(host) - 1);
		snprintf(DLOCK_G(default_data), sizeof(DLOCK_G(default_data)), "%s:%ld", host, (long)pid);
		DLOCK_G(default_data_pid) = pid;
	}
	*len = strlen(DLOCK_G(default_data));
	return DLOCK_G(default_data);
}

void php_dlock_obj_acquire(php_dlock_obj *o, double timeout, const php_dlock_cap *cap,
                           zval *return_value)
{
	php_dlock_cap own;
	dlock_acquire_req opts;
	const char *path = dlock_handle_path(o->lock);
	dlock_err err;
	int rc;

	/* the acquire policy (re-entry, upgrade, downgrade, self-wait) is the
	 * core's: dlock_handle_acquire */
	opts.grant_from = NULL;
	opts.no_self_wait = timeout < 0;
	if (timeout < 0) {
		if (!cap) {
			php_dlock_cap_start(&own);
			cap = &own;
		}
		opts.timeout_ms = cap->until < 0 ? -1 : MAX(cap->until - dlock_now_ms(), 0);
	} else {
		opts.timeout_ms = (int64_t)ceil(timeout * 1000.0);
	}
	if (o->set.data) {
		opts.data = ZSTR_VAL(o->set.data);
		opts.data_len = ZSTR_LEN(o->set.data);
	} else {
		opts.data = php_dlock_default_data(&opts.data_len);
	}
	opts.intr = &php_dlock_intr;
	rc = dlock_handle_acquire(o->lock, &opts, &err);
	if (rc == DLOCK_OK) {
		php_dlock_held_add(o);
	} else if (dlock_handle_holds(o->lock) == 0) {
		php_dlock_held_remove(o); /* a nested acquire found the hold lost */
	}
	php_dlock_after_wait();
	if (rc == DLOCK_OK) {
		RETURN_TRUE;
	}
	if (EG(exception)) {
		RETURN_THROWS(); /* a signal handler threw while we waited */
	}
	if (rc == DLOCK_ETIMEDOUT && timeout < 0 && cap->total_ms >= 0) {
		php_dlock_throw_ex(dlock_ce_exception,
		                   "%s: not acquired within %.3f s, the wall-clock cap of acquire() "
		                   "without a timeout (dlock.max_wait, or max_execution_time when "
		                   "dlock.max_wait is -1)",
		                   cap->what ? cap->what : path, (double)cap->total_ms / 1000.0);
		RETURN_THROWS();
	}
	if (rc == DLOCK_ETIMEDOUT || rc == DLOCK_EINTR) {
		RETURN_FALSE; /* EINTR without exception: an execution timeout the VM raises next */
	}
	php_dlock_throw(rc, &err, path);
	RETURN_THROWS();
}

void php_dlock_obj_release(php_dlock_obj *o)
{
	dlock_err err;
	int rc = dlock_handle_release(o->lock, !DLOCK_G(async_release), &err);

	if (dlock_handle_holds(o->lock) == 0) {
		php_dlock_held_remove(o);
	}
	if (rc != DLOCK_OK) {
		php_dlock_throw(rc, &err, NULL);
	}
}

void php_dlock_obj_release_quiet(php_dlock_obj *o)
{
	dlock_handle_release(o->lock, !DLOCK_G(async_release), NULL);
	if (dlock_handle_holds(o->lock) == 0) {
		php_dlock_held_remove(o);
	}
}

/* ---- DistributedLock (and the DistributedSemaphore aliases) -------------- */

PHP_METHOD(DistributedLock, __construct)
{
	php_dlock_obj *o = Z_DLOCK_P(ZEND_THIS);
	zend_string *path;
	HashTable *opts = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (o->lock) {
		zend_throw_error(NULL, "DistributedLock object is already initialized");
		RETURN_THROWS();
	}
	if (!php_dlock_init(o, DLOCK_KIND_MUTEX, 1, path, opts, 2)) {
		RETURN_THROWS();
	}
}

PHP_METHOD(DistributedLock, acquire)
{
	php_dlock_obj *o;
	double timeout = 0, t;
	bool timeout_null = true;

	ZEND_PARSE_PARAMETERS_START(0, 1)
	Z_PARAM_OPTIONAL
	Z_PARAM_DOUBLE_OR_NULL(timeout, timeout_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(o = php_dlock_this(ZEND_THIS)) || !php_dlock_timeout_arg(timeout, timeout_null, 1, &t)) {
		RETURN_THROWS();
	}
	php_dlock_obj_acquire(o, t, NULL, return_value);
}

PHP_METHOD(DistributedLock, tryAcquire)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_dlock_obj_acquire(o, 0, NULL, return_value);
}

PHP_METHOD(DistributedLock, release)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_dlock_obj_release(o);
}

PHP_METHOD(DistributedLock, isAcquired)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_BOOL(dlock_handle_held(o->lock));
}

PHP_METHOD(DistributedLock, checkHeld)
{
	php_dlock_obj *o;
	dlock_err err;
	int rc;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	rc = dlock_handle_verify(o->lock, &err);
	if (rc == DLOCK_ECONNLOSS) {
		rc = DLOCK_ELOST; /* "not certainly held" is what callers must act on */
	}
	if (rc != DLOCK_OK) {
		php_dlock_throw(rc, &err, NULL);
		RETURN_THROWS();
	}
}

PHP_METHOD(DistributedLock, getFencingToken)
{
	php_dlock_obj *o;
	dlock_err err;
	int64_t token;
	int rc;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	/* a backend that gives tokens on demand proves the hold with the fetch
	 * itself (SQL: the token statement runs in the holding session), so the
	 * first call of a hold does not ask twice */
	if (dlock_handle_holds(o->lock) > 0 && dlock_handle_token(o->lock) == 0) {
		if ((rc = dlock_handle_fencing_token(o->lock, &token, &err)) != DLOCK_OK) {
			php_dlock_throw(rc, &err, dlock_handle_path(o->lock));
			RETURN_THROWS();
		}
		if (token != 0) {
			RETURN_LONG((zend_long)token);
		}
	}
	if (!dlock_handle_held(o->lock)) {
		dlock_err_set(&err, DLOCK_ENOTHELD, 0, "lock %s is not held: no fencing token",
		              dlock_handle_path(o->lock));
		php_dlock_throw(DLOCK_ENOTHELD, &err, NULL);
		RETURN_THROWS();
	}
	if ((rc = dlock_handle_fencing_token(o->lock, &token, &err)) != DLOCK_OK) {
		php_dlock_throw(rc, &err, dlock_handle_path(o->lock));
		RETURN_THROWS();
	}
	RETURN_LONG((zend_long)token);
}

PHP_METHOD(DistributedLock, getPath)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_STRING(dlock_handle_path(o->lock));
}

PHP_METHOD(DistributedLock, synchronized)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	php_dlock_obj *o;
	double timeout = 0, t;
	bool timeout_null = true;
	zval acquired;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_FUNC(fci, fcc)
	Z_PARAM_OPTIONAL
	Z_PARAM_DOUBLE_OR_NULL(timeout, timeout_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(o = php_dlock_this(ZEND_THIS)) || !php_dlock_timeout_arg(timeout, timeout_null, 2, &t)) {
		RETURN_THROWS();
	}
	php_dlock_obj_acquire(o, t, NULL, &acquired);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (Z_TYPE(acquired) != IS_TRUE) {
		php_dlock_throw_ex(dlock_ce_exception, "%s: not acquired within %.3f s",
		                   dlock_handle_path(o->lock), t);
		RETURN_THROWS();
	}
	fci.retval = return_value;
	zend_call_function(&fci, &fcc);
	if (EG(exception)) {
		/* the callback's exception wins; a failing release must not mask it */
		php_dlock_obj_release_quiet(o);
		return;
	}
	php_dlock_obj_release(o);
}

/* Lists a queue for participants(); options as for the lock. */
void php_dlock_participants(dlock_kind kind, zend_long max_leases, zend_string *path,
                            HashTable *opts, uint32_t opts_arg, zval *return_value)
{
	php_dlock_settings set;
	dlock_participant *list = NULL;
	size_t n = 0, i;
	dlock_err err;
	int rc;

	php_dlock_settings_init(&set);
	if (opts && !php_dlock_settings_parse(&set, opts, opts_arg)) {
		php_dlock_settings_dtor(&set);
		RETURN_THROWS();
	}
	rc = dlock_backend_participants(&set.target, kind, (int)max_leases, ZSTR_VAL(path),
	                                ZSTR_LEN(path), &php_dlock_intr, &list, &n, &err);
	php_dlock_settings_dtor(&set);
	php_dlock_after_wait();
	if (rc == DLOCK_EINVAL) {
		zend_argument_value_error(1, "%s", err.msg);
		RETURN_THROWS();
	}
	if (rc != DLOCK_OK) {
		if (!EG(exception)) {
			php_dlock_throw(rc, &err, ZSTR_VAL(path));
		}
		RETURN_THROWS();
	}
	array_init_size(return_value, (uint32_t)n);
	for (i = 0; i < n; i++) {
		zval entry;

		array_init_size(&entry, 7);
		add_assoc_string(&entry, "node", list[i].name);
		add_assoc_stringl(&entry, "data", list[i].data, list[i].data_len);
		add_assoc_long(&entry, "token", (zend_long)list[i].token);
		add_assoc_bool(&entry, "holder", list[i].holder);
		if (list[i].session) {
			add_assoc_string(&entry, "session", list[i].session);
		} else {
			add_assoc_null(&entry, "session");
		}
		if (list[i].since > 0) { /* entered the queue, Unix time (server clock) */
			add_assoc_double(&entry, "since", (double)list[i].since / 1000.0);
		} else {
			add_assoc_null(&entry, "since");
		}
		if (kind == DLOCK_KIND_READ) {
			add_assoc_string(&entry, "type", list[i].writer ? "write" : "read");
		}
		add_next_index_zval(return_value, &entry);
	}
	dlock_participants_free(list, n);
}

PHP_METHOD(DistributedLock, participants)
{
	zend_string *path;
	HashTable *opts = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	php_dlock_participants(DLOCK_KIND_MUTEX, 1, path, opts, 2, return_value);
}

/* ---- DistributedSemaphore ----------------------------------------------- */

static bool php_dlock_leases_arg(zend_long max_leases)
{
	if (max_leases < 1 || max_leases > INT32_MAX) {
		zend_argument_value_error(2, "must be between 1 and %d", INT32_MAX);
		return false;
	}
	return true;
}

PHP_METHOD(DistributedSemaphore, __construct)
{
	php_dlock_obj *o = Z_DLOCK_P(ZEND_THIS);
	zend_string *path;
	zend_long max_leases;
	HashTable *opts = NULL;

	ZEND_PARSE_PARAMETERS_START(2, 3)
	Z_PARAM_STR(path)
	Z_PARAM_LONG(max_leases)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (o->lock) {
		zend_throw_error(NULL, "DistributedSemaphore object is already initialized");
		RETURN_THROWS();
	}
	if (!php_dlock_leases_arg(max_leases) ||
	    !php_dlock_init(o, DLOCK_KIND_SEMAPHORE, max_leases, path, opts, 3)) {
		RETURN_THROWS();
	}
}

PHP_METHOD(DistributedSemaphore, getMaxLeases)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_LONG(dlock_handle_max_leases(o->lock));
}

PHP_METHOD(DistributedSemaphore, participants)
{
	zend_string *path;
	zend_long max_leases;
	HashTable *opts = NULL;

	ZEND_PARSE_PARAMETERS_START(2, 3)
	Z_PARAM_STR(path)
	Z_PARAM_LONG(max_leases)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (!php_dlock_leases_arg(max_leases)) {
		RETURN_THROWS();
	}
	php_dlock_participants(DLOCK_KIND_SEMAPHORE, max_leases, path, opts, 3, return_value);
}

void php_dlock_lock_classes_init(void)
{
	dlock_ce_lock->create_object = php_dlock_create;
	dlock_ce_semaphore->create_object = php_dlock_create;
	memcpy(&dlock_lock_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	dlock_lock_handlers.offset = offsetof(php_dlock_obj, std);
	dlock_lock_handlers.free_obj = php_dlock_free;
	dlock_lock_handlers.clone_obj = NULL;
	dlock_lock_handlers.get_debug_info = php_dlock_debug_info;
	dlock_lock_handlers.get_gc = php_dlock_get_gc;
}
