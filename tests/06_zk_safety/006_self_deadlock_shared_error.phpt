--TEST--
Self-deadlock with shared kinds: a second read behind a writer that waits for our own read, and a semaphore lease behind our own, throw at once instead of waiting for ever
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
ini_set('dlock.max_wait', '20'); /* the old behaviour: a wait until this cap */
$path = dlt_path('safety-self-rw');
$r1 = new DistributedReadWriteLock($path, dlt_opts());
var_dump($r1->readLock()->acquire());
$w = dlt_spawn('
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
echo "writer queued\n";
var_export($rw->writeLock()->acquire(30)); echo "\n";
$rw->writeLock()->release();
', [$path]);
echo dlt_line($w), "\n";
var_dump(dlt_until(fn() => count(DistributedReadWriteLock::participants($path, dlt_opts())) === 2, 20));
$r2 = new DistributedReadWriteLock($path, dlt_opts());
$t = microtime(true);
try {
    $r2->readLock()->acquire();
    echo "second read granted?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), ": ", str_contains($e->getMessage(), 'wait for itself') ? 'would wait for itself' : $e->getMessage(), "\n";
}
var_dump(microtime(true) - $t < 5.0);
var_dump(count(DistributedReadWriteLock::participants($path, dlt_opts()))); /* our read and the writer: nothing left queued */
$r1->readLock()->release();
echo dlt_line($w), "\n";
var_dump(dlt_finish($w));

/* a semaphore of 2: our lease, another process's lease, and our second lease:
 * it may wait (the other lease can go), but never for our own lease */
$sp = dlt_path('safety-self-sem');
$s1 = new DistributedSemaphore($sp, 2, dlt_opts());
var_dump($s1->acquire());
$o = dlt_spawn('
$s = new DistributedSemaphore($argv[1], 2, dlt_opts());
$s->acquire();
echo "other holds\n";
/* releases once our second lease is queued behind it */
$t = microtime(true);
while (count(DistributedSemaphore::participants($argv[1], 2, dlt_opts())) < 3 && microtime(true) - $t < 20) { usleep(20000); }
$s->release();
echo "other released\n";
', [$sp]);
echo dlt_line($o), "\n";
$s2 = new DistributedSemaphore($sp, 2, dlt_opts());
var_dump($s2->acquire(15)); /* woken by the other lease's release, not by our own */
echo dlt_line($o), "\n";
dlt_finish($o);
$s2->release();
$s1->release();
?>
--EXPECT--
bool(true)
writer queued
bool(true)
DistributedLockException: would wait for itself
bool(true)
int(2)
true
int(0)
bool(true)
other holds
bool(true)
other released
