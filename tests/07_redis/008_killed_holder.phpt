--TEST--
Redis: a holder killed with SIGKILL (no release) frees the lock when its lease ends; another process acquires within lease + 1 s with a higher token
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r08-killed');
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 2.0]));
$l->acquire();
echo "held ", $l->getFencingToken(), "\n";
fgets(STDIN);
', [$name]);
$line = dlt_line($c);
echo preg_match('/^held \d+$/', $line) ? "child holds\n" : "unexpected: $line\n";
$old = (int) substr($line, 5);
dlt_signal($c, 9);
$t = microtime(true);
dlt_finish($c);
var_dump(dlt_redis('EXISTS', $name));          /* no release ran: the lease is what frees it */
$l = new DistributedLock($name, dlt_ropts());
var_dump($l->acquire(10));
$dt = microtime(true) - $t;
echo $dt < 3.0 ? "acquired within lease + 1 s\n" : "acquired after $dt s\n";
var_dump($l->getFencingToken() > $old, count(dlt_redis_hash($name)));
$l->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($name) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r08-killed'));
?>
--EXPECT--
child holds
int(1)
bool(true)
acquired within lease + 1 s
bool(true)
int(1)
bool(true)
