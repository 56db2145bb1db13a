--TEST--
Redis: DistributedReadWriteLock with a redis DSN throws DistributedLockException (not offered on Redis yet), and so does its participants(); a semaphore with a format other than Redisson's is a ValueError
--EXTENSIONS--
dlock
--FILE--
<?php
foreach ([fn() => new DistributedReadWriteLock('dlock-tests:r23-rw', ['dsn' => 'redis://127.0.0.1:1']),
          fn() => DistributedReadWriteLock::participants('dlock-tests:r23-rw', ['dsn' => 'redis://127.0.0.1:1'])] as $f) {
    try {
        $f();
        echo "constructed?!\n";
    } catch (DistributedLockException $e) {
        echo get_class($e), str_contains(strtolower($e->getMessage()), 'redis') ? ' (names Redis)' : ': ' . $e->getMessage(), "\n";
    }
}
try {
    new DistributedSemaphore('dlock-tests:r23-sem', 3, ['dsn' => 'redis://127.0.0.1:1', 'format' => 'laravel']);
    echo "constructed?!\n";
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
DistributedLockException (names Redis)
DistributedLockException (names Redis)
DistributedSemaphore::__construct(): Argument #3 ($options) option "format" applies to DistributedLock only, not to semaphores
