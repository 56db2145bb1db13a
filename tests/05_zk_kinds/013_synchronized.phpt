--TEST--
synchronized(): returns the callback's result, releases on return and on exception, throws on timeout
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-synchronized');
$l = new DistributedLock($path, dlt_opts());
var_dump($l->synchronized(fn() => $l->isAcquired() ? 'inside' : 'not held'), $l->isAcquired());
try {
    $l->synchronized(function () { throw new LogicException('boom'); });
} catch (LogicException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($l->isAcquired(), dlt_nodes($path));
$other = new DistributedLock($path, dlt_opts());
$other->acquire();
try {
    $l->synchronized(fn() => 'never', 0.2);
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$other->release();
$m = new DistributedMultiLock([$l, new DistributedSemaphore(dlt_path('kinds-sync-sem'), 1, dlt_opts())]);
var_dump($m->synchronized(fn($x = 2) => $x * 21), $m->isAcquired());
$rw = new DistributedReadWriteLock(dlt_path('kinds-sync-rw'), dlt_opts());
var_dump($rw->writeLock()->synchronized(fn() => 'w'), $rw->writeLock()->isAcquired());
?>
--EXPECT--
string(6) "inside"
bool(false)
LogicException: boom
bool(false)
int(0)
DistributedLockException: /dlock-tests/kinds-synchronized: not acquired within 0.200 s
int(42)
bool(false)
string(1) "w"
bool(false)
