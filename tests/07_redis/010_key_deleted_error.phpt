--TEST--
Redis: the lock key deleted behind our back: checkHeld() throws DistributedLockLostException at once; without checkHeld() the watchdog marks it lost within lease/3
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$a = dlt_rkey('r10-deleted-a');
$b = dlt_rkey('r10-deleted-b');
$la = new DistributedLock($a, dlt_ropts(['lease' => 30.0]));
var_dump($la->acquire());
var_dump(dlt_redis('DEL', $a));
$t = microtime(true);
try {
    $la->checkHeld();
    echo "checkHeld: still held?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: ", get_class($e), "\n";
}
echo microtime(true) - $t < 1.0 ? "at once\n" : "after " . (microtime(true) - $t) . " s\n";
var_dump($la->isAcquired());
try {
    $la->release();
    echo "release: ok?!\n";
} catch (DistributedLockLostException $e) {
    echo "release: ", get_class($e), "\n";
}

/* lease 6 s: the watchdog renews every 2 s and finds the field gone, long
 * before the 6 s lease could run out locally */
$lb = new DistributedLock($b, dlt_ropts(['lease' => 6.0]));
var_dump($lb->acquire());
var_dump(dlt_redis('DEL', $b));
$t = microtime(true);
var_dump(dlt_until(fn() => !$lb->isAcquired(), 2.0 + 0.7));
$dt = microtime(true) - $t;
echo $dt <= 2.7 ? "marked lost within lease/3 + slack\n" : "marked lost after $dt s\n";
try {
    $lb->checkHeld();
    echo "checkHeld: still held?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: ", get_class($e), "\n";
}
try {
    $lb->release();
    echo "release: ok?!\n";
} catch (DistributedLockLostException $e) {
    echo "release: ", get_class($e), "\n";
}
/* the watchdog did not bring the key back */
var_dump(dlt_redis('EXISTS', $b));
/* someone else can take it; the lost object can take it again after that one is done */
$o = new DistributedLock($b, dlt_ropts());
var_dump($o->tryAcquire(), $lb->tryAcquire());
$o->release();
var_dump($lb->acquire(5), $lb->isAcquired());
$lb->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($a) === [] && dlt_redis_leftovers($b) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r10-deleted-a'));
dlt_redis_clean(dlt_rkey('r10-deleted-b'));
?>
--EXPECT--
bool(true)
int(1)
checkHeld: DistributedLockLostException
at once
bool(false)
release: DistributedLockLostException
bool(true)
int(1)
bool(true)
marked lost within lease/3 + slack
checkHeld: DistributedLockLostException
release: DistributedLockLostException
int(0)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
