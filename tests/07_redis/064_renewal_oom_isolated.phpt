--TEST--
Redis: on a full noeviction server one lock's failing renewal never takes the others with it: Redisson- and Laravel-format locks (renewed by PEXPIRE, which needs no memory) stay held beside symfony, semaphore and read-write holds, whose renewal needs memory and which are reported lost
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* maxmemory on the whole server: this test has its own */
$port = dlt_redis_own_port(74);
$addr = dlt_redis_sh('start', (string) $port);
$o = dlt_ropts(['lease' => 1.5], $addr);
$locks = [
    'redisson' => new DistributedLock(dlt_rkey('r64-r'), $o),
    'laravel' => new DistributedLock(dlt_rkey('r64-l'), $o + ['format' => 'laravel']),
    'symfony' => new DistributedLock(dlt_rkey('r64-s'), $o + ['format' => 'symfony']),
    'semaphore' => new DistributedSemaphore(dlt_rkey('r64-z'), 2, $o),
    'rw read' => (new DistributedReadWriteLock(dlt_rkey('r64-w'), $o))->readLock(),
];
foreach ($locks as $l) {
    $l->acquire(5);
}
$locks['redisson']->checkHeld(); /* the renewal script is loaded before memory runs out */
dlt_redis_at($addr, 'CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
dlt_redis_at($addr, 'CONFIG', 'SET', 'maxmemory', '1');
$r = dlt_redis_at($addr, 'SET', dlt_rkey('r64-x'), 'y');
echo 'SET under OOM: ', $r instanceof DltRedisError && str_contains($r->message, 'OOM') ? 'OOM' : var_export($r, true), "\n";
/* the kinds that need memory are reported lost within a lease; then two
 * more leases pass, so the others were renewed several times meanwhile */
$memory = ['symfony', 'semaphore', 'rw read'];
var_dump(dlt_until(function () use ($locks, $memory) {
    foreach ($memory as $k) {
        if ($locks[$k]->isAcquired()) {
            return false;
        }
    }
    return true;
}, 15));
$end = microtime(true) + 3.0;
$ok = true;
while (microtime(true) < $end) {
    $ok = $ok && $locks['redisson']->isAcquired() && $locks['laravel']->isAcquired();
    usleep(20000);
}
var_dump($ok);
foreach ($locks as $k => $l) {
    echo $k, ': ', $l->isAcquired() ? 'held' : 'lost';
    if ($k === 'redisson' || $k === 'laravel') {
        $l->checkHeld();
        $ttl = dlt_redis_at($addr, 'PTTL', $l->getPath());
        echo $ttl > 0 ? ', key lives' : ", pttl $ttl";
    }
    echo "\n";
}
/* another process cannot take them */
$h = dlt_rspawn('
foreach ([$argv[1], $argv[2]] as $i => $n) {
    $l = new DistributedLock($n, dlt_ropts($i ? ["format" => "laravel"] : [], $argv[3]));
    echo var_export($l->tryAcquire(), true), "\n";
}
', [$locks['redisson']->getPath(), $locks['laravel']->getPath(), $addr]);
echo dlt_line($h), ' ', dlt_line($h), "\n";
var_dump(dlt_finish($h));
dlt_redis_at($addr, 'CONFIG', 'SET', 'maxmemory', '0');
foreach ($locks as $k => $l) {
    try {
        $l->release();
        echo "$k released\n";
    } catch (DistributedLockLostException $e) {
        echo "$k: release says lost\n";
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(74)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
SET under OOM: OOM
bool(true)
bool(true)
redisson: held, key lives
laravel: held, key lives
symfony: lost
semaphore: lost
rw read: lost
false false
int(0)
redisson released
laravel released
symfony: release says lost
semaphore: release says lost
rw read: release says lost
