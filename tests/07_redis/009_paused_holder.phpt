--TEST--
Redis: a holder paused (SIGSTOP) past its 1 s lease loses the lock; another acquires with a higher token; resumed, the first sees isAcquired() false and checkHeld()/release() throw DistributedLockLostException
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r09-paused');
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 1.0]));
$l->acquire();
echo "held ", $l->getFencingToken(), "\n";
fgets(STDIN);                        /* read after SIGCONT */
echo "isAcquired: ", var_export($l->isAcquired(), true), "\n";
try {
    $l->checkHeld();
    echo "checkHeld: still held?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: ", get_class($e), "\n";
}
var_export($l->isAcquired()); echo "\n";
try {
    $l->release();
    echo "release: ok?!\n";
} catch (DistributedLockLostException $e) {
    echo "release: ", get_class($e), "\n";
}
echo "try again: ", var_export($l->tryAcquire(), true), "\n";
', [$name]);
$line = dlt_line($c);
$old = (int) substr($line, 5);
echo preg_match('/^held \d+$/', $line) ? "child holds\n" : "unexpected: $line\n";
dlt_signal($c, 19);                          /* SIGSTOP */
$l = new DistributedLock($name, dlt_ropts(['lease' => 30.0]));
$t = microtime(true);
var_dump($l->acquire(20));
$waited = microtime(true) - $t;
echo $waited > 0.3 && $waited < 3.0 ? "acquired once the paused holder's lease ended\n" : "acquired after $waited s\n";
var_dump($l->getFencingToken() > $old);
$mine = dlt_redis_hash($name);
dlt_signal($c, 18);                          /* SIGCONT */
dlt_send($c, 'check');
for ($i = 0; $i < 5; $i++) {
    echo dlt_line($c), "\n";
}
var_dump(dlt_finish($c));
/* the resumed holder neither renewed nor deleted our hold */
var_dump($l->isAcquired(), dlt_redis_hash($name) === $mine, count($mine));
$l->checkHeld();
$l->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($name) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r09-paused'));
?>
--EXPECT--
child holds
bool(true)
acquired once the paused holder's lease ended
bool(true)
isAcquired: false
checkHeld: DistributedLockLostException
false
release: DistributedLockLostException
try again: false
int(0)
bool(true)
bool(true)
int(1)
bool(true)
