--TEST--
Redis: reentrancy is counted in the process (the hash field stays 1 while nested holds come and go), the key goes at the last release; 'reentrant' => false refuses a second acquire
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r04-reentrant');
$l = new DistributedLock($name, dlt_ropts());
var_dump($l->acquire(), $l->tryAcquire());
$token = $l->getFencingToken();
$h = dlt_redis_hash($name);
var_dump(count($h), array_values($h));
var_dump($l->acquire(1.0));
var_dump(array_values(dlt_redis_hash($name)));
$l->release();
$l->release();
var_dump($l->isAcquired(), $l->getFencingToken() === $token, array_values(dlt_redis_hash($name)));
$l->release();
var_dump($l->isAcquired(), dlt_until(fn() => dlt_redis('EXISTS', $name) === 0, 5));
try {
    $l->release();
    echo "release while not held: ok?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), "\n";
}

$nr = dlt_rkey('r04-nonreentrant');
$n = new DistributedLock($nr, dlt_ropts(['reentrant' => false]));
var_dump($n->acquire());
try {
    $n->acquire(1.0);
    echo "second acquire: ok?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), "\n";
}
try {
    $n->tryAcquire();
    echo "tryAcquire: ok?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), "\n";
}
var_dump($n->isAcquired(), array_values(dlt_redis_hash($nr)));
$n->release();
var_dump($n->isAcquired(), dlt_until(fn() => dlt_redis('EXISTS', $nr) === 0, 5));
var_dump(dlt_redis_leftovers($name), dlt_redis_leftovers($nr));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r04-reentrant'));
dlt_redis_clean(dlt_rkey('r04-nonreentrant'));
?>
--EXPECT--
bool(true)
bool(true)
int(1)
array(1) {
  [0]=>
  string(1) "1"
}
bool(true)
array(1) {
  [0]=>
  string(1) "1"
}
bool(true)
bool(true)
array(1) {
  [0]=>
  string(1) "1"
}
bool(false)
bool(true)
DistributedLockException
bool(true)
DistributedLockException
DistributedLockException
bool(true)
array(1) {
  [0]=>
  string(1) "1"
}
bool(false)
bool(true)
array(0) {
}
array(0) {
}
