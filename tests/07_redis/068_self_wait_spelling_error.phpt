--TEST--
Self-deadlock guard on Redis: a name held through redis://127.0.0.1 and asked for untimed through localhost, 127.1 or LOCALHOST throws instead of waiting for itself; a multi-lock with both spellings is refused
--EXTENSIONS--
dlock
--INI--
dlock.max_wait=6
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$addr = dlt_redis_addr();
if (!str_starts_with($addr, '127.0.0.1:')) { echo "test Redis is not at 127.0.0.1: $addr\n"; }
$port = substr($addr, strlen('127.0.0.1:'));
$name = dlt_rkey('self-spelling');
$a = new DistributedLock($name, dlt_ropts());
$a->acquire();
foreach (["localhost:$port", "127.1:$port", "LOCALHOST:$port"] as $other) {
    $b = new DistributedLock($name, dlt_ropts([], $other));
    $t = microtime(true);
    try {
        $b->acquire();
        echo "$other: acquired?!\n";
    } catch (DistributedLockException $e) {
        printf("%s: %s: %s (%s)\n", $other, get_class($e), $e->getMessage(),
               microtime(true) - $t < 3 ? 'at once' : sprintf('after %.1f s', microtime(true) - $t));
    }
    var_dump($b->acquire(0.2));                 /* with a timeout it is allowed, and just fails */
}
$a->release();
try {
    new DistributedMultiLock([new DistributedLock($name, dlt_ropts()),
                              new DistributedLock($name, dlt_ropts([], "localhost:$port"))]);
    echo "multi accepted\n";
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECTF--
localhost:%d: DistributedLockException: %s: this process already holds it through another object; waiting without a timeout would wait for itself (at once)
bool(false)
127.1:%d: DistributedLockException: %s: this process already holds it through another object; waiting without a timeout would wait for itself (at once)
bool(false)
LOCALHOST:%d: DistributedLockException: %s: this process already holds it through another object; waiting without a timeout would wait for itself (at once)
bool(false)
ValueError: DistributedMultiLock::__construct(): Argument #1 ($locks) contains two locks on the same path (%s): it would wait for itself
