--TEST--
Redis: the server killed while a lock is held: isAcquired() false within the lease, checkHeld() throws, release() does not hang; after a restart new acquires work
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$port = dlt_redis_own_port(18);
$addr = dlt_redis_sh('start', (string) $port);
$name = dlt_rkey('r18-killed-server');
$l = new DistributedLock($name, dlt_ropts(['lease' => 2.0, 'connect_timeout' => 0.5], $addr));
var_dump($l->acquire(5), $l->isAcquired());
dlt_redis_sh('kill', (string) $port);
$t = microtime(true);
var_dump(dlt_until(fn() => !$l->isAcquired(), 2.0 + 1.0));
$dt = microtime(true) - $t;
echo $dt <= 2.5 ? "not held within the lease\n" : "still held for $dt s\n";
$t = microtime(true);
try {
    $l->checkHeld();
    echo "checkHeld: ok?!\n";
} catch (DistributedLockLostException | DistributedLockConnectionException $e) {
    echo "checkHeld: throws\n";
}
echo microtime(true) - $t < 1.5 ? "checkHeld did not hang\n" : "checkHeld took " . (microtime(true) - $t) . " s\n";
$t = microtime(true);
try {
    $l->release();
    echo "release: ok?!\n";
} catch (DistributedLockException $e) {
    echo "release: throws\n";
}
echo microtime(true) - $t < 1.5 ? "release did not hang\n" : "release took " . (microtime(true) - $t) . " s\n";
$o = new DistributedLock($name, dlt_ropts(['connect_timeout' => 0.5], $addr));
try {
    $o->tryAcquire();
    echo "tryAcquire while down: ok?!\n";
} catch (DistributedLockConnectionException $e) {
    echo "tryAcquire while down: ", get_class($e), "\n";
}
dlt_redis_sh('restart', (string) $port);
/* new acquires work, on new and on old objects (which reconnect) */
var_dump($o->acquire(5), $o->isAcquired(), $l->tryAcquire());
$o->checkHeld();
$o->release();
var_dump($l->acquire(5), $l->isAcquired());
$l->checkHeld();
$l->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($name, $addr) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(18)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
not held within the lease
checkHeld: throws
checkHeld did not hang
release: throws
release did not hang
tryAcquire while down: DistributedLockConnectionException
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
