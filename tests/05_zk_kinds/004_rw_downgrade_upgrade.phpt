--TEST--
Read-write lock: the write holder may take the read lock (downgrade); read to write (upgrade) is refused
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-rw-downgrade');
$rw = new DistributedReadWriteLock($path, dlt_opts());
$w = $rw->writeLock();
$r = $rw->readLock();
var_dump($w->acquire(), $r->acquire());   /* downgrade: take read while holding write */
$w->release();                            /* ... then let go of write */
var_dump($r->isAcquired(), $w->isAcquired());
DistributedReadWriteLock::participants($path, dlt_opts()); /* same session: after the delete */
$c = dlt_spawn('
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
echo "read: ", $rw->readLock()->tryAcquire() ? "got" : "busy", "\n";
$rw->readLock()->release();
echo "write: ", $rw->writeLock()->tryAcquire() ? "got" : "busy", "\n";
', [$path]);
echo dlt_line($c), "\n", dlt_line($c), "\n";
dlt_finish($c);
try {
    $w->acquire(1);                       /* upgrade: would wait for our own read node */
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($w->isAcquired());
$r->release();
var_dump($w->tryAcquire());
$w->release();
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
read: got
write: busy
DistributedLockException: /dlock-tests/kinds-rw-downgrade: cannot upgrade a read lock to a write lock (it would wait for itself); release the read lock first
bool(false)
bool(true)
