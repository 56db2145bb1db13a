--TEST--
Redis: a signal handler's acquire() while acquire() waits for the lock script's reply gets its own connection: it never reads the other call's grant (no second holder)
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* its own server: the test pauses it */
$addr = dlt_redis_sh('start', (string) dlt_redis_own_port(40));
$x = dlt_rkey('r040-x');
$y = dlt_rkey('r040-y');
/* another process holds x */
$holder = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts([], $argv[2]));
echo $l->acquire(10) ? "held\n" : "not held\n";
fgets(STDIN);
$l->release();
echo "released\n";
', [$x, $addr]);
echo dlt_line($holder), "\n";

$ly = new DistributedLock($y, dlt_ropts(['connect_timeout' => 10], $addr));
$lx = new DistributedLock($x, dlt_ropts(['connect_timeout' => 10], $addr));
var_dump($ly->acquire(10)); /* loads the scripts on the pooled connection */
$ly->release();
$seen = null;
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use ($lx, &$seen) {
    $seen = $lx->acquire(6); /* x is held by the other process: false */
});
/* the server holds every script call for 4 s: acquire()'s lock script is
 * in flight on the pooled connection when the alarm's handler runs */
var_dump(dlt_redis_at($addr, 'CLIENT', 'PAUSE', '4000', 'WRITE'));
pcntl_alarm(1);
var_dump($ly->acquire(20));
echo "handler ran: ", $seen === null ? "no" : "yes", "\n";
echo "handler's acquire(6) of a lock held elsewhere: ", var_export($seen, true), "\n";
var_dump($lx->isAcquired());
var_dump($ly->isAcquired());
/* y's hold is ours and real: nobody else gets it */
$other = new DistributedLock($y, dlt_ropts([], $addr));
var_dump($other->tryAcquire());
$ly->release();
dlt_send($holder, 'go');
echo dlt_line($holder), "\n";
dlt_finish($holder);
var_dump(dlt_redis_leftovers($x, $addr), dlt_redis_leftovers($y, $addr));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(40)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
held
bool(true)
string(2) "OK"
bool(true)
handler ran: yes
handler's acquire(6) of a lock held elsewhere: false
bool(false)
bool(true)
bool(false)
released
array(0) {
}
array(0) {
}
