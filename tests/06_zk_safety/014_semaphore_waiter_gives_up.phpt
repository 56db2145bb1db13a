--TEST--
Semaphore: when the first waiter gives up (timeout), the waiter behind it becomes first and is woken by whichever lease is freed
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-sem-giveup');
$n = fn() => count(DistributedSemaphore::participants($path, 2, dlt_opts()));
$h1 = new DistributedSemaphore($path, 2, dlt_opts());
$h2 = new DistributedSemaphore($path, 2, dlt_opts());
var_dump($h1->acquire(), $h2->acquire());
$code = '
$s = new DistributedSemaphore($argv[1], 2, dlt_opts());
echo "queued\n";
$t = microtime(true);
$got = $s->acquire((float) $argv[2]);
printf("%s %s\n", $got ? "got" : "gave up", microtime(true) - $t < 25 ? "in time" : "too late");
if ($got) { $s->release(); }
';
$w1 = dlt_spawn($code, [$path, 3]);
echo dlt_line($w1), "\n";
var_dump(dlt_until(fn() => $n() === 3, 20));
$w2 = dlt_spawn($code, [$path, 30]);
echo dlt_line($w2), "\n";
var_dump(dlt_until(fn() => $n() === 4, 20));
echo dlt_line($w1, 20), "\n";  /* the first waiter times out and leaves */
var_dump(dlt_finish($w1));
var_dump(dlt_until(fn() => $n() === 3, 10));
/* the first holder goes (not the one the old rule watched) */
$t = microtime(true);
$h1->release();
echo dlt_line($w2, 20), "\n";
var_dump(microtime(true) - $t < 15);
var_dump(dlt_finish($w2));
$h2->release();
var_dump(dlt_until(fn() => $n() === 0, 10));
?>
--EXPECT--
bool(true)
bool(true)
queued
bool(true)
queued
bool(true)
gave up in time
int(0)
bool(true)
got in time
bool(true)
int(0)
bool(true)
