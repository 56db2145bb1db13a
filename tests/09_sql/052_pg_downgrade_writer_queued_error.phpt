--TEST--
SQL (postgres): a read-write downgrade (the write holder takes the read lock) is refused with a DistributedLockException while another process's writer is queued behind the write lock, as the README says and as on ZooKeeper and Redis: nothing is taken, the write lock is still held, and the writer gets the lock once it is released; with no writer queued the downgrade is granted (review SQL finding 7: it was granted)
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$b = 'postgres';
$name = dlt_skey('s52-downgrade', $b);
$rw = new DistributedReadWriteLock($name, dlt_sopts($b));
dlt_check($rw->writeLock()->acquire(5), 'write lock held');
$o = dlt_sspawn('
$rw = new DistributedReadWriteLock($argv[1], dlt_sopts("postgres"));
echo "queuing\n";
echo "writer: ", var_export($rw->writeLock()->acquire(60), true), "\n";
$rw->writeLock()->release();
', [$name]);
dlt_check(dlt_line($o) === 'queuing', 'another process queues a writer');
$queued = fn() => count(array_filter(dlt_sql_name_locks($b, $name), fn($r) => !$r['granted'] && !$r['shared'])) === 1;
dlt_check(dlt_until($queued, 30.0), 'the server shows the writer waiting');
$msg = '';
[$cls] = dlt_throws(fn() => $rw->readLock()->acquire(), $msg);
dlt_check($cls === 'DistributedLockException' && str_contains($msg, 'writer is queued'), 'downgrade refused: DistributedLockException', [$cls, $msg]);
dlt_check(!$rw->readLock()->isAcquired(), 'the read lock is not held');
$locks = dlt_sql_name_locks($b, $name);
dlt_check(count(array_filter($locks, fn($r) => $r['shared'])) === 0, 'no shared lock was taken on the server', $locks);
dlt_check($rw->writeLock()->isAcquired(), 'the write lock is still held');
$rw->writeLock()->release();
dlt_check(dlt_line($o) === 'writer: true', 'the queued writer gets the lock after the release');
dlt_finish($o);
dlt_check($rw->writeLock()->acquire(5), 'write lock held again, nobody queued');
dlt_check($rw->readLock()->acquire(5) && $rw->readLock()->isAcquired(), 'the downgrade is granted');
$rw->writeLock()->release();
dlt_check($rw->readLock()->isAcquired(), 'the read lock outlives the write lock');
$rw->readLock()->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s52-downgrade', 'postgres'));
?>
--EXPECT--
write lock held
another process queues a writer
the server shows the writer waiting
downgrade refused: DistributedLockException
the read lock is not held
no shared lock was taken on the server
the write lock is still held
the queued writer gets the lock after the release
write lock held again, nobody queued
the downgrade is granted
the read lock outlives the write lock
