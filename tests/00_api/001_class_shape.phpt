--TEST--
DistributedLock and its exceptions: shape, not clonable, not serializable
--EXTENSIONS--
dlock
--FILE--
<?php
$rc = new ReflectionClass(DistributedLock::class);
var_dump($rc->isFinal());
foreach ($rc->getMethods() as $m) {
    echo $m->getName(), $m->isStatic() ? ' (static)' : '', ': ', $m->getReturnType() ?? '-', "\n";
}
var_dump(class_implements(DistributedLock::class), class_implements(DistributedSemaphore::class));
var_dump(get_parent_class(DistributedLockException::class));
var_dump(get_parent_class(DistributedLockConnectionException::class));
var_dump(get_parent_class(DistributedLockLostException::class));

$l = new DistributedLock('/dlock-tests/shape');
var_dump($l->getPath(), $l->isAcquired());
try {
    clone $l;
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    serialize($l);
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    unserialize('O:15:"DistributedLock":0:{}');
} catch (Exception $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    $l->__construct('/dlock-tests/other');
} catch (Error $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
try {
    $rc->newInstanceWithoutConstructor();
} catch (ReflectionException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
__construct: -
acquire: bool
tryAcquire: bool
release: void
isAcquired: bool
checkHeld: void
getFencingToken: int
getPath: string
synchronized: mixed
participants (static): array
listLocks (static): array
forceBreak (static): int
waitForChange (static): ?bool
onRevocation: void
isRevocationRequested: bool
requestRevocation (static): int
array(1) {
  ["DistributedLockInterface"]=>
  string(24) "DistributedLockInterface"
}
array(1) {
  ["DistributedLockInterface"]=>
  string(24) "DistributedLockInterface"
}
string(16) "RuntimeException"
string(24) "DistributedLockException"
string(24) "DistributedLockException"
string(18) "/dlock-tests/shape"
bool(false)
Error: Trying to clone an uncloneable object of class DistributedLock
Exception: Serialization of 'DistributedLock' is not allowed
Exception: Unserialization of 'DistributedLock' is not allowed
Error: DistributedLock object is already initialized
ReflectionException: Class DistributedLock is an internal class marked as final that cannot be instantiated without invoking its constructor
