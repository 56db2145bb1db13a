--TEST--
Redis: a stalled server does not starve the watchdog: while renewals to a stopped server hang, a 1 s lease on a healthy server is still renewed and no other process can take that lock
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$healthy = dlt_redis_sh('start', (string) dlt_redis_own_port(53));
$stalled = dlt_redis_sh('start', (string) dlt_redis_own_port(63));
$name = dlt_rkey('r53-healthy');
$c = dlt_rspawn('
[, $healthy, $stalled, $name] = $argv;
/* renewed every 2 s; a renewal to a stalled server waits up to 2 s */
$s = new DistributedLock($name, dlt_ropts(["lease" => 6.0], $stalled));
$h = new DistributedLock($name, dlt_ropts(["lease" => 1.0], $healthy));
$s->acquire();
$h->acquire();
echo "held\n";
fgets(STDIN);                          /* the other server is stopped now */
$t = microtime(true);
$checks = $lost = 0;
while (microtime(true) - $t < 5.0) {
    $checks++;
    if (!$h->isAcquired()) {
        $lost++;
    }
    usleep(50000);
}
echo $lost === 0 ? "healthy lock held throughout\n" : "$lost of $checks checks found the healthy lock lost\n";
$h->checkHeld();
$h->release();
echo "released\n";
fgets(STDIN);                          /* resumed */
try { $s->release(); } catch (DistributedLockException $e) { /* its lease may have run out */ }
', [$healthy, $stalled, $name]);
echo dlt_line($c), "\n";
dlt_redis_sh('pause', (string) dlt_redis_own_port(63));
dlt_send($c, 'paused');
$o = new DistributedLock($name, dlt_ropts([], $healthy));
$t = microtime(true);
$tries = $got = 0;
while (microtime(true) - $t < 4.5) {
    $tries++;
    try {
        if ($o->tryAcquire()) {
            $got++;
            $o->release();
        }
    } catch (DistributedLockConnectionException $e) {
        /* a slow reply on a loaded machine: not granted */
    }
    usleep(100000);
}
echo $got === 0 ? "tryAcquire false throughout\n" : "another process got the healthy lock $got of $tries times\n";
echo dlt_line($c), "\n", dlt_line($c), "\n";
dlt_redis_sh('resume', (string) dlt_redis_own_port(63));
dlt_send($c, 'resumed');
var_dump(dlt_finish($c));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
foreach ([53, 63] as $n) {
    try { dlt_redis_sh('resume', (string) dlt_redis_own_port($n)); } catch (Throwable $e) { }
    try { dlt_redis_sh('stop', (string) dlt_redis_own_port($n)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
}
?>
--EXPECT--
held
tryAcquire false throughout
healthy lock held throughout
released
int(0)
