--TEST--
Multi-lock: empty list, non-lock elements, the same lock twice, two locks on one path are rejected
--EXTENSIONS--
dlock
--FILE--
<?php
$a = new DistributedLock('/dlock-tests/m-a');
$cases = [
    [],
    [$a, 'x'],
    [$a, new stdClass()],
    [$a, new DistributedReadWriteLock('/dlock-tests/m-rw')],
    [$a, $a],
    [$a, new DistributedLock('/dlock-tests/m-a')],
];
foreach ($cases as $locks) {
    try {
        new DistributedMultiLock($locks);
        echo "accepted\n";
    } catch (TypeError | ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$rw = new DistributedReadWriteLock('/dlock-tests/m-rw');
$m = new DistributedMultiLock([$a, $rw->readLock(), new DistributedSemaphore('/dlock-tests/m-s', 2)]);
var_dump(count($m->getLocks()), $m instanceof DistributedLockInterface);
try {
    clone $m;
} catch (Error $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
ValueError: DistributedMultiLock::__construct(): Argument #1 ($locks) must not be empty
TypeError: DistributedMultiLock::__construct(): Argument #1 ($locks) must contain only DistributedLock or DistributedSemaphore objects, string given
TypeError: DistributedMultiLock::__construct(): Argument #1 ($locks) must contain only DistributedLock or DistributedSemaphore objects, stdClass given
TypeError: DistributedMultiLock::__construct(): Argument #1 ($locks) must contain only DistributedLock or DistributedSemaphore objects, DistributedReadWriteLock given
ValueError: DistributedMultiLock::__construct(): Argument #1 ($locks) contains the same lock twice
ValueError: DistributedMultiLock::__construct(): Argument #1 ($locks) contains two locks on the same path (/dlock-tests/m-a): it would wait for itself
int(3)
bool(true)
Trying to clone an uncloneable object of class DistributedMultiLock
