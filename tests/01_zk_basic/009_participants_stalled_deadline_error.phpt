--TEST--
participants() obeys its connect_timeout: against a stalled server (connection up, no answers) it throws a DistributedLockConnectionException within about connect_timeout, on a session opened with a longer one
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/proxy.inc';
$px = dlt_proxy_start();
$path = dlt_path('basic-participants-stall/' . getmypid());
/* one session (same hosts and session_timeout): the lock opens it generously */
$lockOpts = ['hosts' => $px['hosts'], 'connect_timeout' => 10, 'session_timeout' => 20000];
$opts = ['connect_timeout' => 1] + $lockOpts;
$l = new DistributedLock($path, $lockOpts);
var_dump($l->acquire(10), count(DistributedLock::participants($path, $opts)));
dlt_proxy($px, 'stall 60000'); /* the connection stays up, nothing gets through */
$t = microtime(true);
try {
    DistributedLock::participants($path, $opts);
    echo "no exception\n";
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$took = microtime(true) - $t;
/* connect_timeout is 1 s; the bound is generous for a loaded machine (the
 * client's own timeout would be 2/3 of the 20 s session) */
echo $took <= 4.0 ? "in time\n" : sprintf("TOO SLOW (%.2f s)\n", $took);
dlt_proxy($px, 'clear');
var_dump($l->acquire(10), count(DistributedLock::participants($path, $lockOpts)));
$l->release();
unset($l);
dlt_proxy_stop($px);
?>
--EXPECTF--
bool(true)
int(1)
DistributedLockConnectionException: %s: cannot list %s: no answer from ZooKeeper within connect_timeout (1.000 s)
in time
bool(true)
int(1)
