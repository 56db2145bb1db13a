/* dlock_multi_class.c: DistributedMultiLock: several locks taken all or none,
 * always in one canonical order (path, server, kind), so two multi-locks over
 * overlapping sets cannot deadlock each other. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_smart_str.h"

#include "php_dlock.h"
#include "php_dlock_int.h"

static zend_object_handlers dlock_multi_handlers;

static zend_object *php_dlock_multi_create(zend_class_entry *ce)
{
	php_dlock_multi_obj *o = zend_object_alloc(sizeof(php_dlock_multi_obj), ce);

	zend_object_std_init(&o->std, ce);
	object_properties_init(&o->std, ce);
	o->std.handlers = &dlock_multi_handlers;
	return &o->std;
}

static void php_dlock_multi_free(zend_object *obj)
{
	php_dlock_multi_obj *o = php_dlock_multi_from_obj(obj);
	uint32_t i;

	for (i = 0; i < o->count; i++) {
		OBJ_RELEASE(o->locks[i]);
	}
	if (o->locks) {
		efree(o->locks);
	}
	zend_object_std_dtor(obj);
}

static HashTable *php_dlock_multi_get_gc(zend_object *obj, zval **table, int *n)
{
	php_dlock_multi_obj *o = php_dlock_multi_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	uint32_t i;

	for (i = 0; i < o->count; i++) {
		zend_get_gc_buffer_add_obj(buf, o->locks[i]);
	}
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

static php_dlock_obj *php_dlock_multi_at(php_dlock_multi_obj *o, uint32_t i)
{
	return php_dlock_from_obj(o->locks[i]);
}

/* Orders two locks' identities: the name (on ZooKeeper with its chroot),
 * then the lock space (backend, server with its loopback spellings as one,
 * database; never credentials). The name comes first so that two processes
 * spelling one server differently (127.0.0.1 and localhost, two SQL users,
 * or two chroots over one znode) still take common names in one order. */
static int php_dlock_multi_id_cmp(const php_dlock_obj *x, const php_dlock_obj *y)
{
	char ix[2200], iy[2200];
	const char *nx, *ny;
	int c;

	dlock_target_lock_id(&x->set.target, dlock_handle_path(x->lock), ix, sizeof(ix));
	dlock_target_lock_id(&y->set.target, dlock_handle_path(y->lock), iy, sizeof(iy));
	nx = strchr(ix, '\n');
	ny = strchr(iy, '\n');
	if ((c = strcmp(nx ? nx + 1 : ix, ny ? ny + 1 : iy)) != 0) {
		return c;
	}
	return strcmp(ix, iy);
}

/* Canonical order: identity (above), then kind. */
static int php_dlock_multi_cmp(const void *a, const void *b)
{
	php_dlock_obj *x = php_dlock_from_obj(*(zend_object *const *)a);
	php_dlock_obj *y = php_dlock_from_obj(*(zend_object *const *)b);
	int c = php_dlock_multi_id_cmp(x, y);

	if (!c) {
		c = (int)dlock_handle_kind(x->lock) - (int)dlock_handle_kind(y->lock);
	}
	return c;
}

static php_dlock_multi_obj *php_dlock_multi_this(zval *zv)
{
	php_dlock_multi_obj *o = Z_DLOCK_MULTI_P(zv);

	if (!o->count) {
		zend_throw_error(NULL, "DistributedMultiLock object is not initialized");
		return NULL;
	}
	return o;
}

PHP_METHOD(DistributedMultiLock, __construct)
{
	php_dlock_multi_obj *o = Z_DLOCK_MULTI_P(ZEND_THIS);
	HashTable *locks;
	zend_object **list;
	zval *zv;
	uint32_t n = 0, i;

	ZEND_PARSE_PARAMETERS_START(1, 1)
	Z_PARAM_ARRAY_HT(locks)
	ZEND_PARSE_PARAMETERS_END();

	if (o->count) {
		zend_throw_error(NULL, "DistributedMultiLock object is already initialized");
		RETURN_THROWS();
	}
	if (zend_hash_num_elements(locks) == 0) {
		zend_argument_value_error(1, "must not be empty");
		RETURN_THROWS();
	}
	ZEND_HASH_FOREACH_VAL(locks, zv)
	{
		ZVAL_DEREF(zv);
		if (Z_TYPE_P(zv) != IS_OBJECT ||
		    (Z_OBJCE_P(zv) != dlock_ce_lock && Z_OBJCE_P(zv) != dlock_ce_semaphore)) {
			zend_argument_type_error(1,
			                         "must contain only DistributedLock or "
			                         "DistributedSemaphore objects, %s given",
			                         zend_zval_type_name(zv));
			RETURN_THROWS();
		}
		if (!Z_DLOCK_P(zv)->lock) {
			zend_argument_value_error(1, "contains an uninitialized lock object");
			RETURN_THROWS();
		}
	}
	ZEND_HASH_FOREACH_END();

	list = safe_emalloc(zend_hash_num_elements(locks), sizeof(*list), 0);
	ZEND_HASH_FOREACH_VAL(locks, zv)
	{
		ZVAL_DEREF(zv);
		list[n++] = Z_OBJ_P(zv);
	}
	ZEND_HASH_FOREACH_END();
	qsort(list, n, sizeof(*list), php_dlock_multi_cmp);
	for (i = 1; i < n; i++) {
		php_dlock_obj *a = php_dlock_from_obj(list[i - 1]), *b = php_dlock_from_obj(list[i]);

		if (list[i] == list[i - 1]) {
			efree(list);
			zend_argument_value_error(1, "contains the same lock twice");
			RETURN_THROWS();
		}
		if (php_dlock_multi_id_cmp(a, b) == 0) {
			efree(list);
			zend_argument_value_error(1,
			                          "contains two locks on the same path (%s): it would "
			                          "wait for itself",
			                          dlock_handle_path(b->lock));
			RETURN_THROWS();
		}
	}
	for (i = 0; i < n; i++) {
		GC_ADDREF(list[i]);
	}
	o->locks = list;
	o->count = n;
}

