--TEST--
Redis fail-over through Sentinel: without wait_replicas a lock the replica had not received is lost (a second holder gets it; checkHeld() says so); with wait_replicas => 1 it survives the fail-over, and an acquire no replica can acknowledge fails and leaves nothing
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$state = getenv('DLOCK_REDIS_STATE') ?: '/tmp/dlock-redis';

function master_port(string $sentinel): int
{
    $r = dlt_redis_at($sentinel, 'SENTINEL', 'get-master-addr-by-name', 'dlock');
    return is_array($r) ? (int) $r[1] : 0;
}

/* 1. replication stalled (the replica is stopped), the master dies: the
 * replica is promoted without the lock */
$base = dlt_redis_own_port(30);
dlt_redis_sh('start-replicated', (string) $base);
$sentinel = '127.0.0.1:' . ($base + 2);
$opts = ['dsn' => "redis-sentinel://$sentinel/dlock", 'connect_timeout' => 5];
$name = dlt_rkey('r30-failover');
$replica = (int) file_get_contents("$state/" . ($base + 1) . '/pid');
exec("kill -STOP $replica");
/* the stopped replica still receives into its socket buffer: cut the link
 * on the master's side, so what follows never reaches it */
dlt_redis_at("127.0.0.1:$base", 'CLIENT', 'KILL', 'TYPE', 'replica');
$a = new DistributedLock($name, $opts);
var_dump($a->acquire(5));
dlt_redis_sh('kill', (string) $base);
exec("kill -CONT $replica");
var_dump(dlt_until(fn() => master_port($sentinel) === $base + 1, 20));
$b = new DistributedLock($name, $opts);
var_dump(dlt_until(fn() => $b->tryAcquire(), 10)); /* a second holder */
try {
    $a->checkHeld();
    echo "checkHeld: held?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: lost\n";
}
var_dump($a->isAcquired(), $b->isAcquired(), $b->getFencingToken() >= 1);
$b->release();

/* 2. wait_replicas => 1: the acquire is reported once the replica has it,
 * and the promoted replica keeps it */
$base2 = dlt_redis_own_port(34);
dlt_redis_sh('start-replicated', (string) $base2);
$sentinel2 = '127.0.0.1:' . ($base2 + 2);
$opts2 = ['dsn' => "redis-sentinel://$sentinel2/dlock", 'connect_timeout' => 5, 'wait_replicas' => 1];
$a2 = new DistributedLock($name, $opts2);
var_dump($a2->acquire(5));
$token = $a2->getFencingToken();
dlt_redis_sh('kill', (string) $base2);
var_dump(dlt_until(fn() => master_port($sentinel2) === $base2 + 1, 20));
$b2 = new DistributedLock($name, ['wait_replicas' => 0] + $opts2);
var_dump(dlt_until(function () use ($b2) {
    try {
        return !$b2->tryAcquire();   /* false: the new master has our lock */
    } catch (DistributedLockConnectionException $e) {
        return false;                /* still failing over */
    }
}, 10));
$a2->checkHeld(); /* asked through the sentinel: held */
var_dump($a2->isAcquired());
$a2->release();
var_dump($b2->tryAcquire(), $b2->getFencingToken() > $token);
$b2->release();

/* 3. the new master has no replica left: WAIT cannot be satisfied */
$c2 = new DistributedLock($name, ['connect_timeout' => 0.5] + $opts2);
try {
    $c2->acquire(2);
    echo "acquire without a replica: ok?!\n";
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', str_contains($e->getMessage(), 'only 0 of 1 replicas') ? 'only 0 of 1 replicas' : $e->getMessage(), "\n";
}
var_dump($c2->isAcquired(), dlt_redis_at('127.0.0.1:' . ($base2 + 1), 'EXISTS', $name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
$state = getenv('DLOCK_REDIS_STATE') ?: '/tmp/dlock-redis';
foreach ([30, 34] as $n) {
    $base = dlt_redis_own_port($n);
    @exec('kill -CONT ' . (int) @file_get_contents("$state/" . ($base + 1) . '/pid') . ' 2>/dev/null');
    try { dlt_redis_sh('stop-replicated', (string) $base); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
checkHeld: lost
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
DistributedLockException: only 0 of 1 replicas
bool(false)
int(0)
