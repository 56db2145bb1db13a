--TEST--
Redis: an ACL user refused every Pub/Sub channel (Redis 7's default) releases without an error and wakes the waiter at once; a user with only the commands and keys the README lists runs every kind
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$addr = dlt_redis_addr();
$name = dlt_rkey('r062-a');
dlt_redis('ACL', 'SETUSER', 'dlt062', 'reset', 'on', '>pw', '~*', '+@all', 'resetchannels');
/* the user really is refused the channel (on a connection of its own) */
$port = explode(':', $addr)[1];
$as = "localhost:$port";
dlt_redis_at($as, 'AUTH', 'dlt062', 'pw');
$pub = dlt_redis_at($as, 'PUBLISH', 'redisson_lock__channel:{' . $name . '}', '0');
echo 'PUBLISH as the user: ', $pub instanceof DltRedisError ? strtok($pub->message, ' ') : var_export($pub, true), "\n";

$o = ['dsn' => "redis://dlt062:pw@$addr", 'connect_timeout' => 5, 'lease' => 30];
$a = new DistributedLock($name, $o);
var_dump($a->acquire(5.0));
$w = dlt_rspawn('
$w = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 5, "lease" => 30]);
echo "ready\n";
$ok = $w->acquire(20.0);
echo $ok ? "granted\n" : "not granted\n";
fgets(STDIN);
$w->release();
echo "released\n";
', [$name, $o['dsn']]);
echo dlt_line($w), "\n";
var_dump(dlt_until(function () use ($name) {
    foreach (DistributedLock::participants($name, dlt_ropts()) as $p) {
        if (!$p['holder']) {
            return true;
        }
    }
    return false;
}, 15));
/* the waiter blocks on its wake list: a release that wakes it is seen in
 * well under its 1 s heartbeat */
$t = microtime(true);
try {
    $a->release();
    echo "release: ok\n";
} catch (Throwable $e) {
    echo 'release: ', get_class($e), ': ', $e->getMessage(), "\n";
}
$line = dlt_line($w, 10);
$dt = microtime(true) - $t;
echo "waiter: $line, ", $dt < 0.8 ? 'woken by the release' : sprintf('late (%.2f s)', $dt), "\n";
var_dump($a->isAcquired());
dlt_send($w, 'go');
echo dlt_line($w), "\n";
dlt_finish($w);

/* the README's list: these commands and key patterns, no channel */
$min = dlt_rkey('r062-min');
$cmds = ['evalsha', 'script|load', 'blpop', 'time', 'type', 'exists', 'del', 'get', 'set', 'incr',
         'hget', 'hset', 'hgetall', 'zscore', 'zadd', 'zrem', 'zrange', 'zrevrange', 'zrangebyscore',
         'zremrangebyscore', 'pexpire', 'pexpireat', 'lrange', 'lrem', 'lpos', 'rpush', 'lpush'];
$keys = ["~$min*", "~redisson_*:{{$min}*", "~dlock_*:{{$min}*"];
$r = dlt_redis('ACL', 'SETUSER', 'dlt062min', 'reset', 'on', '>pw', 'resetchannels', '-@all',
               ...array_merge(array_map(fn($c) => "+$c", $cmds), $keys));
echo "SETUSER: ", $r instanceof DltRedisError ? $r->message : $r, "\n";
$o = ['dsn' => "redis://dlt062min:pw@$addr", 'connect_timeout' => 5, 'lease' => 1];
$mk = [
    'lock' => fn($n) => new DistributedLock($n, $o),
    'symfony' => fn($n) => new DistributedLock($n, $o + ['format' => 'symfony']),
    'laravel' => fn($n) => new DistributedLock($n, $o + ['format' => 'laravel']),
    'sem' => fn($n) => new DistributedSemaphore($n, 2, $o),
    'read' => fn($n) => (new DistributedReadWriteLock($n, $o))->readLock(),
    'write' => fn($n) => (new DistributedReadWriteLock($n, $o))->writeLock(),
];
foreach ($mk as $k => $f) {
    $n = "$min-$k";
    try {
        $l = $f($n);
        $got = [$l->acquire(5.0) ? 'held' : 'not held'];
        $other = $f($n);
        $got[] = $k === 'sem' || $k === 'read' ? 'shared ' . var_export($other->tryAcquire(), true)
                                               : 'other ' . var_export($other->acquire(0.3), true);
        if ($other->isAcquired()) {
            $other->release();
        }
        usleep(1500000); /* past the 1 s lease: the watchdog renewed it */
        $got[] = 'after a lease ' . var_export($l->isAcquired(), true);
        $l->checkHeld();
        $got[] = count(DistributedLock::participants($n, $o)) . ' participant';
        $l->release();
        $got[] = 'released';
    } catch (Throwable $e) {
        $got[] = get_class($e) . ': ' . $e->getMessage();
    }
    echo "$k: ", implode(', ', $got), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r062-a'));
foreach (['lock', 'symfony', 'laravel', 'sem', 'read', 'write'] as $k) {
    dlt_redis_clean(dlt_rkey('r062-min') . "-$k");
}
dlt_redis('ACL', 'DELUSER', 'dlt062', 'dlt062min');
?>
--EXPECT--
PUBLISH as the user: NOPERM
bool(true)
ready
bool(true)
release: ok
waiter: granted, woken by the release
bool(false)
released
SETUSER: OK
lock: held, other false, after a lease true, 1 participant, released
symfony: held, other false, after a lease true, 1 participant, released
laravel: held, other false, after a lease true, 1 participant, released
sem: held, shared true, after a lease true, 1 participant, released
read: held, shared true, after a lease true, 1 participant, released
write: held, other false, after a lease true, 1 participant, released
