--TEST--
Redis: the SIGTERM pattern (release() then exit() in a handler while acquire() waits in BLPOP) releases at once (release() used to read the BLPOP's reply, fail and forget the hold: the key stayed a whole lease)
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$a = dlt_rkey('r042-a');
$b = dlt_rkey('r042-b');
dlt_redis_clean($a);
dlt_redis_clean($b);
/* the parent holds b; the child holds a (30 s lease) and waits for b */
$lb = new DistributedLock($b, dlt_ropts());
var_dump($lb->acquire(10));
$c = dlt_rspawn('
$la = new DistributedLock($argv[1], dlt_ropts(["lease" => 30]));
$lb = new DistributedLock($argv[2], dlt_ropts());
pcntl_async_signals(true);
pcntl_signal(SIGTERM, function () use ($la) {
    try {
        $la->release();
        echo "handler: released\n";
    } catch (Throwable $e) {
        echo "handler: ", get_class($e), ": ", $e->getMessage(), "\n";
    }
    exit(0);
});
echo $la->acquire(10) ? "child holds a\n" : "child does not hold a\n";
$lb->acquire();
echo "child got b (unexpected)\n";
', [$a, $b]);
echo dlt_line($c), "\n";
/* the child is blocked on b once its waiter is queued */
var_dump(dlt_until(fn () => count(array_filter(DistributedLock::participants($b, dlt_ropts()), fn ($p) => !$p['holder'])) === 1, 30));
dlt_signal($c, SIGTERM);
echo dlt_line($c), "\n";
echo "exit status ", dlt_finish($c), "\n";
/* a is free at once, not after its 30 s lease */
$la = new DistributedLock($a, dlt_ropts());
var_dump($la->acquire(10));
$la->release();
$lb->release();
var_dump(dlt_redis_leftovers($a), dlt_redis_leftovers($b));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r042-a'));
dlt_redis_clean(dlt_rkey('r042-b'));
?>
--EXPECT--
bool(true)
child holds a
bool(true)
handler: released
exit status 0
bool(true)
array(0) {
}
array(0) {
}
