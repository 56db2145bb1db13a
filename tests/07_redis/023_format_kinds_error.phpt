--TEST--
Redis: 'format' (symfony, laravel) applies to DistributedLock only: a semaphore or a read-write lock given one is a ValueError naming the option
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
$o = ['dsn' => 'redis://127.0.0.1:1'];
foreach ([fn() => new DistributedReadWriteLock('dlock-tests:r23-rw', $o + ['format' => 'symfony']),
          fn() => new DistributedSemaphore('dlock-tests:r23-sem', 3, $o + ['format' => 'laravel'])] as $f) {
    try {
        $f();
        echo "constructed?!\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
/* the default format is accepted by every kind */
var_dump(new DistributedReadWriteLock('dlock-tests:r23-rw', $o + ['format' => 'redisson']) instanceof DistributedReadWriteLock);
?>
--EXPECT--
DistributedReadWriteLock::__construct(): Argument #2 ($options) option "format" applies to DistributedLock only, not to read-write locks
DistributedSemaphore::__construct(): Argument #3 ($options) option "format" applies to DistributedLock only, not to semaphores
bool(true)
