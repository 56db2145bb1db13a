--TEST--
A signal handler that waits on another lock inside acquire() does not take the outer waiter's wake-up: the outer acquire() holds as soon as its lock was freed
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$pa = dlt_path('safety-nested-a');
$pb = dlt_path('safety-nested-b');
/* the child holds A and B; once we wait for A it signals us, the handler
 * waits for B, and the child frees A first, then B */
$h = dlt_spawn('
$a = new DistributedLock($argv[1], dlt_opts());
$b = new DistributedLock($argv[2], dlt_opts());
$a->acquire();
$b->acquire();
echo "holding\n";
$n = fn($p) => count(DistributedLock::participants($p, dlt_opts()));
$t = microtime(true);
while ($n($argv[1]) < 2 && microtime(true) - $t < 20) { usleep(20000); }
posix_kill((int) $argv[3], SIGUSR1);
$t = microtime(true);
while ($n($argv[2]) < 2 && microtime(true) - $t < 20) { usleep(20000); }
$a->release(); /* the outer waiter is woken while the handler waits */
$b->release();
echo "released\n";
', [$pa, $pb, getmypid()]);
echo dlt_line($h), "\n";
$b = new DistributedLock($pb, dlt_opts());
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use ($b) {
    echo "handler: ", var_export($b->acquire(20), true), "\n";
    $b->release();
});
$a = new DistributedLock($pa, dlt_opts());
$t = microtime(true);
var_dump($a->acquire(20));
var_dump(microtime(true) - $t < 15, $a->isAcquired());
echo dlt_line($h), "\n";
$a->release();
var_dump(dlt_finish($h));
?>
--EXPECT--
holding
handler: true
bool(true)
bool(true)
bool(true)
released
int(0)
