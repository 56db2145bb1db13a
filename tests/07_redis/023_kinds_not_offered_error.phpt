--TEST--
Redis: DistributedReadWriteLock and DistributedSemaphore with a redis DSN throw DistributedLockException (not offered on Redis yet)
--EXTENSIONS--
dlock
--FILE--
<?php
foreach ([fn() => new DistributedReadWriteLock('dlock-tests:r23-rw', ['dsn' => 'redis://127.0.0.1:1']),
          fn() => new DistributedSemaphore('dlock-tests:r23-sem', 3, ['dsn' => 'redis://127.0.0.1:1'])] as $f) {
    try {
        $f();
        echo "constructed?!\n";
    } catch (DistributedLockException $e) {
        echo get_class($e), str_contains(strtolower($e->getMessage()), 'redis') ? ' (names Redis)' : ': ' . $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
DistributedLockException (names Redis)
DistributedLockException (names Redis)
