--TEST--
Redis: a program the holder starts (proc_open, exec) inherits none of dlock's connections (close-on-exec): the lock's and the watchdog's sockets stay in this process
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* the sockets of this process, e.g. "socket:[123]" (the test runner's own are there before dlock's) */
$sockets = fn() => array_values(array_filter(array_map(fn($f) => (string) @readlink($f), glob('/proc/self/fd/*')),
    fn($t) => str_starts_with($t, 'socket:')));
dlt_redis('PING'); /* the test's own connection to Redis is in the baseline */
$before = $sockets();
$name = dlt_rkey('r65-exec');
$l = new DistributedLock($name, dlt_ropts(['lease' => 1]));
var_dump($l->acquire(10));
/* the watchdog's connection is made on its own thread: wait until it has
 * renewed over it (the key's TTL falls, then jumps back), so that socket is
 * finished (close-on-exec set) before we start a program */
$pttl = fn() => (int) dlt_redis('PTTL', $name);
var_dump(dlt_until(fn() => $pttl() > 0 && $pttl() < 800, 10) && dlt_until(fn() => $pttl() > 900, 10)
    && count(array_diff($sockets(), $before)) >= 2); /* the lock's and the watchdog's */
$dlock = array_diff($sockets(), $before);
$p = proc_open('ls -l /proc/self/fd', [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
$out = stream_get_contents($pipes[1]);
proc_close($p);
echo "dlock's sockets in the program: ", count(array_filter($dlock, fn($s) => str_contains($out, $s))), "\n";
var_dump($l->isAcquired());
$l->release();
?>
--EXPECT--
bool(true)
bool(true)
dlock's sockets in the program: 0
bool(true)
