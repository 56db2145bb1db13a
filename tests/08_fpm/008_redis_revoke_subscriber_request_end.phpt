--TEST--
php-fpm, Redis: a worker's revocation subscriber (its thread and its PSUBSCRIBEd connection) lives while a revocable hold needs it and stops at request end with persistent connections; the next revocable acquire starts it again and a request reaches that holder
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(true); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
require __DIR__ . '/../inc/redis.inc';
$port = dlt_fpm_port(8);
$name = dlt_rkey('fpm-revoke-subscriber');
dlt_redis_clean($name);
$dir = dlt_fpm_dir('008');
dlt_fpm_start($port, ['pm.max_children=1']); /* one worker, persistent connections (the default) */

/* The worker's connections to the test Redis as CLIENT LIST sees them: its
 * sockets' local ports (/proc/PID/fd -> /proc/net/tcp) matched to the
 * clients' addr=; returns the cmd= of each. */
function worker_clients(int $pid): array
{
    $inodes = [];
    foreach ((array) glob("/proc/$pid/fd/*") as $fd) {
        if (preg_match('/^socket:\[(\d+)\]$/', (string) @readlink($fd), $m)) {
            $inodes[$m[1]] = true;
        }
    }
    $ports = [];
    foreach (@file('/proc/net/tcp') ?: [] as $line) {
        $f = preg_split('/\s+/', trim($line));
        if (isset($f[9], $inodes[$f[9]])) {
            $ports[hexdec(explode(':', $f[1])[1])] = true;
        }
    }
    $cmds = [];
    foreach (explode("\n", (string) dlt_redis('CLIENT', 'LIST')) as $c) {
        if (preg_match('/addr=127\.0\.0\.1:(\d+) .*cmd=(\S+)/', $c, $m) && isset($ports[(int) $m[1]])) {
            $cmds[] = $m[2];
        }
    }
    sort($cmds);
    return $cmds;
}
$psub = fn (int $pid): int => count(array_filter(worker_clients($pid), fn ($c) => $c === 'psubscribe'));

foreach ([1, 2] as $round) {
    echo "-- request $round\n";
    $q = ['path' => $name, 'dir' => $dir, 'round' => $round, 'backend' => 'redis'];
    $r = dlt_fpm_async($port, 'revhold.php', $q);
    /* the file exists before its pid is written: wait for the pid */
    var_dump(dlt_until(fn () => (int) @file_get_contents("$dir/held.$round") > 0, 30));
    $pid = (int) file_get_contents("$dir/held.$round");
    echo "while held, subscriber connections: ", $psub($pid), "\n";
    if ($round === 1) {
        touch("$dir/go.$round");
    } else {
        echo "asked: ", DistributedLock::requestRevocation($name, dlt_ropts()), "\n";
    }
    echo trim(preg_replace('/held \d+/', 'held', dlt_fpm_wait($r))), "\n";
    echo "between requests, subscriber gone: ", var_export(dlt_until(fn () => $psub($pid) === 0, 10), true), "\n";
    echo "the worker's pool connection stays: ", var_export(in_array('evalsha', worker_clients($pid), true), true), "\n";
}
dlt_fpm_stop($port);
dlt_redis_clean($name);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
require __DIR__ . '/../inc/redis.inc';
dlt_fpm_stop(dlt_fpm_port(8));
dlt_redis_clean(dlt_rkey('fpm-revoke-subscriber'));
?>
--EXPECT--
-- request 1
bool(true)
while held, subscriber connections: 1
held, listener calls 0
between requests, subscriber gone: true
the worker's pool connection stays: true
-- request 2
bool(true)
while held, subscriber connections: 1
asked: 1
held, listener calls 1
between requests, subscriber gone: true
the worker's pool connection stays: true
