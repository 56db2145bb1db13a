--TEST--
Revocation (ZooKeeper): 'revocable' => true without a listener; isRevocationRequested() turns true; a holder that ignores the request keeps the lock and nobody else gets it; reset at release
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('revoke-ignored');
$holder = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["revocable" => true]));
var_dump($l->acquire(10));
echo "held\n";
/* ignore the request: only look at the flag (bounded), keep holding */
$deadline = microtime(true) + 30;
while (!$l->isRevocationRequested() && microtime(true) < $deadline);
echo $l->isRevocationRequested() ? "requested\n" : "not requested\n";
fgets(STDIN);
var_dump($l->isAcquired(), $l->isRevocationRequested());
$l->release();
var_dump($l->isRevocationRequested());
/* the next hold starts unrequested */
var_dump($l->acquire(10), $l->isRevocationRequested());
$l->release();
echo "done\n";
', [$path]);
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
$token = DistributedLock::participants($path, dlt_opts())[0]['token'];
var_dump(DistributedLock::requestRevocation($path, dlt_opts()));
echo dlt_line($holder), "\n";
/* asked twice: still one holder, still not released */
var_dump(DistributedLock::requestRevocation($path, dlt_opts()));
$other = new DistributedLock($path, dlt_opts());
var_dump($other->acquire(1.0));
$q = DistributedLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['token'] === $token, $q[0]['data']);
dlt_send($holder, 'go');
for ($i = 0; $i < 6; $i++) {
    echo dlt_line($holder), "\n";
}
var_dump(dlt_finish($holder));
var_dump($other->acquire(10));
$other->release();
?>
--EXPECT--
bool(true)
held
int(1)
requested
int(1)
bool(false)
int(1)
bool(true)
string(10) "__REVOKE__"
bool(true)
bool(true)
bool(false)
bool(true)
bool(false)
done
int(0)
bool(true)
