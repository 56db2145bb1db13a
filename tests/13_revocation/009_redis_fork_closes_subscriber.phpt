--TEST--
Revocation (Redis): a pcntl_fork() child closes its copy of the parent's revocation subscriber socket, so the server drops that subscriber when the parent is gone although the child lives on
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('revoke-fork-subscriber');
dlt_redis_clean($name);
/* CLIENT LIST addr= of the psubscribe clients among $pid's sockets (/proc/PID/fd -> /proc/net/tcp) */
function psub_addrs(int $pid): array
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
    return array_filter(psub_all(), fn ($port) => isset($ports[$port]));
}
/* every psubscribe client of the test Redis: its port */
function psub_all(): array
{
    $out = [];
    foreach (explode("\n", (string) dlt_redis('CLIENT', 'LIST')) as $c) {
        if (preg_match('/^id=\d+ addr=127\.0\.0\.1:(\d+) .*cmd=psubscribe/', $c, $m)) {
            $out[] = (int) $m[1];
        }
    }
    return $out;
}
$parent = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["revocable" => true]));
var_dump($l->acquire(10));
$pid = pcntl_fork();
if ($pid === 0) {
    $until = microtime(true) + 30; /* lives until the test creates $argv[2] */
    while (!file_exists($argv[2]) && microtime(true) < $until) {
        usleep(20000);
    }
    exit(0);
}
echo "child ", $pid, "\n";
fgets(STDIN);
$l->release();
echo "parent exits\n";
exit(0);
', [$name, $stop = tempnam(sys_get_temp_dir(), 'dlt-stop')]);
@unlink($stop);
echo dlt_line($parent), "\n";
$child = (int) substr(dlt_line($parent), 6);
$mine = psub_addrs($parent['pid']);
echo "parent's subscriber connections: ", count($mine), "\n";
dlt_send($parent, 'go');
echo dlt_line($parent), "\n";
var_dump(dlt_until(fn () => !file_exists('/proc/' . $parent['pid'] . '/status') || str_contains((string) @file_get_contents('/proc/' . $parent['pid'] . '/status'), 'zombie'), 10));
echo "child alive: ", var_export(file_exists("/proc/$child"), true), "\n";
echo "parent's subscriber gone while the child lives: ", var_export(dlt_until(fn () => !array_intersect($mine, psub_all()), 10), true), "\n";
echo "child still alive: ", var_export(file_exists("/proc/$child"), true), "\n";
touch($stop);
var_dump(dlt_until(fn () => !file_exists("/proc/$child"), 30));
@unlink($stop);
var_dump(dlt_finish($parent));
dlt_redis_clean($name);
?>
--EXPECT--
bool(true)
parent's subscriber connections: 1
parent exits
bool(true)
child alive: true
parent's subscriber gone while the child lives: true
child still alive: true
bool(true)
int(0)
