--TEST--
A child forked by a signal handler during acquire() may take the same lock afterwards without a timeout: the parent's interrupted node is another process's, so the child queues behind it instead of being refused as a self-wait
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-fork-child-queues');
$out = tempnam(sys_get_temp_dir(), 'dlt-fork');
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
$main = getmypid();
$child = 0;
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use ($out, $n, &$child) {
    global $h;
    $pid = pcntl_fork();
    if ($pid === 0) {
        return; /* the child goes back into the interrupted acquire() */
    }
    $child = $pid;
    /* the child's own node joins the holder's and ours (or it writes why not) */
    var_dump(dlt_until(fn() => $n() === 3 || file_get_contents($out) !== '', 20));
    echo "queued: ", $n(), " ", trim((string) file_get_contents($out)), "\n";
    dlt_send($h, 'release');
});
$l = new DistributedLock($path, dlt_opts());
try {
    $r = $l->acquire();
} catch (DistributedLockException $e) {
    if (getmypid() === $main) {
        throw $e;
    }
    $c = new DistributedLock($path, dlt_opts());
    try {
        $c->acquire(); /* no timeout: behind the holder and the parent */
        ini_set('dlock.async_release', '0'); /* its node is gone before it is killed */
        $c->release();
        file_put_contents($out, 'child acquired');
    } catch (DistributedLockException $e) {
        file_put_contents($out, 'child refused: ' . $e->getMessage());
    }
    posix_kill(getmypid(), SIGKILL); /* no shutdown: the parent's objects are not ours */
}
var_dump($r);
$l->release();
var_dump(dlt_until(fn() => file_get_contents($out) !== '', 20));
echo trim((string) file_get_contents($out)), "\n";
$t = microtime(true);
while (pcntl_waitpid($child, $status, WNOHANG) === 0 && microtime(true) - $t < 20) {
    usleep(20000);
}
posix_kill($child, SIGKILL); /* bounded: a child stuck in its first acquire() */
pcntl_waitpid($child, $status);
echo dlt_line($h), "\n";
var_dump(dlt_finish($h));
var_dump(dlt_until(fn() => $n() === 0, 10));
@unlink($out);
?>
--EXPECT--
holding
bool(true)
queued: 3 
bool(true)
bool(true)
child acquired
release
int(0)
bool(true)
