/* dlock_revoke_glue.c: revocation in PHP: the methods (onRevocation(),
 * isRevocationRequested(), requestRevocation()) and the delivery of a
 * request to the holder at a safe point of its PHP program.
 *
 * Delivery. A request reaches a hold on a client thread of the core (the
 * ZooKeeper client's completion thread; the Redis watchdog's subscriber),
 * which must never call the Zend API. That thread only raises the hold's
 * revocation cell (core/dlock_revoke.c: atomic stores) and calls the kick
 * installed here, which stores true into the engine's EG(vm_interrupt)
 * through a pointer captured on the main thread (a zend_atomic_bool since
 * PHP 8.2, made to be set from a signal handler or another thread; the same
 * mechanism as pcntl's async signals). At its next safe point (a loop's back
 * edge, a call; or between the 50 ms slices of a dlock wait, which run the
 * interrupt function too) the engine calls zend_interrupt_function, which
 * MINIT chained to php_dlock_interrupt_function (keeping the previous one,
 * e.g. pcntl's, and calling it first). It takes the pending flag and calls,
 * on the main thread, the listener of every lock object of this request
 * whose current hold was revoked, once per hold. The holder decides when to
 * release: nothing here releases. A listener's exception propagates from the
 * safe point as a pcntl handler's does; when the pcntl handler threw at the
 * same safe point, the listeners still run (its exception set aside, then
 * put back as the previous one of a listener's). Fork: a child never receives its
 * parent's revocations (the cell is the parent's: no kick, no take; the
 * pending flag is cleared in the child). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "php.h"
#include "zend_exceptions.h"

#include "php_dlock.h"
#include "php_dlock_int.h"

/* EG(vm_interrupt) of the main thread, captured at MINIT and RINIT. */
#if PHP_VERSION_ID >= 80200
static zend_atomic_bool *php_dlock_vm_flag;
#else
static volatile zend_bool *php_dlock_vm_flag;
#endif

static void (*php_dlock_prev_interrupt)(zend_execute_data *execute_data);

/* The kick: runs on a client thread; one atomic store, nothing else. */
static void php_dlock_kick(void)
{
#if PHP_VERSION_ID >= 80200
	if (php_dlock_vm_flag) {
		zend_atomic_bool_store_ex(php_dlock_vm_flag, true);
	}
#else
	if (php_dlock_vm_flag) {
		*php_dlock_vm_flag = 1;
	}
#endif
}

static void php_dlock_capture_vm_flag(void)
{
	php_dlock_vm_flag = &EG(vm_interrupt);
}

/* Calls the listener of every held lock object whose hold was revoked and
 * not yet told. Objects are collected first (a listener may release, unset
 * or acquire, changing the list) and kept alive while their listener runs. */
static void php_dlock_revocation_dispatch(void)
{
	zend_object **due;
	uint32_t n = 0, i, size = zend_hash_num_elements(&DLOCK_G(held));
	zval *zv;

	if (size == 0) {
		return;
	}
	due = safe_emalloc(size, sizeof(*due), 0);
	ZEND_HASH_FOREACH_VAL(&DLOCK_G(held), zv)
	{
		php_dlock_obj *o = Z_PTR_P(zv);

		if (n < size && o->lock && dlock_handle_revocation_take(o->lock) &&
		    !Z_ISUNDEF(o->listener)) {
			GC_ADDREF(&o->std);
			due[n++] = &o->std;
		}
	}
	ZEND_HASH_FOREACH_END();
	for (i = 0; i < n; i++) {
		php_dlock_obj *o = php_dlock_from_obj(due[i]);
		zval fn, arg, ret;

		if (!EG(exception) && !Z_ISUNDEF(o->listener)) {
			ZVAL_COPY(&fn, &o->listener); /* the listener may replace itself */
			ZVAL_OBJ(&arg, &o->std);
			ZVAL_UNDEF(&ret);
			call_user_function(NULL, NULL, &fn, &ret, 1, &arg);
			zval_ptr_dtor(&ret);
			zval_ptr_dtor(&fn);
		}
		OBJ_RELEASE(due[i]);
	}
	efree(due);
}

