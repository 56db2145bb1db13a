--TEST--
A checkHeld() that gets no answer from a stalled server (connection up) does not leave isAcquired() true: the hold counts as unconfirmed until the server answers again
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
$path = dlt_path('safety-check-stall/' . getmypid());
$l = new DistributedLock($path, ['hosts' => $px['hosts'], 'connect_timeout' => 1, 'session_timeout' => 20000]);
var_dump($l->acquire(10), $l->isAcquired());
dlt_proxy($px, 'stall 60000'); /* the connection stays up, nothing gets through */
try {
    $l->checkHeld();
    echo "no exception\n";
} catch (DistributedLockException $e) {
    echo get_class($e) === 'DistributedLockLostException' || get_class($e) === 'DistributedLockConnectionException'
        ? "check: no answer\n" : get_class($e) . ': ' . $e->getMessage() . "\n";
}
var_dump($l->isAcquired()); /* not "lost" and "held" at once */
dlt_proxy($px, 'clear');
var_dump(dlt_until(fn() => $l->isAcquired(), 20)); /* the server confirms it again */
$l->checkHeld();
$l->release();
unset($l);
dlt_proxy_stop($px);
?>
--EXPECT--
bool(true)
bool(true)
check: no answer
bool(false)
bool(true)
