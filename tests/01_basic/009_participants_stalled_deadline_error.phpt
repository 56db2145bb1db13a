--TEST--
participants() obeys connect_timeout: against a stalled server (connection up, no answers) it throws a DistributedLockConnectionException within about connect_timeout, as checkHeld() does
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/proxy.inc';
$px = dlt_proxy_start(2);
$path = dlt_path('basic-participants-stall/' . getmypid());
$opts = ['hosts' => $px['hosts'], 'connect_timeout' => 1, 'session_timeout' => 20000];
$l = new DistributedLock($path, $opts);
var_dump($l->acquire(10), count(DistributedLock::participants($path, $opts)));
dlt_proxy($px, 'stall 60000'); /* the connection stays up, nothing gets through */
foreach (['participants()' => fn() => DistributedLock::participants($path, $opts),
          'checkHeld()' => fn() => $l->checkHeld()] as $what => $f) {
    $t = microtime(true);
    try {
        $f();
        echo "$what: no exception\n";
    } catch (DistributedLockException $e) {
        echo "$what: ", get_class($e), "\n";
    }
    $took = microtime(true) - $t;
    /* connect_timeout is 1 s; the bound is generous for a loaded machine */
    echo "$what ", $took <= 3.0 ? 'in time' : sprintf('TOO SLOW (%.2f s)', $took), "\n";
}
dlt_proxy($px, 'clear');
var_dump($l->acquire(10), count(DistributedLock::participants($path, $opts)));
$l->release();
unset($l);
dlt_proxy_stop($px);
?>
--EXPECT--
bool(true)
int(1)
participants(): DistributedLockConnectionException
participants() in time
checkHeld(): DistributedLockLostException
checkHeld() in time
bool(true)
int(1)
