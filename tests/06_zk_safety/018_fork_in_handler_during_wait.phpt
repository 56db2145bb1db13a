--TEST--
A child forked by a signal handler during an untimed acquire() throws "forked during acquire()" at once instead of waiting for ever, and leaves the parent's node alone: the parent still gets the lock
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-fork-in-wait');
$out = tempnam(sys_get_temp_dir(), 'dlt-fork');
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
$main = getmypid();
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use ($out, $main, $path) {
    global $h;
    $pid = pcntl_fork();
    if ($pid === 0) {
        return; /* the child goes back into the interrupted acquire() */
    }
    $status = 0;
    $t = microtime(true);
    while (pcntl_waitpid($pid, $status, WNOHANG) === 0 && microtime(true) - $t < 20) {
        usleep(20000);
    }
    if (microtime(true) - $t >= 20) {
        posix_kill($pid, SIGKILL);
        pcntl_waitpid($pid, $status);
        echo "child still waiting after 20 s\n";
    }
    echo "child: ", trim((string) file_get_contents($out)), "\n";
    var_dump(count(DistributedLock::participants($path, dlt_opts()))); /* holder + our node */
    dlt_send($h, 'release');
});
$l = new DistributedLock($path, dlt_opts());
try {
    $r = $l->acquire();
} catch (DistributedLockException $e) {
    if (getmypid() !== $main) {
        file_put_contents($out, get_class($e) . (str_contains($e->getMessage(), 'forked during acquire()') ? ': forked during acquire()' : ': ' . $e->getMessage()));
        posix_kill(getmypid(), SIGKILL); /* no shutdown: the parent's objects are not ours */
    }
    throw $e;
}
if (getmypid() !== $main) {
    file_put_contents($out, 'child acquired: ' . var_export($r, true));
    posix_kill(getmypid(), SIGKILL);
}
var_dump($r, $l->isAcquired());
$l->release();
echo dlt_line($h), "\n";
var_dump(dlt_finish($h));
var_dump(dlt_until(fn() => dlt_nodes($path) === 0, 10));
@unlink($out);
?>
--EXPECT--
holding
child: DistributedLockException: forked during acquire()
int(2)
bool(true)
bool(true)
release
int(0)
bool(true)
