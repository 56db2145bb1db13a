--TEST--
Redis: a child forked by a signal handler while acquire() waits, which exits at once, leaves the parent's wait alone (it used to take the parent's waiter out of the queue)
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r046-fork');
dlt_redis_clean($name);
$waiters = fn () => count(array_filter(DistributedLock::participants($name, dlt_ropts()), fn ($p) => !$p['holder']));
$l = new DistributedLock($name, dlt_ropts());
var_dump($l->acquire(10));
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () {
    $pid = pcntl_fork();
    if ($pid === 0) {
        exit(0);
    }
    pcntl_waitpid($pid, $st);
    echo "child exited with ", pcntl_wexitstatus($st), "\n";
});
var_dump($l->acquire(30));
$l->release();
', [$name]);
var_dump(dlt_until(fn () => $waiters() === 1, 30));
dlt_signal($c, SIGUSR1);
echo dlt_line($c), "\n";
/* the waiter is still queued (its own heartbeat would put it back within a
 * second, so this looks at once) */
echo "waiters: ", $waiters(), "\n";
$l->release();
echo dlt_line($c), "\n";
echo "exit status ", dlt_finish($c), "\n";
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r046-fork'));
?>
--EXPECT--
bool(true)
bool(true)
child exited with 0
waiters: 1
bool(true)
exit status 0
array(0) {
}
