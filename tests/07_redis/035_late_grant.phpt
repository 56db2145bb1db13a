--TEST--
Redis: a grant whose reply arrives after most of its lease (the server stalled behind a slow command) is never reported held while another process holds the lock; synchronized() does not run its callback then
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$port = dlt_redis_own_port(35);
$addr = dlt_redis_sh('start', (string) $port);   /* started with DEBUG allowed from loopback */
$name = dlt_rkey('r35-late');
$flag = tempnam(sys_get_temp_dir(), 'dlt-late');
unlink($flag);
/* Z polls with tryAcquire once W's request is in */
$z = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 5.0], $argv[2]));
echo "ready\n";
fgets(STDIN);
$t = microtime(true);
while (microtime(true) - $t < 4) {
    try {
        if ($l->tryAcquire()) {
            touch($argv[3]);
            echo "Z holds\n";
            fgets(STDIN);
            $l->release();
            exit(0);
        }
    } catch (DistributedLockException $e) {
    }
    usleep(20000);
}
echo "Z never got it\n";
', [$name, $addr, $flag]);
echo dlt_line($z), "\n";
$warm = new DistributedLock(dlt_rkey('r35-warm'), dlt_ropts([], $addr));
$warm->acquire(5);
$warm->release();
/* W's lock script runs when the pause ends, with a 0.3 s lease; its reply
 * then waits behind a 1 s DEBUG SLEEP */
dlt_redis_at($addr, 'CLIENT', 'PAUSE', '600', 'ALL');
exec(sprintf('(sleep 0.2; timeout 5 redis-cli -h 127.0.0.1 -p %d debug sleep 1.0 >/dev/null 2>&1) >/dev/null 2>&1 &', $port));
dlt_send($z, 'go');
$w = new DistributedLock($name, dlt_ropts(['lease' => 0.3, 'connect_timeout' => 3], $addr));
$both = false;
try {
    $w->synchronized(function () use ($w, $flag, &$both) {
        /* the one promise: while we are inside, nobody else holds */
        $both = file_exists($flag) || !$w->isAcquired();
    }, 3.0);
    echo "W ran\n";
} catch (DistributedLockException $e) {
    echo "W did not get it in time\n"; /* Z took it after W's grant ran out: fine */
}
$zs = dlt_line($z, 10);
echo in_array($zs, ['Z holds', 'Z never got it'], true) ? "Z answered\n" : "Z: $zs\n";
dlt_send($z, 'go');
dlt_finish($z);
echo $both ? "W's callback ran while Z held the lock\n" : "never both\n";
@unlink($flag);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(35)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECTF--
ready
W %s
Z answered
never both
