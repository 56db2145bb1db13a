--TEST--
Read-write lock: queue order is respected, a writer queued before a reader gets the lock first
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-rw-order');
$rw = new DistributedReadWriteLock($path, dlt_opts());
$rw->readLock()->acquire();
$code = '
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
$l = $argv[2] === "read" ? $rw->readLock() : $rw->writeLock();
echo "queued\n";
$l->acquire(30);
echo $argv[2], " holds\n";
fgets(STDIN);
$l->release();
';
$w = dlt_spawn($code, [$path, 'write']);
echo dlt_line($w), "\n";
$deadline = microtime(true) + 20;
while (count(DistributedReadWriteLock::participants($path, dlt_opts())) < 2 && microtime(true) < $deadline);
$r = dlt_spawn($code, [$path, 'read']);
echo dlt_line($r), "\n";
while (count(DistributedReadWriteLock::participants($path, dlt_opts())) < 3 && microtime(true) < $deadline);
/* a reader queued behind a waiting writer waits, though a reader holds */
$q = DistributedReadWriteLock::participants($path, dlt_opts());
echo implode(' ', array_map(fn($e) => $e['type'] . ($e['holder'] ? '*' : ''), $q)), "\n";
$rw->readLock()->release();
echo dlt_line($w), "\n";
$q = DistributedReadWriteLock::participants($path, dlt_opts());
echo implode(' ', array_map(fn($e) => $e['type'] . ($e['holder'] ? '*' : ''), $q)), "\n";
dlt_send($w, 'go');
echo dlt_line($r), "\n";
dlt_send($r, 'go');
dlt_finish($w);
dlt_finish($r);
?>
--EXPECT--
queued
queued
read* write read
write holds
write* read
read holds
