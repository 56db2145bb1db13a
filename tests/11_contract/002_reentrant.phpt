--TEST--
Contract, every backend: an object acquires again while it holds (reentrant by default), a nested release only counts down, the last one frees the lock, one more throws; with reentrant=false a second acquire throws and the hold stays
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
foreach (dlt_backends() as $b => $o) {
    $name = dlt_cname('reentrant', $b);
    $l = new DistributedLock($name, $o);
    $token = ($l->acquire() && $l->tryAcquire() && $l->acquire(1.0)) ? $l->getFencingToken() : -1;
    $l->release();
    $l->release();
    echo "$b: after two of three releases ", json_encode([$l->isAcquired(), $l->getFencingToken() === $token]), "\n";
    $l->release();
    $other = new DistributedLock($name, $o);
    echo "$b: after the last ", json_encode([$l->isAcquired(), $other->acquire(10)]), "\n";
    $other->release();
    try {
        $l->release();
        echo "$b: release while not held: no error\n";
    } catch (DistributedLockException $e) {
        echo "$b: release while not held: ", get_class($e), "\n";
    }
    $n = new DistributedLock($name, ['reentrant' => false] + $o);
    echo "$b: not reentrant ", json_encode($n->tryAcquire());
    try {
        $n->tryAcquire();
        echo ", again: no error\n";
    } catch (DistributedLockException $e) {
        echo ", again: ", get_class($e), " (", str_contains($e->getMessage(), 'not reentrant') ? 'not reentrant' : $e->getMessage(), ")\n";
    }
    echo "$b: still held once ", json_encode($n->isAcquired()), "\n";
    $n->release();
}
?>
--EXPECT--
zookeeper: after two of three releases [true,true]
zookeeper: after the last [false,true]
zookeeper: release while not held: DistributedLockException
zookeeper: not reentrant true, again: DistributedLockException (not reentrant)
zookeeper: still held once true
redis: after two of three releases [true,true]
redis: after the last [false,true]
redis: release while not held: DistributedLockException
redis: not reentrant true, again: DistributedLockException (not reentrant)
redis: still held once true
postgres: after two of three releases [true,true]
postgres: after the last [false,true]
postgres: release while not held: DistributedLockException
postgres: not reentrant true, again: DistributedLockException (not reentrant)
postgres: still held once true
mysql: after two of three releases [true,true]
mysql: after the last [false,true]
mysql: release while not held: DistributedLockException
mysql: not reentrant true, again: DistributedLockException (not reentrant)
mysql: still held once true
