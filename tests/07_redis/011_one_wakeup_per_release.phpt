--TEST--
Redis: 16 processes blocked in acquire(); every release that has waiters wakes exactly one of them (one LPUSH on its wake key), all 16 get the lock, nothing is left
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* its own server: INFO commandstats counts every client's LPUSH */
$port = dlt_redis_own_port(11);
$addr = dlt_redis_sh('start', (string) $port);
$name = dlt_rkey('r11-wakeups');
$holder = new DistributedLock($name, dlt_ropts([], $addr));
var_dump($holder->acquire());
$kids = [];
for ($i = 0; $i < 16; $i++) {
    $kids[$i] = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts([], $argv[2]));
echo "waiting\n";
if (!$l->acquire(60)) { echo "timeout\n"; exit(1); }
$t = $l->getFencingToken();
usleep(20000); /* hold briefly, so later waiters are still waiting at our release */
$l->release();
echo "got $t\n";
', [$name, $addr]);
}
foreach ($kids as $i => $c) {
    $line = dlt_line($kids[$i]);
    if ($line !== 'waiting') {
        echo "child $i: $line\n";
    }
}
/* all 16 are queued before the first release */
var_dump(dlt_until(fn() => count(DistributedLock::participants($name, dlt_ropts([], $addr))) === 17, 30));
$before = dlt_cmdstat('lpush', $addr);
$holder->release();
$tokens = [];
foreach ($kids as $i => $c) {
    $line = dlt_line($kids[$i], 60);
    if (preg_match('/^got (\d+)$/', $line, $m)) {
        $tokens[] = (int) $m[1];
    } else {
        echo "child $i: $line\n";
    }
    dlt_finish($kids[$i]);
}
$after = dlt_cmdstat('lpush', $addr);
var_dump(count($tokens), count(array_unique($tokens)));
/* the holder's release and 15 of the waiters' releases had waiters; the last had none */
echo $after - $before === 16 ? "16 wake-ups for 16 releases with waiters\n" : "LPUSH calls: " . ($after - $before) . "\n";
var_dump(dlt_until(fn() => dlt_redis_leftovers($name, $addr) === [], 5), dlt_redis_leftovers($name, $addr));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(11)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
bool(true)
int(16)
int(16)
16 wake-ups for 16 releases with waiters
bool(true)
array(0) {
}
