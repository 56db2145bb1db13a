--TEST--
Redis: after pcntl_fork() the child holds nothing (isAcquired() false, release() throws) and never releases the parent's hold; the parent's 1 s lease keeps being renewed
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r15-fork');
$l = new DistributedLock($name, dlt_ropts(['lease' => 1.0]));
$l->acquire();
$token = $l->getFencingToken();
$hash = dlt_redis_hash($name);
$out = tempnam(sys_get_temp_dir(), 'dlt-rfork');
$pid = pcntl_fork();
if ($pid === 0) {
    $r = [];
    $r[] = 'child isAcquired: ' . var_export($l->isAcquired(), true);
    try {
        $l->release();
        $r[] = 'child release: ok?!';
    } catch (DistributedLockException $e) {
        $r[] = 'child release: ' . get_class($e);
    }
    try {
        $l->checkHeld();
        $r[] = 'child checkHeld: ok?!';
    } catch (DistributedLockException $e) {
        $r[] = 'child checkHeld: throws';
    }
    /* a new lock in the child uses the child's own connection */
    $mine = new DistributedLock($name, dlt_ropts());
    $r[] = 'child tryAcquire: ' . var_export($mine->tryAcquire(), true);
    /* stay a while past the lease: the child must neither renew nor release */
    usleep(1500000);
    file_put_contents($out, implode("\n", $r) . "\n");
    exit(0);
}
pcntl_waitpid($pid, $status);
echo file_get_contents($out);
unlink($out);
var_dump(pcntl_wexitstatus($status));
/* the parent still holds, on its own connection, and its watchdog still renews */
var_dump($l->isAcquired(), dlt_redis_hash($name) === $hash);
$t = microtime(true);
$ok = true;
while (microtime(true) - $t < 3.0) {          /* three leases */
    $p = dlt_redis('PTTL', $name);
    if (!$l->isAcquired() || !is_int($p) || $p <= 0) {
        $ok = false;
    }
    usleep(100000);
}
var_dump($ok, $l->getFencingToken() === $token, dlt_redis_hash($name) === $hash);
$l->checkHeld();
$l->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($name) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r15-fork'));
?>
--EXPECT--
child isAcquired: false
child release: DistributedLockException
child checkHeld: throws
child tryAcquire: false
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
