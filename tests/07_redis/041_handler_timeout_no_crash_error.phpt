--TEST--
Redis: a signal handler's call that gives up (its connect_timeout passes) while acquire() waits for a reply does not close the interrupted call's connection (it used to: SIGSEGV)
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* its own server: the test pauses it */
$addr = dlt_redis_sh('start', (string) dlt_redis_own_port(41));
$y = dlt_rkey('r041-y');
$z = dlt_rkey('r041-z');
/* a child, so that a crash shows as its exit status */
$c = dlt_rspawn('
$ly = new DistributedLock($argv[1], dlt_ropts(["connect_timeout" => 10], $argv[3]));
var_dump($ly->acquire(10));
$ly->release();
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () use ($argv) {
    /* same server and credentials as $ly: the same pooled connection before the fix */
    $lz = new DistributedLock($argv[2], dlt_ropts(["connect_timeout" => 0.3], $argv[3]));
    try {
        var_dump($lz->tryAcquire());
    } catch (DistributedLockException $e) {
        echo "handler: ", get_class($e), "\n";
    }
});
echo dlt_redis_at($argv[3], "CLIENT", "PAUSE", "4000", "WRITE"), "\n";
pcntl_alarm(1);
var_dump($ly->acquire(20));
var_dump($ly->isAcquired());
$ly->release();
echo "done\n";
', [$y, $z, $addr]);
echo dlt_line($c, 60), "\n";
echo dlt_line($c, 60), "\n";
echo dlt_line($c, 60), "\n";
echo dlt_line($c, 60), "\n";
echo dlt_line($c, 60), "\n";
echo dlt_line($c, 60), "\n";
echo "exit status ", dlt_finish($c), "\n";
var_dump(dlt_redis_leftovers($y, $addr));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(41)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
OK
handler: DistributedLockConnectionException
bool(true)
bool(true)
done
exit status 0
array(0) {
}
