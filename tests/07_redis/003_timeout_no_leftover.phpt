--TEST--
Redis: acquire(0.3) on a held lock returns false after about 0.3 s and leaves no queue entry, waiter or wake key behind
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r03-timeout');
$holder = new DistributedLock($name, dlt_ropts());
var_dump($holder->acquire());
$before = dlt_redis_hash($name);
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
$t = microtime(true);
$r = $l->acquire(0.3);
$dt = microtime(true) - $t;
var_export($r); echo "\n";
echo $dt >= 0.25 && $dt < 2 ? "waited about 0.3 s\n" : "waited $dt s\n";
var_export($l->isAcquired()); echo "\n";
fgets(STDIN);
/* the same object again, in the same process (a waiter that gave up can wait again) */
var_export($l->acquire(0.3)); echo "\n";
fgets(STDIN);
', [$name]);
echo dlt_line($c), "\n", dlt_line($c), "\n", dlt_line($c), "\n";
/* checked while the child still runs: acquire() cleans up before it returns */
var_dump(dlt_redis_leftovers($name) === [$name], dlt_redis_hash($name) === $before);
dlt_send($c, 'again');
echo dlt_line($c), "\n";
var_dump(dlt_redis_leftovers($name) === [$name]);
dlt_send($c, 'exit');
var_dump(dlt_finish($c));
/* in-process: a second object of the holder's process */
$other = new DistributedLock($name, dlt_ropts());
var_dump($other->acquire(0.3), dlt_redis_leftovers($name) === [$name]);
$holder->release();
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r03-timeout'));
?>
--EXPECT--
bool(true)
false
waited about 0.3 s
false
bool(true)
bool(true)
false
bool(true)
int(0)
bool(false)
bool(true)
array(0) {
}