/* The engine cleared EG(vm_interrupt) before calling us, so a delivery left
 * for later would wait for some other kick: it happens here, also when the
 * previous handler (pcntl's) threw. That exception is set aside while the
 * listeners run, as the engine does for a destructor that runs during
 * unwinding, and put back; a listener's own exception takes it as its
 * previous one. Not on exit(): nothing more of the program runs. */
static void php_dlock_interrupt_function(zend_execute_data *execute_data)
{
	zend_object *thrown;
	const zend_op *thrown_at;

	if (php_dlock_prev_interrupt) {
		php_dlock_prev_interrupt(execute_data);
	}
	if (EG(exception) && zend_is_unwind_exit(EG(exception))) {
		return;
	}
	if (!dlock_revoke_take_pending()) {
		return;
	}
	thrown = EG(exception);
	thrown_at = EG(opline_before_exception);
	EG(exception) = NULL;
	php_dlock_revocation_dispatch();
	if (thrown) {
		EG(opline_before_exception) = thrown_at;
		if (EG(exception)) {
			zend_exception_set_previous(EG(exception), thrown);
		} else {
			EG(exception) = thrown;
		}
	}
}

void php_dlock_revocation_minit(void)
{
	php_dlock_capture_vm_flag();
	php_dlock_prev_interrupt = zend_interrupt_function;
	zend_interrupt_function = php_dlock_interrupt_function;
	dlock_revoke_set_kick(php_dlock_kick);
}

void php_dlock_revocation_mshutdown(void)
{
	dlock_revoke_set_kick(NULL);
	if (zend_interrupt_function == php_dlock_interrupt_function) {
		zend_interrupt_function = php_dlock_prev_interrupt;
	}
}

void php_dlock_revocation_rinit(void)
{
	php_dlock_capture_vm_flag();
	dlock_revoke_take_pending(); /* a past request's holds are not this one's */
}

/* ---- methods ------------------------------------------------------------ */

static php_dlock_obj *php_dlock_revoke_this(zval *zv)
{
	php_dlock_obj *o = Z_DLOCK_P(zv);

	if (!o->lock) {
		zend_throw_error(NULL, "%s object is not initialized", ZSTR_VAL(Z_OBJCE_P(zv)->name));
		return NULL;
	}
	return o;
}

PHP_METHOD(DistributedLock, onRevocation)
{
	zend_fcall_info fci = empty_fcall_info;
	zend_fcall_info_cache fcc = empty_fcall_info_cache;
	php_dlock_obj *o;
	dlock_err err;
	int rc;

	ZEND_PARSE_PARAMETERS_START(1, 1)
	Z_PARAM_FUNC_OR_NULL(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();

	if (!(o = php_dlock_revoke_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	if ((rc = dlock_handle_set_revocable(o->lock, &err)) != DLOCK_OK) {
		php_dlock_throw(rc, &err, dlock_handle_path(o->lock));
		RETURN_THROWS();
	}
	zval_ptr_dtor(&o->listener);
	ZVAL_UNDEF(&o->listener);
	if (ZEND_FCI_INITIALIZED(fci)) {
		ZVAL_COPY(&o->listener, &fci.function_name);
	}
}

PHP_METHOD(DistributedLock, isRevocationRequested)
{
	php_dlock_obj *o;

	ZEND_PARSE_PARAMETERS_NONE();
	if (!(o = php_dlock_revoke_this(ZEND_THIS))) {
		RETURN_THROWS();
	}
	RETURN_BOOL(dlock_handle_revocation_requested(o->lock));
}

PHP_METHOD(DistributedLock, requestRevocation)
{
	zend_string *path;
	HashTable *opts = NULL;
	php_dlock_settings set;
	dlock_err err;
	int rc, count = 0;

	ZEND_PARSE_PARAMETERS_START(1, 2)
	Z_PARAM_STR(path)
	Z_PARAM_OPTIONAL
	Z_PARAM_ARRAY_HT(opts)
	ZEND_PARSE_PARAMETERS_END();

	php_dlock_settings_init(&set);
	if (opts && !php_dlock_settings_parse(&set, opts, 2)) {
		php_dlock_settings_dtor(&set);
		RETURN_THROWS();
	}
	rc = dlock_backend_request_revocation(&set.target, DLOCK_KIND_MUTEX, 1, ZSTR_VAL(path),
	                                      ZSTR_LEN(path), &php_dlock_intr, &count, &err);
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
	RETURN_LONG(count);
}
