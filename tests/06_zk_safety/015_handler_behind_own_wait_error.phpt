--TEST--
A signal handler's acquire() without a timeout, queued behind the node of the acquire() it interrupted (same name, another object), throws at once instead of waiting for itself for ever
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
ini_set('dlock.max_wait', '15'); /* before: the handler waited for itself until this cap */
$path = dlt_path('safety-handler-own-wait');
$n = fn() => count(DistributedLock::participants($path, dlt_opts()));
$h = dlt_spawn('
$a = new DistributedLock($argv[1], dlt_opts());
$a->acquire();
echo "holding\n";
$t = microtime(true);
while (count(DistributedLock::participants($argv[1], dlt_opts())) < 2 && microtime(true) - $t < 20) { usleep(20000); }
posix_kill((int) $argv[2], SIGUSR1);
echo trim((string) fgets(STDIN)), "\n";
$a->release();
', [$path, getmypid()]);
echo dlt_line($h), "\n";
$outer = new DistributedLock($path, dlt_opts());
$inner = new DistributedLock($path, dlt_opts());
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use ($inner, $h, $n) {
    $t = microtime(true);
    try {
        var_dump($inner->acquire());
    } catch (DistributedLockException $e) {
        echo get_class($e), ": ", str_contains($e->getMessage(), 'wait for itself') ? 'would wait for itself' : $e->getMessage(), "\n";
    }
    var_dump(microtime(true) - $t < 10, $n()); /* the child's hold and our outer node */
    global $h;
    dlt_send($h, 'release');
});
var_dump($outer->acquire(30));
echo dlt_line($h), "\n";
$outer->release();
var_dump(dlt_finish($h));
var_dump(dlt_until(fn() => $n() === 0, 10));
?>
--EXPECT--
holding
DistributedLockException: would wait for itself
bool(true)
int(2)
bool(true)
release
int(0)
bool(true)