/* Releases locks [0, upto) in reverse order; used after a failed acquire.
 * A pending exception is kept and release errors are swallowed; each release
 * waits for its reply unless dlock.async_release. */
static void php_dlock_multi_unwind(php_dlock_multi_obj *o, uint32_t upto)
{
	while (upto-- > 0) {
		php_dlock_obj_release_quiet(php_dlock_multi_at(o, upto));
	}
}

/* The parts' paths, comma-separated, in acquisition order. */
static zend_string *php_dlock_multi_paths(php_dlock_multi_obj *o)
{
	smart_str s = {0};
	uint32_t i;

	for (i = 0; i < o->count; i++) {
		if (i) {
			smart_str_appendc(&s, ',');
		}
		smart_str_appends(&s, dlock_handle_path(php_dlock_multi_at(o, i)->lock));
	}
	return smart_str_extract(&s);
}

/* timeout < 0: none; the wall-clock cap (dlock.max_wait) then bounds the
 * whole multi-lock, not each part. */
static void php_dlock_multi_acquire(php_dlock_multi_obj *o, double timeout, zval *return_value)
{
	int64_t deadline = timeout < 0 ? -1 : dlock_now_ms() + (int64_t)(timeout * 1000.0);
	zend_string *paths = NULL;
	php_dlock_cap cap;
	uint32_t i;

	if (timeout < 0) {
		php_dlock_cap_start(&cap);
		paths = php_dlock_multi_paths(o);
		cap.what = ZSTR_VAL(paths);
	}

	for (i = 0; i < o->count; i++) {
		double left = -1;
		zval rv;

		if (deadline >= 0) {
			int64_t ms = deadline - dlock_now_ms();

			left = ms > 0 ? (double)ms / 1000.0 : 0;
		}
		php_dlock_obj_acquire(php_dlock_multi_at(o, i), left, paths ? &cap : NULL, &rv);
		if (EG(exception) || Z_TYPE(rv) != IS_TRUE) {
			if (paths) {
				zend_string_release(paths);
			}
			php_dlock_multi_unwind(o, i);
			if (EG(exception)) {
				RETURN_THROWS();
			}
			RETURN_FALSE;
		}
	}
	if (paths) {
		zend_string_release(paths);
	}
	/* Every part again: the parts share a session, and one that expired
	 * while a later part waited took the earlier parts with it (the later
	 * part was re-queued on a new session). Never true with a part lost. */
	for (i = 0; i < o->count; i++) {
		php_dlock_obj *part = php_dlock_multi_at(o, i);

		if (!dlock_handle_held(part->lock)) {
			php_dlock_multi_unwind(o, o->count);
			php_dlock_throw_ex(dlock_ce_lost_exception,
			                   "%s: lost while the multi-lock waited for its other parts "
			                   "(its session expired or its lease ran out); nothing is held",
			                   dlock_handle_path(part->lock));
			RETURN_THROWS();
		}
	}
	RETURN_TRUE;
}

PHP_METHOD(DistributedMultiLock, acquire)
{
	php_dlock_multi_obj *o;
	double timeout = 0, t;
	bool timeout_null = true;

	ZEND_PARSE_PARAMETERS_START(0, 1)
	Z_PARAM_OPTIONAL
	Z_PARAM_DOUBLE_OR_NULL(timeout, timeout_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(o = php_dlock_multi_this(ZEND_THIS)) ||
	    !php_dlock_timeout_arg(timeout, timeout_null, 1, &t)) {
		RETURN_THROWS();
	}
	php_dlock_multi_acquire(o, t, return_value);
}

PHP_METHOD(DistributedMultiLock, tryAcquire)
{
	php_dlock_multi_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_dlock_multi_acquire(o, 0, return_value);
}

