/* This is a generated file, edit the .stub.php file instead.
 * Stub hash: 944fc6fb5c5fc76bb34d1399e15a5e9cc4b0a62f */

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_dlock_stats, 0, 0, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_dlock_stats_reset, 0, 0, IS_VOID, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLockInterface_acquire, 0, 0, _IS_BOOL, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLockInterface_tryAcquire, 0, 0, _IS_BOOL, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedLockInterface_release arginfo_dlock_stats_reset

#define arginfo_class_DistributedLockInterface_isAcquired arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedLockInterface_checkHeld arginfo_dlock_stats_reset

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLockInterface_getFencingToken, 0, 0, IS_LONG, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLockInterface_getPath, 0, 0, IS_STRING, 0)
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLockInterface_synchronized, 0, 1, IS_MIXED, 0)
	ZEND_ARG_TYPE_INFO(0, callback, IS_CALLABLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, timeout, IS_DOUBLE, 1, "null")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_DistributedLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedLock_acquire arginfo_class_DistributedLockInterface_acquire

#define arginfo_class_DistributedLock_tryAcquire arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedLock_release arginfo_dlock_stats_reset

#define arginfo_class_DistributedLock_isAcquired arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedLock_checkHeld arginfo_dlock_stats_reset

#define arginfo_class_DistributedLock_getFencingToken arginfo_class_DistributedLockInterface_getFencingToken

#define arginfo_class_DistributedLock_getPath arginfo_class_DistributedLockInterface_getPath

#define arginfo_class_DistributedLock_synchronized arginfo_class_DistributedLockInterface_synchronized

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_participants, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_listLocks, 0, 1, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, prefix, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_forceBreak, 0, 1, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_waitForChange, 0, 2, _IS_BOOL, 1)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, timeout, IS_DOUBLE, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedLock_onRevocation, 0, 1, IS_VOID, 0)
	ZEND_ARG_TYPE_INFO(0, listener, IS_CALLABLE, 1)
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedLock_isRevocationRequested arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedLock_requestRevocation arginfo_class_DistributedLock_forceBreak

#define arginfo_class_DistributedReadWriteLock___construct arginfo_class_DistributedLock___construct

ZEND_BEGIN_ARG_WITH_RETURN_OBJ_INFO_EX(arginfo_class_DistributedReadWriteLock_readLock, 0, 0, DistributedLock, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedReadWriteLock_writeLock arginfo_class_DistributedReadWriteLock_readLock

#define arginfo_class_DistributedReadWriteLock_getPath arginfo_class_DistributedLockInterface_getPath

#define arginfo_class_DistributedReadWriteLock_participants arginfo_class_DistributedLock_participants

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_DistributedSemaphore___construct, 0, 0, 2)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, maxLeases, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedSemaphore_acquire arginfo_class_DistributedLockInterface_acquire

#define arginfo_class_DistributedSemaphore_tryAcquire arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedSemaphore_release arginfo_dlock_stats_reset

#define arginfo_class_DistributedSemaphore_isAcquired arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedSemaphore_checkHeld arginfo_dlock_stats_reset

#define arginfo_class_DistributedSemaphore_getFencingToken arginfo_class_DistributedLockInterface_getFencingToken

#define arginfo_class_DistributedSemaphore_getPath arginfo_class_DistributedLockInterface_getPath

#define arginfo_class_DistributedSemaphore_synchronized arginfo_class_DistributedLockInterface_synchronized

#define arginfo_class_DistributedSemaphore_getMaxLeases arginfo_class_DistributedLockInterface_getFencingToken

#define arginfo_class_DistributedSemaphore_onRevocation arginfo_class_DistributedLock_onRevocation

#define arginfo_class_DistributedSemaphore_isRevocationRequested arginfo_class_DistributedLockInterface_tryAcquire

ZEND_BEGIN_ARG_WITH_RETURN_TYPE_INFO_EX(arginfo_class_DistributedSemaphore_participants, 0, 2, IS_ARRAY, 0)
	ZEND_ARG_TYPE_INFO(0, path, IS_STRING, 0)
	ZEND_ARG_TYPE_INFO(0, maxLeases, IS_LONG, 0)
	ZEND_ARG_TYPE_INFO_WITH_DEFAULT_VALUE(0, options, IS_ARRAY, 0, "[]")
ZEND_END_ARG_INFO()

ZEND_BEGIN_ARG_INFO_EX(arginfo_class_DistributedMultiLock___construct, 0, 0, 1)
	ZEND_ARG_TYPE_INFO(0, locks, IS_ARRAY, 0)
ZEND_END_ARG_INFO()

#define arginfo_class_DistributedMultiLock_acquire arginfo_class_DistributedLockInterface_acquire

#define arginfo_class_DistributedMultiLock_tryAcquire arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedMultiLock_release arginfo_dlock_stats_reset

#define arginfo_class_DistributedMultiLock_isAcquired arginfo_class_DistributedLockInterface_tryAcquire

