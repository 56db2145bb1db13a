--TEST--
A blocked acquire() runs pcntl async signal handlers; one that throws ends the wait and removes the node
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('contention-signal');
$holder = new DistributedLock($path, dlt_opts());
$holder->acquire();
$c = dlt_spawn('
pcntl_async_signals(true);
$hits = 0;
pcntl_signal(SIGUSR1, function () use (&$hits) { $hits++; echo "handler ran\n"; });
pcntl_signal(SIGUSR2, function () { throw new RuntimeException("stop waiting"); });
$l = new DistributedLock($argv[1], dlt_opts());
echo "blocking\n";
try {
    $l->acquire();
    echo "acquired?!\n";
} catch (RuntimeException $e) {
    echo get_class($e), ": ", $e->getMessage(), " (handler ran $hits time)\n";
}
var_export($l->isAcquired()); echo "\n";
echo count(DistributedLock::participants($argv[1], dlt_opts())), " node(s)\n";
', [$path]);
echo dlt_line($c), "\n";
$deadline = microtime(true) + 20;
while (dlt_nodes($path) < 2 && microtime(true) < $deadline);
$t = microtime(true);
dlt_signal($c, 10); /* SIGUSR1: handler runs, the wait goes on */
echo dlt_line($c, 5), "\n";
dlt_signal($c, 12); /* SIGUSR2: handler throws, the wait ends */
echo dlt_line($c, 5), "\n";
var_dump(microtime(true) - $t < 2.0);
echo dlt_line($c), "\n", dlt_line($c), "\n";
var_dump(dlt_finish($c));
$holder->release();
?>
--EXPECT--
blocking
handler ran
RuntimeException: stop waiting (handler ran 1 time)
bool(true)
false
1 node(s)
int(0)
