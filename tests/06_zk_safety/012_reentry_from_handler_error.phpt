--TEST--
acquire() of a lock object from a signal handler while that object's own acquire() waits is refused with a DistributedLockException: no crash, no node left holding for nobody
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-reentry-handler');
$flag = tempnam(sys_get_temp_dir(), 'dlt-flag');
unlink($flag);
$h = dlt_spawn('
$a = new DistributedLock($argv[1], dlt_opts());
$a->acquire();
echo "holding\n";
$t = microtime(true);
while (count(DistributedLock::participants($argv[1], dlt_opts())) < 2 && microtime(true) - $t < 20) { usleep(20000); }
posix_kill((int) $argv[2], SIGUSR1);
$t = microtime(true);
while (!file_exists($argv[3]) && microtime(true) - $t < 20) { usleep(20000); }
$a->release();
echo "released\n";
', [$path, getmypid(), $flag]);
echo dlt_line($h), "\n";
$a = new DistributedLock($path, dlt_opts());
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use ($a, $flag) {
    foreach ([fn() => $a->acquire(1), fn() => $a->tryAcquire()] as $f) {
        try {
            var_dump($f());
        } catch (DistributedLockException $e) {
            echo get_class($e), ": ", str_contains($e->getMessage(), 'already under way') ? 'refused' : $e->getMessage(), "\n";
        }
    }
    var_dump($a->isAcquired());
    touch($flag);
});
var_dump($a->acquire(20)); /* the outer wait goes on and holds once the child releases */
var_dump($a->isAcquired());
echo dlt_line($h), "\n";
var_dump(count(DistributedLock::participants($path, dlt_opts()))); /* our node only */
$a->release();
var_dump(dlt_until(fn() => count(DistributedLock::participants($path, dlt_opts())) === 0, 10));
var_dump(dlt_finish($h));
@unlink($flag);
?>
--EXPECT--
holding
DistributedLockException: refused
DistributedLockException: refused
bool(false)
bool(true)
bool(true)
released
int(1)
bool(true)
int(0)
