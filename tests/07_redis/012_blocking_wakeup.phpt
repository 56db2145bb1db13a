--TEST--
Redis: a waiter blocks without polling (a handful of script calls in 3 s at lease 30) and is woken within 0.5 s of the release
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* its own server: INFO commandstats counts every client's commands */
$port = dlt_redis_own_port(12);
$addr = dlt_redis_sh('start', (string) $port);
$name = dlt_rkey('r12-blocking');
$holder = new DistributedLock($name, dlt_ropts(['lease' => 30.0], $addr));
var_dump($holder->acquire());
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 30.0], $argv[2]));
echo "waiting\n";
$r = $l->acquire(30);
printf("%s %.6f\n", var_export($r, true), microtime(true));
$l->release();
', [$name, $addr]);
echo dlt_line($c), "\n";
var_dump(dlt_until(fn() => count(DistributedLock::participants($name, dlt_ropts([], $addr))) === 2, 10));
$scripts = fn() => dlt_cmdstat('evalsha', $addr) + dlt_cmdstat('eval', $addr);
$before = $scripts();
$t = microtime(true);
usleep(3000000); /* the measured interval: the waiter stays blocked */
$calls = $scripts() - $before;
echo $calls <= 10 ? "at most 10 script calls in 3 s\n" : "$calls script calls in 3 s\n";
$released = microtime(true);
$holder->release();
$line = dlt_line($c, 10);
[$r, $at] = explode(' ', $line) + [1 => 0];
var_dump($r);
$delay = (float) $at - $released;
echo $delay >= 0 && $delay < 0.5 ? "woken within 0.5 s\n" : "woken after $delay s ($line)\n";
var_dump(dlt_finish($c));
var_dump(dlt_until(fn() => dlt_redis_leftovers($name, $addr) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(12)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
waiting
bool(true)
at most 10 script calls in 3 s
string(4) "true"
woken within 0.5 s
int(0)
bool(true)
