--TEST--
Redis: tryAcquire() is false while another object (same process) or another process holds the lock, true once free
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r02-try');
$a = new DistributedLock($name, dlt_ropts());
$b = new DistributedLock($name, dlt_ropts());
var_dump($a->tryAcquire(), $b->tryAcquire(), $b->isAcquired());
/* two objects of one process are two owners: two distinct hash fields are never both present */
var_dump(count(dlt_redis_hash($name)));

$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
echo $l->tryAcquire() ? "got\n" : "busy\n";
echo "fields ", count(dlt_redis_hash($argv[1])), "\n";
fgets(STDIN);
echo $l->tryAcquire() ? "got\n" : "busy\n";
echo "fields ", count(dlt_redis_hash($argv[1])), "\n";
fgets(STDIN);
$l->release();
echo "released\n";
', [$name]);
echo dlt_line($c), "\n", dlt_line($c), "\n";
$a->release();
var_dump(dlt_until(fn() => dlt_redis('EXISTS', $name) === 0, 5));
dlt_send($c, 'go');
echo dlt_line($c), "\n", dlt_line($c), "\n";
var_dump($b->tryAcquire(), $a->tryAcquire());
dlt_send($c, 'go');
echo dlt_line($c), "\n";
var_dump(dlt_finish($c));
var_dump($b->tryAcquire());
$b->release();
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r02-try'));
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
int(1)
busy
fields 1
bool(true)
got
fields 1
bool(false)
bool(false)
released
int(0)
bool(true)
array(0) {
}
