--TEST--
Revocation (Redis): a request that reaches the holder together with a pcntl signal whose handler throws is still delivered at that safe point (the handler's exception set aside and put back); a listener that throws there too throws with the handler's exception as its previous one
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('revoke-throwing-signal');
dlt_redis_clean($name);
$holder = dlt_rspawn('
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () { throw new RuntimeException("stop"); });
$l = new DistributedLock($argv[1], dlt_ropts());
$calls = 0;
$l->onRevocation(function () use (&$calls) { $calls++; });
var_dump($l->acquire(10));
echo "held\n";
try {
    sleep(60); /* one internal call: no safe point until the signal ends it */
    echo "sleep returned\n";
} catch (RuntimeException $e) {
    $requested = $l->isRevocationRequested(); /* evaluated before the next safe point */
    echo "caught: ", $e->getMessage(), ", requested: ", var_export($requested, true), "\n";
}
$deadline = microtime(true) + 30;
while ($calls === 0 && microtime(true) < $deadline) {
}
echo "listener calls: $calls\n";
$l->release();
/* again, with a listener that throws too */
$l->onRevocation(function () { throw new LogicException("listener"); });
var_dump($l->acquire(10));
echo "held again\n";
try {
    sleep(60);
    echo "sleep returned\n";
} catch (Exception $e) {
    echo "caught: ", get_class($e), " ", $e->getMessage(), ", previous: ", $e->getPrevious() ? $e->getPrevious()->getMessage() : "none", "\n";
}
$l->release();
', [$name]);
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
/* the child is inside sleep(): only its subscriber thread reads, so its read
 * byte count grows exactly when the request has reached it */
$io = function () use ($holder): int {
    preg_match('/^rchar: (\d+)/m', (string) @file_get_contents('/proc/' . $holder['pid'] . '/io'), $m);
    return (int) ($m[1] ?? -1);
};
$before = $io();
var_dump(DistributedLock::requestRevocation($name, dlt_ropts()));
/* a wait, not a check: where /proc/PID/io cannot be read (it was not, in the
 * PHP 8.4 chroot leg) it runs out after 10 s, long after the message came */
dlt_until(fn () => $before >= 0 && $io() > $before, 10);
usleep(100000); /* the thread raises the cell right after its read (atomics only) */
dlt_signal($holder, SIGUSR1);
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
echo dlt_line($holder), "\n", dlt_line($holder), "\n";
$before = $io();
var_dump(DistributedLock::requestRevocation($name, dlt_ropts()));
dlt_until(fn () => $before >= 0 && $io() > $before, 10);
usleep(100000);
dlt_signal($holder, SIGUSR1);
echo dlt_line($holder), "\n";
var_dump(dlt_finish($holder));
dlt_redis_clean($name);
?>
--EXPECT--
bool(true)
held
int(1)
caught: stop, requested: true
listener calls: 1
bool(true)
held again
int(1)
caught: LogicException listener, previous: stop
int(0)
