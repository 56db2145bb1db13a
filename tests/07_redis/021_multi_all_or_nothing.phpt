--TEST--
Redis: DistributedMultiLock of Redis locks is all or nothing: with one part held elsewhere acquire($t) returns false holding none; once free it holds all
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$p = [dlt_rkey('r21-multi-a'), dlt_rkey('r21-multi-b')];
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
$l->acquire();
echo "holding\n";
fgets(STDIN);
$l->release();
echo "released\n";
', [$p[1]]);
echo dlt_line($c), "\n";
$locks = [new DistributedLock($p[0], dlt_ropts()), new DistributedLock($p[1], dlt_ropts())];
$m = new DistributedMultiLock($locks);
var_dump($m->getPath() === implode(',', $p));
$t = microtime(true);
var_dump($m->acquire(0.5), microtime(true) - $t >= 0.45);
var_dump($m->isAcquired(), $locks[0]->isAcquired(), $locks[1]->isAcquired());
var_dump(dlt_redis_leftovers($p[0]), dlt_redis_leftovers($p[1]) === [$p[1]]);
var_dump($m->tryAcquire(), dlt_redis_leftovers($p[0]));
dlt_send($c, 'go');
echo dlt_line($c), "\n";
var_dump(dlt_finish($c));
var_dump($m->acquire(10), $m->isAcquired(), $locks[0]->isAcquired(), $locks[1]->isAcquired());
var_dump($m->getFencingToken() === max(array_map(fn($l) => $l->getFencingToken(), $locks)));
var_dump(count(dlt_redis_hash($p[0])), count(dlt_redis_hash($p[1])));
$m->checkHeld();
$m->release();
var_dump($m->isAcquired(), $locks[0]->isAcquired(), $locks[1]->isAcquired());
var_dump(dlt_until(fn() => dlt_redis_leftovers($p[0]) === [] && dlt_redis_leftovers($p[1]) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r21-multi-a'));
dlt_redis_clean(dlt_rkey('r21-multi-b'));
?>
--EXPECT--
holding
bool(true)
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
array(0) {
}
bool(true)
bool(false)
array(0) {
}
released
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(1)
int(1)
bool(false)
bool(false)
bool(false)
bool(true)
