--TEST--
Redis: an untimed acquire() of one kind on a name this process holds as another kind is refused (it would wait for itself), never a WRONGTYPE error or a hang
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--INI--
dlock.max_wait=5
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r045-self');
dlt_redis_clean($name);
$mk = [
    'lock' => fn () => new DistributedLock($name, dlt_ropts()),
    'laravel' => fn () => new DistributedLock($name, dlt_ropts(['format' => 'laravel'])),
    'sem' => fn () => new DistributedSemaphore($name, 2, dlt_ropts()),
    'write' => fn () => (new DistributedReadWriteLock($name, dlt_ropts()))->writeLock(),
];
foreach ($mk as $a => $ma) {
    foreach ($mk as $b => $mb) {
        if ($a === $b) {
            continue;
        }
        $la = $ma();
        $lb = $mb();
        $la->acquire();
        try {
            $r = $lb->acquire();
            echo "$a then $b: acquire() returned ", var_export($r, true), "\n";
        } catch (DistributedLockException $e) {
            echo "$a then $b: ", str_contains($e->getMessage(), 'would wait for itself') ? 'refused' : $e->getMessage(), "\n";
        }
        var_dump($lb->tryAcquire());
        $la->release();
    }
}
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r045-self'));
?>
--EXPECT--
lock then laravel: refused
bool(false)
lock then sem: refused
bool(false)
lock then write: refused
bool(false)
laravel then lock: refused
bool(false)
laravel then sem: refused
bool(false)
laravel then write: refused
bool(false)
sem then lock: refused
bool(false)
sem then laravel: refused
bool(false)
sem then write: refused
bool(false)
write then lock: refused
bool(false)
write then laravel: refused
bool(false)
write then sem: refused
bool(false)
array(0) {
}
