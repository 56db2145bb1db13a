--TEST--
Redis: max_hold caps renewal: with lease 1 and max_hold 2 the lock is lost about 2 s + lease after acquire, and another process acquires it then
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r19-max-hold');
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 1.0, "max_hold" => 2.0]));
$l->acquire();
$t0 = microtime(true);
echo "held ", $l->getFencingToken(), "\n";
$heldUntil = null;
while (microtime(true) - $t0 < 6.0) {
    if (!$l->isAcquired()) {
        $heldUntil = microtime(true) - $t0;
        break;
    }
    usleep(20000);
}
if ($heldUntil === null) {
    echo "still held after 6 s\n";
} else {
    echo $heldUntil >= 1.9 && $heldUntil <= 3.5 ? "lost between max_hold and max_hold + lease\n" : "lost after $heldUntil s\n";
}
try {
    $l->checkHeld();
    echo "checkHeld: ok?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: ", get_class($e), "\n";
}
fgets(STDIN);
', [$name]);
$line = dlt_line($c);
$t0 = microtime(true);
echo preg_match('/^held \d+$/', $line) ? "child holds\n" : "unexpected: $line\n";
$old = (int) substr($line, 5);
$l = new DistributedLock($name, dlt_ropts());
var_dump($l->acquire(10));
$dt = microtime(true) - $t0;
echo $dt >= 1.9 && $dt <= 3.5 ? "acquired after max_hold, within max_hold + lease + slack\n" : "acquired after $dt s\n";
var_dump($l->getFencingToken() > $old);
echo dlt_line($c, 10), "\n", dlt_line($c, 10), "\n";
dlt_send($c, 'exit');
var_dump(dlt_finish($c));
/* the child's request end did not touch our hold */
var_dump($l->isAcquired(), count(dlt_redis_hash($name)));
$l->checkHeld();
$l->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($name) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r19-max-hold'));
?>
--EXPECT--
child holds
bool(true)
acquired after max_hold, within max_hold + lease + slack
bool(true)
lost between max_hold and max_hold + lease
checkHeld: DistributedLockLostException
int(0)
bool(true)
int(1)
bool(true)
