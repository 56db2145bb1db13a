/* dlock_rw_class.c: DistributedReadWriteLock, which owns a read and a write
 * part: two DistributedLock objects on one path that know each other (the
 * downgrade and upgrade rules live in the acquire they share). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_dlock.h"
#include "php_dlock_int.h"

static zend_object_handlers dlock_rw_handlers;

static zend_object *php_dlock_rw_create(zend_class_entry *ce)
{
	php_dlock_rw_obj *o = zend_object_alloc(sizeof(php_dlock_rw_obj), ce);

	zend_object_std_init(&o->std, ce);
	object_properties_init(&o->std, ce);
	o->std.handlers = &dlock_rw_handlers;
	return &o->std;
}

static void php_dlock_rw_free(zend_object *obj)
{
	php_dlock_rw_obj *o = php_dlock_rw_from_obj(obj);

	if (o->read) {
		OBJ_RELEASE(o->read);
	}
	if (o->write) {
		OBJ_RELEASE(o->write);
	}
	zend_object_std_dtor(obj);
}

static HashTable *php_dlock_rw_get_gc(zend_object *obj, zval **table, int *n)
{
	php_dlock_rw_obj *o = php_dlock_rw_from_obj(obj);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();

	if (o->read) {
		zend_get_gc_buffer_add_obj(buf, o->read);
	}
	if (o->write) {
		zend_get_gc_buffer_add_obj(buf, o->write);
	}
	zend_get_gc_buffer_use(buf, table, n);
	return NULL;
}

static php_dlock_rw_obj *php_dlock_rw_this(zval *zv)
{
	php_dlock_rw_obj *o = Z_DLOCK_RW_P(zv);

	if (!o->read) {
		zend_throw_error(NULL, "DistributedReadWriteLock object is not initialized");
		return NULL;
	}
	return o;
}

PHP_METHOD(DistributedReadWriteLock, __construct)
{
	php_dlock_rw_obj *o = Z_DLOCK_RW_P(ZEND_THIS);
	zend_string *path;
	HashTable *opts = NULL;
	zval zr, zw;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	if (o->read) {
		zend_throw_error(NULL, "DistributedReadWriteLock object is already initialized");
		RETURN_THROWS();
	}
	object_init_ex(&zr, dlock_ce_lock);
	object_init_ex(&zw, dlock_ce_lock);
	if (!php_dlock_init(Z_DLOCK_P(&zr), DLOCK_KIND_READ, 1, path, opts, 2) ||
	    !php_dlock_init(Z_DLOCK_P(&zw), DLOCK_KIND_WRITE, 1, path, opts, 2)) {
		zval_ptr_dtor(&zr);
		zval_ptr_dtor(&zw);
		RETURN_THROWS();
	}
	dlock_handle_pair(Z_DLOCK_P(&zr)->lock, Z_DLOCK_P(&zw)->lock);
	o->read = Z_OBJ(zr);
	o->write = Z_OBJ(zw);
}

PHP_METHOD(DistributedReadWriteLock, readLock)
{
	php_dlock_rw_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_rw_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(o->read);
}

PHP_METHOD(DistributedReadWriteLock, writeLock)
{
	php_dlock_rw_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_rw_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_OBJ_COPY(o->write);
}

PHP_METHOD(DistributedReadWriteLock, getPath)
{
	php_dlock_rw_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_rw_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_STRING(dlock_handle_path(php_dlock_from_obj(o->read)->lock));
}

PHP_METHOD(DistributedReadWriteLock, participants)
{
	zend_string *path;
	HashTable *opts = NULL;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	php_dlock_participants(DLOCK_KIND_READ, 1, path, opts, 2, return_value);
}

void php_dlock_rw_class_init(void)
{
	dlock_ce_rw->create_object = php_dlock_rw_create;
	memcpy(&dlock_rw_handlers, zend_get_std_object_handlers(), sizeof(zend_object_handlers));
	dlock_rw_handlers.offset = offsetof(php_dlock_rw_obj, std);
	dlock_rw_handlers.free_obj = php_dlock_rw_free;
	dlock_rw_handlers.clone_obj = NULL;
	dlock_rw_handlers.get_gc = php_dlock_rw_get_gc;
}
