--TEST--
dlock_stats() per kind: a read-write lock's read and write parts, a semaphore and a multi-lock's members each count in their own kind's row; held follows each hold, nested holds count once
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
function row(string $kind): string
{
    $r = dlock_stats()['zookeeper'][$kind];
    return "$kind ok {$r['acquire']['ok']} held {$r['held']} released {$r['released']} waits {$r['wait_seconds']['count']} holds {$r['hold_seconds']['count']}";
}
dlock_stats_reset();
$rw = new DistributedReadWriteLock(dlt_path('stats-kinds-rw'), dlt_opts());
$rw->writeLock()->acquire(5);
$rw->readLock()->acquire(5); /* a downgrade: the read part holds beside the write */
echo row('write'), "\n", row('read'), "\n";
$rw->readLock()->release();
$rw->writeLock()->release();
echo row('write'), "\n", row('read'), "\n";
$s = new DistributedSemaphore(dlt_path('stats-kinds-sem'), 2, dlt_opts());
$s->acquire(5);
$s->acquire(5); /* nested: one hold */
echo row('semaphore'), "\n";
$s->release();
echo row('semaphore'), "\n";
$s->release();
echo row('semaphore'), "\n";
$m = new DistributedMultiLock([new DistributedLock(dlt_path('stats-kinds-m1'), dlt_opts()),
                               new DistributedLock(dlt_path('stats-kinds-m2'), dlt_opts())]);
$m->acquire(5);
echo row('mutex'), "\n";
$m->release();
echo row('mutex'), "\n";
?>
--EXPECT--
write ok 1 held 1 released 0 waits 1 holds 0
read ok 1 held 1 released 0 waits 1 holds 0
write ok 1 held 0 released 1 waits 1 holds 1
read ok 1 held 0 released 1 waits 1 holds 1
semaphore ok 2 held 1 released 0 waits 2 holds 0
semaphore ok 2 held 1 released 0 waits 2 holds 0
semaphore ok 2 held 0 released 1 waits 2 holds 1
mutex ok 2 held 2 released 0 waits 2 holds 0
mutex ok 2 held 0 released 2 waits 2 holds 2
