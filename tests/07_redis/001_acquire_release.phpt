--TEST--
Redis: acquire() then release(); the lock is a Redisson-style hash (one "<uuid>:<n>" field, count 1, a lease), gone after release
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r01-acquire');
$l = new DistributedLock($name, dlt_ropts(['lease' => 10]));
var_dump($l->getPath() === $name, $l->isAcquired());
var_dump($l->acquire(), $l->isAcquired());
var_dump(dlt_redis('TYPE', $name));
$h = dlt_redis_hash($name);
var_dump(count($h));
$field = (string) array_key_first($h);
echo preg_match('/^[^:]+.*:\d+$/', $field) ? "field ends with :<n>\n" : "field: $field\n";
var_dump($h[$field]);
$pttl = dlt_redis('PTTL', $name);
echo $pttl > 0 && $pttl <= 10000 ? "PTTL within the lease\n" : "PTTL $pttl\n";
/* the fencing counter is Redisson's token key, one INCR per acquire */
var_dump((int) dlt_redis('GET', 'redisson_lock_token:{' . $name . '}') === $l->getFencingToken());
var_dump($l->getFencingToken() > 0);
$l->checkHeld();
$l->release();
/* bounded wait in case release() does not wait for the server's reply */
var_dump($l->isAcquired(), dlt_until(fn() => dlt_redis('EXISTS', $name) === 0, 5), dlt_redis_leftovers($name));
try {
    $l->getFencingToken();
    echo "token after release?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r01-acquire'));
?>
--EXPECT--
bool(true)
bool(false)
bool(true)
bool(true)
string(4) "hash"
int(1)
field ends with :<n>
string(1) "1"
PTTL within the lease
bool(true)
bool(true)
bool(false)
bool(true)
array(0) {
}
DistributedLockException
