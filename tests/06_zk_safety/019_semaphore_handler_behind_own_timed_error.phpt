--TEST--
Semaphore: a signal handler's timed acquire() queued behind the acquire() it interrupted (which cannot pass its turn on while interrupted) throws the self-wait exception at once instead of never being woken
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-sem-handler-timed');
$n = fn() => count(DistributedSemaphore::participants($path, 1, dlt_opts()));
$h = dlt_spawn('
$a = new DistributedSemaphore($argv[1], 1, dlt_opts());
$a->acquire();
echo "holding\n";
$t = microtime(true);
while (count(DistributedSemaphore::participants($argv[1], 1, dlt_opts())) < 2 && microtime(true) - $t < 20) { usleep(20000); }
posix_kill((int) $argv[2], SIGUSR1);
echo trim((string) fgets(STDIN)), "\n";
$a->release();
', [$path, getmypid()]);
echo dlt_line($h), "\n";
$outer = new DistributedSemaphore($path, 1, dlt_opts());
$inner = new DistributedSemaphore($path, 1, dlt_opts());
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use ($inner, $n) {
    global $h;
    $t = microtime(true);
    try {
        var_dump($inner->acquire(6.0));
    } catch (DistributedLockException $e) {
        echo get_class($e), ": ", str_contains($e->getMessage(), 'wait for itself') ? 'would wait for itself' : $e->getMessage(), "\n";
    }
    var_dump(microtime(true) - $t < 5, $inner->isAcquired(), $n()); /* the child's lease and our outer node */
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
bool(false)
int(2)
bool(true)
release
int(0)
bool(true)
