--TEST--
Redis: an acquire() whose grant fails because the fencing counter holds something that is not a number throws and leaves nothing behind (no hold held by nobody, no queue place), for every kind and format; once the counter is repaired the name is free at once
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
function mk(string $k, string $name): object
{
    switch ($k) {
        case 'lock': return new DistributedLock($name, dlt_ropts(['lease' => 30]));
        case 'symfony': return new DistributedLock($name, dlt_ropts(['lease' => 30, 'format' => 'symfony']));
        case 'laravel': return new DistributedLock($name, dlt_ropts(['lease' => 30, 'format' => 'laravel']));
        case 'sem': return new DistributedSemaphore($name, 2, dlt_ropts(['lease' => 30]));
        case 'read': return (new DistributedReadWriteLock($name, dlt_ropts(['lease' => 30])))->readLock();
        case 'write': return (new DistributedReadWriteLock($name, dlt_ropts(['lease' => 30])))->writeLock();
    }
}
$i = 0;
foreach (['lock', 'symfony', 'laravel', 'sem', 'read', 'write'] as $k) {
    foreach (['tryAcquire', 'acquire(2.0)'] as $how) {
        $name = dlt_rkey('r061-' . $i++);
        $counter = 'redisson_lock_token:' . dlt_rtag($name);
        dlt_redis('DEL', $name, $counter);
        dlt_redis('SET', $counter, 'notanumber');
        $a = mk($k, $name);
        try {
            $r = $how === 'tryAcquire' ? $a->tryAcquire() : $a->acquire(2.0);
            $got = 'returned ' . var_export($r, true);
        } catch (DistributedLockException $e) {
            $got = get_class($e);
        }
        $left = dlt_redis_leftovers($name);
        /* repaired: another object gets the name at once */
        dlt_redis('SET', $counter, '5');
        $b = mk($k, $name);
        $t = microtime(true);
        $ok = $b->tryAcquire();
        $tok = $ok ? $b->getFencingToken() : 0;
        printf("%s %s: %s, isAcquired %s, left %s; repaired: tryAcquire %s, token above 5 %s\n", $k,
               $how, $got, var_export($a->isAcquired(), true), $left ? implode(',', $left) : 'nothing',
               var_export($ok, true), var_export($tok > 5, true));
        if ($ok) {
            $b->release();
        }
    }
}
echo "done\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
for ($i = 0; $i < 12; $i++) {
    dlt_redis_clean(dlt_rkey('r061-' . $i));
}
?>
--EXPECT--
lock tryAcquire: DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
lock acquire(2.0): DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
symfony tryAcquire: DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
symfony acquire(2.0): DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
laravel tryAcquire: DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
laravel acquire(2.0): DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
sem tryAcquire: DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
sem acquire(2.0): DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
read tryAcquire: DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
read acquire(2.0): DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
write tryAcquire: DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
write acquire(2.0): DistributedLockException, isAcquired false, left nothing; repaired: tryAcquire true, token above 5 true
done