#define arginfo_class_DistributedMultiLock_checkHeld arginfo_dlock_stats_reset

#define arginfo_class_DistributedMultiLock_getFencingToken arginfo_class_DistributedLockInterface_getFencingToken

#define arginfo_class_DistributedMultiLock_getPath arginfo_class_DistributedLockInterface_getPath

#define arginfo_class_DistributedMultiLock_synchronized arginfo_class_DistributedLockInterface_synchronized

#define arginfo_class_DistributedMultiLock_getLocks arginfo_dlock_stats


ZEND_FUNCTION(dlock_stats);
ZEND_FUNCTION(dlock_stats_reset);
ZEND_METHOD(DistributedLock, __construct);
ZEND_METHOD(DistributedLock, acquire);
ZEND_METHOD(DistributedLock, tryAcquire);
ZEND_METHOD(DistributedLock, release);
ZEND_METHOD(DistributedLock, isAcquired);
ZEND_METHOD(DistributedLock, checkHeld);
ZEND_METHOD(DistributedLock, getFencingToken);
ZEND_METHOD(DistributedLock, getPath);
ZEND_METHOD(DistributedLock, synchronized);
ZEND_METHOD(DistributedLock, participants);
ZEND_METHOD(DistributedLock, listLocks);
ZEND_METHOD(DistributedLock, forceBreak);
ZEND_METHOD(DistributedLock, waitForChange);
ZEND_METHOD(DistributedLock, onRevocation);
ZEND_METHOD(DistributedLock, isRevocationRequested);
ZEND_METHOD(DistributedLock, requestRevocation);
ZEND_METHOD(DistributedReadWriteLock, __construct);
ZEND_METHOD(DistributedReadWriteLock, readLock);
ZEND_METHOD(DistributedReadWriteLock, writeLock);
ZEND_METHOD(DistributedReadWriteLock, getPath);
ZEND_METHOD(DistributedReadWriteLock, participants);
ZEND_METHOD(DistributedSemaphore, __construct);
ZEND_METHOD(DistributedSemaphore, getMaxLeases);
ZEND_METHOD(DistributedSemaphore, participants);
ZEND_METHOD(DistributedMultiLock, __construct);
ZEND_METHOD(DistributedMultiLock, acquire);
ZEND_METHOD(DistributedMultiLock, tryAcquire);
ZEND_METHOD(DistributedMultiLock, release);
ZEND_METHOD(DistributedMultiLock, isAcquired);
ZEND_METHOD(DistributedMultiLock, checkHeld);
ZEND_METHOD(DistributedMultiLock, getFencingToken);
ZEND_METHOD(DistributedMultiLock, getPath);
ZEND_METHOD(DistributedMultiLock, synchronized);
ZEND_METHOD(DistributedMultiLock, getLocks);


static const zend_function_entry ext_functions[] = {
	ZEND_FE(dlock_stats, arginfo_dlock_stats)
	ZEND_FE(dlock_stats_reset, arginfo_dlock_stats_reset)
	ZEND_FE_END
};


static const zend_function_entry class_DistributedLockInterface_methods[] = {
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, acquire, arginfo_class_DistributedLockInterface_acquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, tryAcquire, arginfo_class_DistributedLockInterface_tryAcquire, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, release, arginfo_class_DistributedLockInterface_release, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, isAcquired, arginfo_class_DistributedLockInterface_isAcquired, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, checkHeld, arginfo_class_DistributedLockInterface_checkHeld, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, getFencingToken, arginfo_class_DistributedLockInterface_getFencingToken, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, getPath, arginfo_class_DistributedLockInterface_getPath, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_ABSTRACT_ME_WITH_FLAGS(DistributedLockInterface, synchronized, arginfo_class_DistributedLockInterface_synchronized, ZEND_ACC_PUBLIC|ZEND_ACC_ABSTRACT)
	ZEND_FE_END
};


