--TEST--
Revocation (ZooKeeper): a request from another process reaches a revocable holder; its listener runs at a safe point of a busy PHP loop, and it releases
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('revoke-listener');
/* the holder: revocable, busy in PHP code (no dlock call, no sleep) until its
 * listener has run; bounded by a deadline */
$holder = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
$seen = 0;
$l->onRevocation(function (DistributedLock $lock) use (&$seen) {
    $seen++;
    echo "listener: requested=", var_export($lock->isRevocationRequested(), true), "\n";
});
var_dump($l->acquire(10), $l->isRevocationRequested());
echo "held\n";
$deadline = microtime(true) + 30;
$spins = 0;
while ($seen === 0 && microtime(true) < $deadline) {
    $spins++;
}
echo $seen === 1 ? "revoked while busy\n" : "listener did not run\n";
$l->release();
var_dump($l->isRevocationRequested());
echo "released\n";
', [$path]);
echo dlt_line($holder), "\n", dlt_line($holder), "\n", dlt_line($holder), "\n";
$q = DistributedLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['holder']);
/* ask; nothing is released by the request itself */
var_dump(DistributedLock::requestRevocation($path, dlt_opts()));
echo dlt_line($holder), "\n", dlt_line($holder), "\n", dlt_line($holder), "\n", dlt_line($holder), "\n";
var_dump(dlt_finish($holder));
/* the holder released: the lock is free, and a request asks nobody */
var_dump(dlt_nodes($path), DistributedLock::requestRevocation($path, dlt_opts()));
$l = new DistributedLock($path, dlt_opts());
var_dump($l->tryAcquire());
$l->release();
?>
--EXPECT--
bool(true)
bool(false)
held
int(1)
bool(true)
int(1)
listener: requested=true
revoked while busy
bool(false)
released
int(0)
int(0)
int(0)
bool(true)
