--TEST--
Redis: one process holds two locks on one server as two ACL users (each allowed only its own keys); the watchdog renews each as its own user, so both 1 s leases outlive a 4 s critical section
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$port = dlt_redis_own_port(52);
$addr = dlt_redis_sh('start', (string) $port);
/* each user may touch only keys with its name in them (and publish anywhere) */
var_dump(dlt_redis_at($addr, 'ACL', 'SETUSER', 'alice', 'on', '>apw', '~*alice*', '&*', '+@all'));
var_dump(dlt_redis_at($addr, 'ACL', 'SETUSER', 'bob', 'on', '>bpw', '~*bob*', '&*', '+@all'));
$na = dlt_rkey('r52-alice');
$nb = dlt_rkey('r52-bob');
$c = dlt_rspawn('
[, $addr, $na, $nb] = $argv;
$a = new DistributedLock($na, ["dsn" => "redis://alice:apw@$addr", "lease" => 1.0, "connect_timeout" => 5]);
$b = new DistributedLock($nb, ["dsn" => "redis://bob:bpw@$addr", "lease" => 1.0, "connect_timeout" => 5]);
$a->acquire();
$b->acquire();
echo "held\n";
$t = microtime(true);
$checks = $lost = 0;
while (microtime(true) - $t < 4.0) {
    $checks++;
    if (!$a->isAcquired() || !$b->isAcquired()) {
        $lost++;
    }
    usleep(50000);
}
echo $lost === 0 ? "both held throughout\n" : "$lost of $checks checks found a lock lost\n";
foreach ([$a, $b] as $l) {
    try {
        $l->checkHeld();
        $l->release();
        echo "released\n";
    } catch (DistributedLockException $e) {
        echo get_class($e), ": ", $e->getMessage(), "\n";
    }
}
', [$addr, $na, $nb]);
echo dlt_line($c), "\n";
/* another process (the default user) tries both for the length of the section */
$oa = new DistributedLock($na, dlt_ropts([], $addr));
$ob = new DistributedLock($nb, dlt_ropts([], $addr));
$t = microtime(true);
$tries = $got = 0;
while (microtime(true) - $t < 3.5) {
    $tries++;
    foreach ([$oa, $ob] as $o) {
        try {
            if ($o->tryAcquire()) {
                $got++;
                $o->release();
            }
        } catch (DistributedLockConnectionException $e) {
            /* a slow reply on a loaded machine: not granted */
        }
    }
    usleep(100000);
}
echo $got === 0 ? "tryAcquire false throughout\n" : "another process got a lock $got of $tries times\n";
echo dlt_line($c), "\n", dlt_line($c), "\n", dlt_line($c), "\n";
var_dump(dlt_finish($c));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(52)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
string(2) "OK"
string(2) "OK"
held
tryAcquire false throughout
both held throughout
released
released
int(0)
