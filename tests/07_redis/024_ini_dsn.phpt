--TEST--
Redis: INI dlock.dsn and dlock.lease are the defaults of new locks; the option overrides them
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r24-ini');
$c = dlt_rspawn('
var_export(ini_get("dlock.dsn") === "redis://" . dlt_redis_addr()); echo "\n";
$l = new DistributedLock($argv[1]);        /* no options: the INI defaults */
var_export($l->acquire(5)); echo "\n";
fgets(STDIN);
$l->release();
$m = new DistributedLock($argv[1], ["lease" => 20.0]);
$m->acquire(5);
echo "held again\n";
fgets(STDIN);
$m->release();
', [$name], '-d ' . escapeshellarg('dlock.dsn=redis://' . dlt_redis_addr()) . ' -d dlock.lease=5');
echo dlt_line($c), "\n", dlt_line($c), "\n";
$p = dlt_redis('PTTL', $name);
echo $p > 0 && $p <= 5000 ? "lease from dlock.lease\n" : "PTTL $p\n";
dlt_send($c, 'go');
echo dlt_line($c), "\n";
$p = dlt_redis('PTTL', $name);
echo $p > 5000 && $p <= 20000 ? "lease from the option\n" : "PTTL $p\n";
dlt_send($c, 'go');
var_dump(dlt_finish($c));
var_dump(dlt_until(fn() => dlt_redis_leftovers($name) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r24-ini'));
?>
--EXPECT--
true
true
lease from dlock.lease
held again
lease from the option
int(0)
bool(true)
