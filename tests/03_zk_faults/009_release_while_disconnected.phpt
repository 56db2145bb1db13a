--TEST--
release() while the server is unreachable: reported, then the node is deleted in the background once the server is back (no orphan blocks the queue)
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$port = (string) dlt_zk_port(31);
$hosts = dlt_zk('start', $port);
/* a long session: only the guaranteed delete, not expiry, can free the lock in time */
$opts = ['hosts' => $hosts, 'session_timeout' => 30000, 'connect_timeout' => 1];
$path = '/dlock-tests/faults-release-offline';
$l = new DistributedLock($path, $opts);
var_dump($l->acquire());
dlt_zk('crash', $port);
var_dump(dlt_until(fn() => !$l->isAcquired(), 20));   /* the client noticed */
try {
    $l->release();
} catch (DistributedLockConnectionException $e) {
    echo get_class($e), ': ', preg_replace('/: its node.*/', '', $e->getMessage()), "\n";
}
var_dump($l->isAcquired());
dlt_zk('resume', $port);
$other = dlt_spawn('
$l = new DistributedLock($argv[1], ["hosts" => $argv[2]]);
$t = microtime(true);
var_export($l->acquire(40)); echo "\n";
echo microtime(true) - $t < 25 ? "well before the session timeout\n" : "only after expiry\n";
$l->release();
', [$path, $hosts]);
echo dlt_line($other, 60), "\n", dlt_line($other, 60), "\n";
var_dump(dlt_finish($other));
dlt_zk('stop', $port);
?>
--EXPECT--
bool(true)
bool(true)
DistributedLockConnectionException: lock /dlock-tests/faults-release-offline released locally, but ZooKeeper is unreachable
bool(false)
true
well before the session timeout
int(0)
