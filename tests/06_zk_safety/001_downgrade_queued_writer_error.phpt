--TEST--
Downgrade with a writer queued behind our write lock: refused, so the queued writer never holds beside our read lock
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-downgrade');
$rw = new DistributedReadWriteLock($path, dlt_opts());
var_dump($rw->writeLock()->acquire());
$b = dlt_spawn('
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
echo "queued\n";
var_export($rw->writeLock()->acquire(30)); echo "\n";
echo "B holds write\n";
fgets(STDIN);
$rw->writeLock()->release();
echo "B released\n";
', [$path]);
echo dlt_line($b), "\n";
var_dump(dlt_until(fn() => count(DistributedReadWriteLock::participants($path, dlt_opts())) === 2, 20));
try {
    $rw->readLock()->acquire();
    echo "downgrade granted?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), ": ", str_contains($e->getMessage(), 'a writer is queued behind') ? 'writer queued behind' : $e->getMessage(), "\n";
}
var_dump($rw->readLock()->isAcquired(), $rw->writeLock()->isAcquired());
var_dump(count(DistributedReadWriteLock::participants($path, dlt_opts()))); /* no read node left */
$rw->writeLock()->release();
echo dlt_line($b), "\n", dlt_line($b), "\n";
/* while B writes, our read waits (and would never have been granted beside it) */
var_dump($rw->readLock()->acquire(0.2));
dlt_send($b, 'go');
echo dlt_line($b), "\n";
var_dump(dlt_finish($b));
var_dump($rw->readLock()->acquire(10));
$rw->readLock()->release();
?>
--EXPECT--
bool(true)
queued
bool(true)
DistributedLockException: writer queued behind
bool(false)
bool(true)
int(2)
true
B holds write
bool(false)
B released
int(0)
bool(true)