static const zend_function_entry class_DistributedLock_methods[] = {
	ZEND_ME(DistributedLock, __construct, arginfo_class_DistributedLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, acquire, arginfo_class_DistributedLock_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, tryAcquire, arginfo_class_DistributedLock_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, release, arginfo_class_DistributedLock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, isAcquired, arginfo_class_DistributedLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, checkHeld, arginfo_class_DistributedLock_checkHeld, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, getFencingToken, arginfo_class_DistributedLock_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, getPath, arginfo_class_DistributedLock_getPath, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, synchronized, arginfo_class_DistributedLock_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, participants, arginfo_class_DistributedLock_participants, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(DistributedLock, listLocks, arginfo_class_DistributedLock_listLocks, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(DistributedLock, forceBreak, arginfo_class_DistributedLock_forceBreak, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(DistributedLock, waitForChange, arginfo_class_DistributedLock_waitForChange, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_ME(DistributedLock, onRevocation, arginfo_class_DistributedLock_onRevocation, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, isRevocationRequested, arginfo_class_DistributedLock_isRevocationRequested, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedLock, requestRevocation, arginfo_class_DistributedLock_requestRevocation, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_DistributedReadWriteLock_methods[] = {
	ZEND_ME(DistributedReadWriteLock, __construct, arginfo_class_DistributedReadWriteLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedReadWriteLock, readLock, arginfo_class_DistributedReadWriteLock_readLock, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedReadWriteLock, writeLock, arginfo_class_DistributedReadWriteLock_writeLock, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedReadWriteLock, getPath, arginfo_class_DistributedReadWriteLock_getPath, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedReadWriteLock, participants, arginfo_class_DistributedReadWriteLock_participants, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_DistributedSemaphore_methods[] = {
	ZEND_ME(DistributedSemaphore, __construct, arginfo_class_DistributedSemaphore___construct, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, acquire, acquire, arginfo_class_DistributedSemaphore_acquire, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, tryAcquire, tryAcquire, arginfo_class_DistributedSemaphore_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, release, release, arginfo_class_DistributedSemaphore_release, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, isAcquired, isAcquired, arginfo_class_DistributedSemaphore_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, checkHeld, checkHeld, arginfo_class_DistributedSemaphore_checkHeld, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, getFencingToken, getFencingToken, arginfo_class_DistributedSemaphore_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, getPath, getPath, arginfo_class_DistributedSemaphore_getPath, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, synchronized, synchronized, arginfo_class_DistributedSemaphore_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedSemaphore, getMaxLeases, arginfo_class_DistributedSemaphore_getMaxLeases, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, onRevocation, onRevocation, arginfo_class_DistributedSemaphore_onRevocation, ZEND_ACC_PUBLIC)
	ZEND_MALIAS(DistributedLock, isRevocationRequested, isRevocationRequested, arginfo_class_DistributedSemaphore_isRevocationRequested, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedSemaphore, participants, arginfo_class_DistributedSemaphore_participants, ZEND_ACC_PUBLIC|ZEND_ACC_STATIC)
	ZEND_FE_END
};


static const zend_function_entry class_DistributedMultiLock_methods[] = {
	ZEND_ME(DistributedMultiLock, __construct, arginfo_class_DistributedMultiLock___construct, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, acquire, arginfo_class_DistributedMultiLock_acquire, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, tryAcquire, arginfo_class_DistributedMultiLock_tryAcquire, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, release, arginfo_class_DistributedMultiLock_release, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, isAcquired, arginfo_class_DistributedMultiLock_isAcquired, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, checkHeld, arginfo_class_DistributedMultiLock_checkHeld, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, getFencingToken, arginfo_class_DistributedMultiLock_getFencingToken, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, getPath, arginfo_class_DistributedMultiLock_getPath, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, synchronized, arginfo_class_DistributedMultiLock_synchronized, ZEND_ACC_PUBLIC)
	ZEND_ME(DistributedMultiLock, getLocks, arginfo_class_DistributedMultiLock_getLocks, ZEND_ACC_PUBLIC)
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

static zend_class_entry *register_class_DistributedLockInterface(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedLockInterface", class_DistributedLockInterface_methods);
	class_entry = zend_register_internal_interface(&ce);

	return class_entry;
}

static zend_class_entry *register_class_DistributedLock(zend_class_entry *class_entry_DistributedLockInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedLock", class_DistributedLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_DistributedLockInterface);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "participants", sizeof("participants") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "listlocks", sizeof("listlocks") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "forcebreak", sizeof("forcebreak") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "waitforchange", sizeof("waitforchange") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "requestrevocation", sizeof("requestrevocation") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_DistributedReadWriteLock(void)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedReadWriteLock", class_DistributedReadWriteLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "participants", sizeof("participants") - 1), 1, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_DistributedSemaphore(zend_class_entry *class_entry_DistributedLockInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedSemaphore", class_DistributedSemaphore_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_DistributedLockInterface);
#if (PHP_VERSION_ID >= 80200)


	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "__construct", sizeof("__construct") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);

	zend_add_parameter_attribute(zend_hash_str_find_ptr(&class_entry->function_table, "participants", sizeof("participants") - 1), 2, ZSTR_KNOWN(ZEND_STR_SENSITIVEPARAMETER), 0);
#endif

	return class_entry;
}

static zend_class_entry *register_class_DistributedMultiLock(zend_class_entry *class_entry_DistributedLockInterface)
{
	zend_class_entry ce, *class_entry;

	INIT_CLASS_ENTRY(ce, "DistributedMultiLock", class_DistributedMultiLock_methods);
	class_entry = zend_register_internal_class_ex(&ce, NULL);
	class_entry->ce_flags |= ZEND_ACC_FINAL|ZEND_ACC_NO_DYNAMIC_PROPERTIES|ZEND_ACC_NOT_SERIALIZABLE;
	zend_class_implements(class_entry, 1, class_entry_DistributedLockInterface);

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