/* Releases every lock (reverse order), even when one fails; the failures are
 * thrown at the end as one chain, each with the earlier ones as its previous
 * (what zend_exception_save()/restore() did; PHP 8.6 removed them). */
static void php_dlock_multi_release_all(php_dlock_multi_obj *o)
{
	uint32_t i = o->count;
	zend_object *saved = NULL, *ex;

	while (i-- > 0) {
		php_dlock_obj_release(php_dlock_multi_at(o, i));
		if (EG(exception)) {
			ex = EG(exception);
			GC_ADDREF(ex);
			zend_clear_exception();
			zend_exception_set_previous(ex, saved); /* takes saved's reference */
			saved = ex;
		}
	}
	if (saved) {
		zend_throw_exception_internal(saved);
	}
}

PHP_METHOD(DistributedMultiLock, release)
{
	php_dlock_multi_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	php_dlock_multi_release_all(o);
}

PHP_METHOD(DistributedMultiLock, isAcquired)
{
	php_dlock_multi_obj *o;
	uint32_t i;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	for (i = 0; i < o->count; i++) {
		if (!dlock_handle_held(php_dlock_multi_at(o, i)->lock)) {
			RETURN_FALSE;
		}
	}
	RETURN_TRUE;
}

PHP_METHOD(DistributedMultiLock, checkHeld)
{
	php_dlock_multi_obj *o;
	uint32_t i;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	for (i = 0; i < o->count; i++) {
		dlock_err err;
		int rc = dlock_handle_verify(php_dlock_multi_at(o, i)->lock, &err);

		if (rc != DLOCK_OK) {
			php_dlock_throw(rc == DLOCK_ECONNLOSS ? DLOCK_ELOST : rc, &err, NULL);
			RETURN_THROWS();
		}
	}
}

PHP_METHOD(DistributedMultiLock, getFencingToken)
{
	php_dlock_multi_obj *o;
	int64_t max = 0, token;
	dlock_err err;
	int rc;
	uint32_t i;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	for (i = 0; i < o->count; i++) {
		dlock_handle *l = php_dlock_multi_at(o, i)->lock;

		if (!dlock_handle_held(l)) {
			php_dlock_throw_ex(dlock_ce_exception,
			                   "lock %s is not held: the multi-lock has no fencing token",
			                   dlock_handle_path(l));
			RETURN_THROWS();
		}
		if ((rc = dlock_handle_fencing_token(l, &token, &err)) != DLOCK_OK) {
			php_dlock_throw(rc, &err, dlock_handle_path(l));
			RETURN_THROWS();
		}
		if (token > max) {
			max = token;
		}
	}
	RETURN_LONG((zend_long)max);
}

PHP_METHOD(DistributedMultiLock, getPath)
{
	php_dlock_multi_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_STR(php_dlock_multi_paths(o));
}

PHP_METHOD(DistributedMultiLock, getLocks)
{
	php_dlock_multi_obj *o;
	uint32_t i;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_multi_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	array_init_size(return_value, o->count);
	for (i = 0; i < o->count; i++) {
		zval zv;

		ZVAL_OBJ_COPY(&zv, o->locks[i]);
		add_next_index_zval(return_value, &zv);
	}
}

PHP_METHOD(DistributedMultiLock, synchronized)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	php_dlock_multi_obj *o;
	double timeout = 0, t;
	bool timeout_null = true;
	zval acquired;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_FUNC(fci, fcc)
	Z_PARAM_OPTIONAL
	Z_PARAM_DOUBLE_OR_NULL(timeout, timeout_null)
	ZEND_PARSE_PARAMETERS_END();

	if (!(o = php_dlock_multi_this(ZEND_THIS)) ||
	    !php_dlock_timeout_arg(timeout, timeout_null, 2, &t)) {
		RETURN_THROWS();
	}
	php_dlock_multi_acquire(o, t, &acquired);
	if (EG(exception)) {
		RETURN_THROWS();
	}
	if (Z_TYPE(acquired) != IS_TRUE) {
		zend_string *paths = php_dlock_multi_paths(o);

		php_dlock_throw_ex(dlock_ce_exception, "%s: not all acquired within %.3f s",
		                   ZSTR_VAL(paths), t);
		zend_string_release(paths);
		RETURN_THROWS();
	}
	fci.retval = return_value;
	zend_call_function(&fci, &fcc);
	if (EG(exception)) {
		php_dlock_multi_unwind(o, o->count); /* the callback's exception wins */
		return;
	}
	php_dlock_multi_release_all(o);
}

void php_dlock_multi_class_init(void)
{
	dlock_ce_multi->create_object = php_dlock_multi_create;
	memcpy(&dlock_multi_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	dlock_multi_handlers.offset = offsetof(php_dlock_multi_obj, std);
	dlock_multi_handlers.free_obj = php_dlock_multi_free;
	dlock_multi_handlers.clone_obj = NULL;
	dlock_multi_handlers.get_gc = php_dlock_multi_get_gc;
}
