--TEST--
Revocation (Redis): requestRevocation() asks every holder of the name whatever its kind: the readers or the writer of a read-write lock and each lease holder of a semaphore (ZooKeeper asks the mutex and read-write holders only)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$names = ['read' => dlt_rkey('revoke-kinds-r'), 'write' => dlt_rkey('revoke-kinds-w'), 'sem' => dlt_rkey('revoke-kinds-s')];
foreach ($names as $n) {
    dlt_redis_clean($n);
}
$calls = [];
$listen = function (string $who) use (&$calls) {
    return function () use ($who, &$calls) { $calls[] = $who; };
};
$rw = new DistributedReadWriteLock($names['read'], dlt_ropts());
$r1 = $rw->readLock();
$r1->onRevocation($listen('reader 1'));
$r2 = (new DistributedReadWriteLock($names['read'], dlt_ropts()))->readLock();
$r2->onRevocation($listen('reader 2'));
var_dump($r1->acquire(5), $r2->acquire(5));
$w = (new DistributedReadWriteLock($names['write'], dlt_ropts()))->writeLock();
$w->onRevocation($listen('writer'));
var_dump($w->acquire(5));
$s1 = new DistributedSemaphore($names['sem'], 3, dlt_ropts());
$s1->onRevocation($listen('lease 1'));
$s2 = new DistributedSemaphore($names['sem'], 3, dlt_ropts());
$s2->onRevocation($listen('lease 2'));
var_dump($s1->acquire(5), $s2->acquire(5));
foreach (['read' => [$r1, $r2], 'write' => [$w], 'sem' => [$s1, $s2]] as $kind => $holders) {
    $calls = [];
    echo "$kind: asked ", DistributedLock::requestRevocation($names[$kind], dlt_ropts());
    $all = function () use ($holders, &$calls): bool {
        return count(array_filter($holders, fn ($h) => $h->isRevocationRequested())) === count($holders)
            && count($calls) === count($holders);
    };
    echo ", every holder told: ", var_export(dlt_until($all, 10), true);
    sort($calls);
    echo " (", implode(', ', $calls), ")\n";
}
foreach ([$r1, $r2, $w, $s1, $s2] as $h) {
    $h->release();
}
foreach ($names as $n) {
    dlt_redis_clean($n);
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
read: asked 2, every holder told: true (reader 1, reader 2)
write: asked 1, every holder told: true (writer)
sem: asked 2, every holder told: true (lease 1, lease 2)
