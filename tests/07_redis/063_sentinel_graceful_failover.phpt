--TEST--
Redis: a graceful Sentinel fail-over (SENTINEL FAILOVER, the old master answering until it is converted) never leaves two holders: the holder's isAcquired() is false before another process is granted, checkHeld() agrees, and the new holder's token is higher
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';

function master_port(string $sentinel): int
{
    $r = dlt_redis_at($sentinel, 'SENTINEL', 'get-master-addr-by-name', 'dlock');
    return is_array($r) ? (int) $r[1] : 0;
}

$base = dlt_redis_own_port(70);
dlt_redis_sh('start-replicated', (string) $base);
$sentinel = '127.0.0.1:' . ($base + 2);
$opts = ['dsn' => "redis-sentinel://$sentinel/dlock", 'connect_timeout' => 3, 'wait_replicas' => 1,
         'lease' => 2.5];
$name = dlt_rkey('r63-graceful');
$a = new DistributedLock($name, $opts);
var_dump($a->acquire(5));
$ta = $a->getFencingToken();

/* B asks the sentinels all along and takes the lock as soon as it can */
$b = dlt_rspawn('
$b = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 3, "wait_replicas" => 1]);
fgets(STDIN);
$end = microtime(true) + 60;
while (microtime(true) < $end) {
    try {
        if ($b->tryAcquire()) {
            printf("%.6f %d\n", microtime(true), $b->getFencingToken());
            $b->release();
            exit(0);
        }
    } catch (DistributedLockException $e) {
        /* fail-over under way, or the new master has no replica yet to
         * acknowledge (wait_replicas) until Sentinel converts the old one */
    }
    usleep(20000);
}
echo "0 0\n";
', [$name, "redis-sentinel://$sentinel/dlock"]);
dlt_send($b, 'go');

/* the fail-over, while A looks at isAcquired() every few ms; the old master
 * keeps answering until Sentinel converts it (about 10 s): A waits past that */
$lastTrue = 0.0;
$granted = null;
$failedOver = null;
$t0 = microtime(true);
$nextTry = 0.0;
while (microtime(true) - $t0 < 60) {
    $now = microtime(true);
    if ($a->isAcquired()) {
        $lastTrue = $now;
    }
    if ($failedOver === null && $now >= $nextTry) {
        $r = dlt_redis_at($sentinel, 'SENTINEL', 'FAILOVER', 'dlock'); /* NOGOODSLAVE: not yet */
        $nextTry = $now + 0.1;
        if ($r === 'OK') {
            $failedOver = $now;
        }
    }
    $chunk = (string) fread($b['out'], 4096);
    $b['buf'] .= $chunk;
    if ($granted === null && str_contains($b['buf'], "\n")) {
        $granted = explode(' ', trim(dlt_line($b)));
    }
    if ($failedOver !== null && $now - $failedOver > 14 && master_port($sentinel) === $base + 1) {
        break;
    }
    usleep(5000);
}
echo $failedOver !== null ? "failed over\n" : "no fail-over\n";
var_dump(master_port($sentinel) === $base + 1);
if ($granted === null) {
    /* A kept its lock through the fail-over (the promoted replica has it):
     * the server agrees, and B gets it once A lets go */
    if ($a->isAcquired()) {
        $a->checkHeld();
        $lastTrue = microtime(true);
        $a->release();
    }
    $granted = explode(' ', trim(dlt_line($b, 30)));
} elseif ($a->isAcquired()) {
    echo "A still reports the lock B was granted\n";
}
[$tb, $tokb] = [(float) $granted[0], (int) ($granted[1] ?? 0)];
echo $tb > 0 ? "B granted\n" : "B never granted\n";
echo $lastTrue < $tb ? "A's isAcquired() was false before B was granted\n"
    : sprintf("DOUBLE HOLDER: A true until +%.2f s, B granted at +%.2f s\n", $lastTrue - $t0, $tb - $t0);
var_dump($tokb > $ta);
try {
    $a->checkHeld();
    echo "checkHeld: held?!\n";
} catch (Throwable $e) {
    echo "checkHeld: not held\n";
}
var_dump(dlt_finish($b));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop-replicated', (string) dlt_redis_own_port(70)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
failed over
bool(true)
B granted
A's isAcquired() was false before B was granted
bool(true)
checkHeld: not held
int(0)
