/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: bf1838312993ffe38fe6fdad8861c4a0c71f1885 */

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_DistributedLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_tryAcquire, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_release, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedLock_isAcquired arginfo_class_DistributedLock_tryAcquire

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_getFencingToken, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_getPath, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_participants, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()


ZEND_METHOD(DistributedLock, __construct);
ZEND_METHOD(DistributedLock, acquire);
ZEND_METHOD(DistributedLock, tryAcquire);
ZEND_METHOD(DistributedLock, release);
ZEND_METHOD(DistributedLock, isAcquired);
ZEND_METHOD(DistributedLock, getFencingToken);
ZEND_METHOD(DistributedLock, getPath);
ZEND_METHOD(DistributedLock, participants);


static const zend_function_entry class_DistributedLock_methods[] = {
	ZEND_ME(DistributedLock, __construct, arginfo_class_DistributedLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, acquire, arginfo_class_DistributedLock_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, tryAcquire, arginfo_class_DistributedLock_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, release, arginfo_class_DistributedLock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, isAcquired, arginfo_class_DistributedLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, getFencingToken, arginfo_class_DistributedLock_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, getPath, arginfo_class_DistributedLock_getPath, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, participants, arginfo_class_DistributedLock_participants, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_DistributedLockException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_DistributedLockConnectionException_methods[] = {
	ZEND_FE_END
};


static const zend_function_entry class_DistributedLockLostException_methods[] = {
	ZEND_FE_END
};

static zend_class_entry *register_class_DistributedLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedLock", class_DistributedLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;

	return class_entry;
}

static zend_class_entry *register_class_DistributedLockException(zend_class_entry *class_entry_RuntimeException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedLockException", class_DistributedLockException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_RuntimeException);

	return class_entry;
}

static zend_class_entry *register_class_DistributedLockConnectionException(zend_class_entry *class_entry_DistributedLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedLockConnectionException", class_DistributedLockConnectionException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_DistributedLockException);

	return class_entry;
}

static zend_class_entry *register_class_DistributedLockLostException(zend_class_entry *class_entry_DistributedLockException)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedLockLostException", class_DistributedLockLostException_methods);
	class_entry = zend_register_internal_class_ex(&ce, class_entry_DistributedLockException);

	return class_entry;
}
