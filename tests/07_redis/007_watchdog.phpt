--TEST--
Redis: the watchdog renews a 1 s lease through a 5 s critical section; another process's tryAcquire() stays false and isAcquired() stays true throughout
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r07-watchdog');
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 1.0]));
$l->acquire();
echo "held\n";
$t0 = microtime(true);
$checks = 0;
$lost = 0;
while (microtime(true) - $t0 < 5.0) {     /* the long critical section */
    $checks++;
    if (!$l->isAcquired()) { $lost++; }
    usleep(50000);
}
echo $checks > 50 && $lost === 0 ? "isAcquired true throughout\n" : "$lost of $checks checks said not held\n";
$l->checkHeld();
echo "checkHeld ok\n";
$l->release();
', [$name]);
echo dlt_line($c), "\n";
$t0 = microtime(true);
$o = new DistributedLock($name, dlt_ropts());
$tries = $got = 0;
$pttlOk = true;
while (microtime(true) - $t0 < 4.5) {
    $tries++;
    if ($o->tryAcquire()) {
        $got++;
        $o->release();
    }
    $p = dlt_redis('PTTL', $name);
    if (!is_int($p) || $p <= 0 || $p > 1000) {
        $pttlOk = false;
    }
    usleep(100000);
}
echo $tries > 20 && $got === 0 ? "tryAcquire false throughout\n" : "tryAcquire got the lock $got of $tries times\n";
var_dump($pttlOk);
echo dlt_line($c, 10), "\n", dlt_line($c, 10), "\n";
var_dump(dlt_finish($c));
var_dump(dlt_until(fn() => dlt_redis_leftovers($name) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r07-watchdog'));
?>
--EXPECT--
held
tryAcquire false throughout
bool(true)
isAcquired true throughout
checkHeld ok
int(0)
bool(true)
