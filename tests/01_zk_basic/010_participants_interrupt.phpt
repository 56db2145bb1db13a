--TEST--
participants() can be interrupted: a pcntl handler that throws while it waits for a stalled server ends it at once with the handler's exception
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
$path = dlt_path('basic-participants-intr/' . getmypid());
$opts = ['hosts' => $px['hosts'], 'connect_timeout' => 30, 'session_timeout' => 20000];
var_dump(count(DistributedLock::participants($path, $opts)));
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () { throw new RuntimeException('alarm'); });
dlt_proxy($px, 'stall 60000'); /* the connection stays up, nothing gets through */
pcntl_alarm(1);
$t = microtime(true);
try {
    DistributedLock::participants($path, $opts);
    echo "no exception\n";
} catch (Throwable $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$took = microtime(true) - $t;
/* the alarm comes after 1 s; the bound is generous for a loaded machine */
echo $took <= 4.0 ? "interrupted in time\n" : sprintf("TOO SLOW (%.2f s)\n", $took);
dlt_proxy($px, 'clear');
var_dump(count(DistributedLock::participants($path, $opts)));
dlt_proxy_stop($px);
?>
--EXPECT--
int(0)
RuntimeException: alarm
interrupted in time
int(0)
