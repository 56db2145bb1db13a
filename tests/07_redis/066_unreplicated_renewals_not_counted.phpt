--TEST--
Redis with wait_replicas: a renewal the replica has not acknowledged extends nothing, so while replication is stalled the holder's isAcquired() turns false within a lease (the promoted replica's copy would expire then); once the replica catches up the hold is counted again
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$state = getenv('DLOCK_REDIS_STATE') ?: '/tmp/dlock-redis';
$base = dlt_redis_own_port(66);
dlt_redis_sh('start-replicated', (string) $base);
try {
    $opts = ['dsn' => 'redis-sentinel://127.0.0.1:' . ($base + 2) . '/dlock', 'connect_timeout' => 5,
             'wait_replicas' => 1, 'lease' => 1.5];
    $l = new DistributedLock(dlt_rkey('r66-unreplicated'), $opts);
    var_dump($l->acquire(10));
    usleep(2000000); /* renewed, and replicated, past one lease */
    var_dump($l->isAcquired());
    $replica = (int) file_get_contents("$state/" . ($base + 1) . '/pid');
    exec("kill -STOP $replica");
    $t = microtime(true);
    var_dump(dlt_until(fn() => !$l->isAcquired(), 10));
    echo 'uncertain within a lease and a renewal: ', json_encode(microtime(true) - $t < 1.5 + 0.5 + 1.0), "\n";
    /* the key is still on the master: renewals go on, they are only not counted */
    var_dump(dlt_redis_at("127.0.0.1:$base", 'EXISTS', dlt_rkey('r66-unreplicated')) === 1);
    exec("kill -CONT $replica");
    var_dump(dlt_until(fn() => $l->isAcquired(), 10));
    $l->release();
} finally {
    dlt_redis_sh('stop-replicated', (string) $base);
}
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
uncertain within a lease and a renewal: true
bool(true)
bool(true)
