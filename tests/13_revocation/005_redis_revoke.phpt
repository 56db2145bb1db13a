--TEST--
Revocation (Redis): a request PUBLISHed on the lock's revocation channel reaches a revocable holder in another process through its subscriber thread; the listener runs at a safe point of a busy loop; an ignoring holder keeps the lock; a free lock asks nobody
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('revoke');
dlt_redis_clean($name);
var_dump(DistributedLock::requestRevocation($name, dlt_ropts()));
$holder = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
$seen = 0;
$l->onRevocation(function (DistributedLock $lock) use (&$seen) { $seen++; });
var_dump($l->acquire(10));
echo "held\n";
$deadline = microtime(true) + 30;
while ($seen === 0 && microtime(true) < $deadline) {
}
echo $seen === 1 && $l->isRevocationRequested() ? "revoked while busy\n" : "listener did not run\n";
$l->release();
/* an ignoring holder: revocable, no listener */
$l = new DistributedLock($argv[1], dlt_ropts(["revocable" => true]));
var_dump($l->acquire(10), $l->isRevocationRequested());
echo "held again\n";
$deadline = microtime(true) + 30;
while (!$l->isRevocationRequested() && microtime(true) < $deadline);
echo $l->isRevocationRequested() ? "requested, kept\n" : "not requested\n";
fgets(STDIN);
var_dump($l->isAcquired());
$l->release();
echo "done\n";
', [$name]);
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
var_dump(DistributedLock::requestRevocation($name, dlt_ropts()));
echo dlt_line($holder), "\n";
echo dlt_line($holder), "\n", dlt_line($holder), "\n", dlt_line($holder), "\n";
var_dump(DistributedLock::requestRevocation($name, dlt_ropts()));
echo dlt_line($holder), "\n";
$other = new DistributedLock($name, dlt_ropts());
var_dump($other->tryAcquire());
dlt_send($holder, 'go');
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
var_dump(dlt_finish($holder));
var_dump($other->acquire(10));
$other->release();
dlt_redis_clean($name);
?>
--EXPECT--
int(0)
bool(true)
held
int(1)
revoked while busy
bool(true)
bool(false)
held again
int(1)
requested, kept
bool(false)
bool(true)
done
int(0)
bool(true)
