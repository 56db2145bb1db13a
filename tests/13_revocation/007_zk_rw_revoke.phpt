--TEST--
Revocation (ZooKeeper): DistributedLock::requestRevocation() on a read-write lock's path asks its holders (the readers, or the writer), whose revocable read and write locks run their listeners
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('revoke-rw');
$holder = dlt_spawn('
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
$seen = [];
foreach (["read" => $rw->readLock(), "write" => $rw->writeLock()] as $what => $l) {
    $l->onRevocation(function (DistributedLock $lock) use (&$seen, $what) { $seen[] = $what; });
}
foreach (["read" => $rw->readLock(), "write" => $rw->writeLock()] as $what => $l) {
    var_dump($l->acquire(10));
    echo "$what held\n";
    $deadline = microtime(true) + 30;
    while (!in_array($what, $seen, true) && microtime(true) < $deadline) {
    }
    echo in_array($what, $seen, true) && $l->isRevocationRequested() ? "$what revoked\n" : "$what: no listener call\n";
    $l->release();
}
', [$path]);
/* a second reader that is not revocable holds beside the first: both asked */
$other = (new DistributedReadWriteLock($path, dlt_opts()))->readLock();
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
var_dump($other->acquire(10));
var_dump(DistributedLock::requestRevocation($path, dlt_opts()));
echo dlt_line($holder), "\n";
$other->release();
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
var_dump(DistributedLock::requestRevocation($path, dlt_opts()));
echo dlt_line($holder), "\n";
var_dump(dlt_finish($holder), DistributedLock::requestRevocation($path, dlt_opts()));
?>
--EXPECT--
bool(true)
read held
bool(true)
int(2)
read revoked
bool(true)
write held
int(1)
write revoked
int(0)
int(0)
