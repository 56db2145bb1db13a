--TEST--
Redis: a signal handler that uses the very object whose acquire() it interrupted gets a DistributedLockException; a release of another object in the handler wakes that acquire()
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r047-same');
dlt_redis_clean($name);
$h = new DistributedLock($name, dlt_ropts());
$y = new DistributedLock($name, dlt_ropts());
var_dump($h->acquire(10));
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use ($h, $y) {
    try {
        var_dump($y->tryAcquire());
    } catch (DistributedLockException $e) {
        echo get_class($e), ": ", str_contains($e->getMessage(), "under way") ? "under way" : $e->getMessage(), "\n";
    }
    $h->release(); /* wakes the acquire() this handler interrupted */
    echo "handler released\n";
});
pcntl_alarm(1);
var_dump($y->acquire(20));
var_dump($y->isAcquired(), $h->isAcquired());
$y->release();
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r047-same'));
?>
--EXPECT--
bool(true)
DistributedLockException: under way
handler released
bool(true)
bool(true)
bool(false)
array(0) {
}
