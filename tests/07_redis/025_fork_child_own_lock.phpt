--TEST--
Redis: a fork child takes, renews and drops locks of its own and exits promptly, while the parent's watchdog (inherited mid-wait) keeps serving the parent
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$a = dlt_rkey('r25-fork-parent');
$b = dlt_rkey('r25-fork-child');
/* lease 30: the parent's watchdog thread sleeps on its condition when we fork */
$l = new DistributedLock($a, dlt_ropts());
$l->acquire();
usleep(100000);
$out = tempnam(sys_get_temp_dir(), 'dlt-rfork2');
$pid = pcntl_fork();
if ($pid === 0) {
    $r = [];
    /* a lease short enough that the child's own watchdog must renew it */
    $mine = new DistributedLock($b, dlt_ropts(['lease' => 1.0]));
    $r[] = 'child acquire: ' . var_export($mine->acquire(5), true);
    $t = microtime(true);
    $ok = true;
    while (microtime(true) - $t < 2.0) {
        $ok = $ok && $mine->isAcquired();
        usleep(50000);
    }
    $r[] = 'child held through 2 leases: ' . var_export($ok, true);
    $mine->checkHeld();
    $mine->release();
    $r[] = 'child released';
    file_put_contents($out, implode("\n", $r) . "\n");
    exit(0);   /* module shutdown stops the child's watchdog: must not hang */
}
$t = microtime(true);
$exited = false;
while (microtime(true) - $t < 15) {
    if (pcntl_waitpid($pid, $status, WNOHANG) !== 0) {
        $exited = true;
        break;
    }
    usleep(20000);
}
if (!$exited) {
    exec('kill -9 ' . (int) $pid);
    pcntl_waitpid($pid, $status);
}
echo file_get_contents($out);
unlink($out);
echo $exited ? "child exited\n" : "child hung at exit (killed after 15 s)\n";
var_dump($l->isAcquired(), dlt_redis_hash($a) !== [], dlt_redis('EXISTS', $b));
$l->checkHeld();
$l->release();
var_dump(dlt_until(fn() => dlt_redis_leftovers($a) === [] && dlt_redis_leftovers($b) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r25-fork-parent'));
dlt_redis_clean(dlt_rkey('r25-fork-child'));
?>
--EXPECT--
child acquire: true
child held through 2 leases: true
child released
child exited
bool(true)
bool(true)
int(0)
bool(true)
