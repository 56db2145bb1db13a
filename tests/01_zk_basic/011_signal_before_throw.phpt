--TEST--
A signal that arrives while a dlock call is about to throw is not lost: its pcntl handler runs before the exception is thrown (checkHeld() on a stalled link)
--EXTENSIONS--
dlock
pcntl
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/proxy.inc';
$px = dlt_proxy_start();
$l = new DistributedLock(dlt_path('basic-signal-before-throw/' . getmypid()),
                         ['hosts' => $px['hosts'], 'connect_timeout' => 3, 'session_timeout' => 20000]);
var_dump($l->acquire(10));
pcntl_async_signals(true);
$got = [];
pcntl_signal(SIGALRM, function () use (&$got) { $got[] = 'alarm'; });
dlt_proxy($px, 'stall 60000'); /* the connection stays up, nothing gets through */
pcntl_alarm(1); /* arrives while checkHeld() waits for an answer that never comes */
try {
    $l->checkHeld();
    echo "no exception\n";
} catch (DistributedLockException $e) {
    echo get_class($e), ', handler ran before the throw: ', json_encode($got), "\n";
}
pcntl_signal_dispatch();
echo 'handler runs in all: ', json_encode($got), "\n"; /* once, not lost, not twice */
dlt_proxy($px, 'clear');
var_dump($l->acquire(10), $l->isAcquired());
$l->release();
unset($l);
dlt_proxy_stop($px);
?>
--EXPECT--
bool(true)
DistributedLockLostException, handler ran before the throw: ["alarm"]
handler runs in all: ["alarm"]
bool(true)
bool(true)
