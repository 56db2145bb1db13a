--TEST--
Semaphore: a lease freed anywhere ahead wakes the right waiter (the second holder's release wakes the first waiter, the first holder's then the second waiter)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-sem-wakeup');
$n = fn() => count(DistributedSemaphore::participants($path, 2, dlt_opts()));
$h1 = new DistributedSemaphore($path, 2, dlt_opts());
$h2 = new DistributedSemaphore($path, 2, dlt_opts());
var_dump($h1->acquire(), $h2->acquire());
$code = '
$s = new DistributedSemaphore($argv[1], 2, dlt_opts());
echo "queued\n";
$t = microtime(true);
$got = $s->acquire(30);
printf("%s %s\n", $got ? "got" : "not acquired", microtime(true) - $t < 25 ? "in time" : "too late");
echo trim((string) fgets(STDIN)), "\n"; /* hold until told */
$s->release();
';
$w1 = dlt_spawn($code, [$path]);
echo dlt_line($w1), "\n";
var_dump(dlt_until(fn() => $n() === 3, 20));
$w2 = dlt_spawn($code, [$path]);
echo dlt_line($w2), "\n";
var_dump(dlt_until(fn() => $n() === 4, 20));

/* the second holder goes: the first waiter holds, the second still waits */
$t = microtime(true);
$h2->release();
echo dlt_line($w1, 20), "\n";
var_dump(microtime(true) - $t < 15);
var_dump(str_starts_with(dlt_line($w2, 0.5), 'NO LINE'));

/* the first holder goes: now the second waiter holds */
$t = microtime(true);
$h1->release();
echo dlt_line($w2, 20), "\n";
var_dump(microtime(true) - $t < 15);
dlt_send($w1, 'bye');
dlt_send($w2, 'bye');
echo dlt_line($w1), "\n", dlt_line($w2), "\n";
var_dump(dlt_finish($w1), dlt_finish($w2));
var_dump(dlt_until(fn() => $n() === 0, 10));
?>
--EXPECT--
bool(true)
bool(true)
queued
bool(true)
queued
bool(true)
got in time
bool(true)
bool(true)
got in time
bool(true)
bye
bye
int(0)
int(0)
bool(true)
