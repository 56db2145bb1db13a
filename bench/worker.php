<?php
/*
 * worker.php: a DistributedLock contender for the benchmark.
 * Usage: php worker.php HOSTS PATH CYCLES COUNTER_FILE EVENTS_FILE
 * Protocol (shared with the Curator, kazoo and C contenders): prints "ready",
 * waits for a line on stdin, runs CYCLES acquire / counter read-modify-write /
 * release cycles, writes "t_request t_acquired t_released" per cycle to
 * EVENTS_FILE, prints "done".
 */
[, $hosts, $path, $cycles, $counter, $events] = $argv;
$lock = new DistributedLock($path, ['hosts' => $hosts, 'session_timeout' => 20000]);
$lock->acquire();
$lock->release();
echo "ready\n";
fgets(STDIN);
$t = [];
for ($i = 0; $i < (int) $cycles; $i++) {
    $t0 = microtime(true);
    $lock->acquire();
    $t1 = microtime(true);
    $v = (int) file_get_contents($counter);
    file_put_contents($counter, (string) ($v + 1));
    $lock->release();
    $t[] = sprintf("%.6f %.6f %.6f", $t0, $t1, microtime(true));
}
file_put_contents($events, implode("\n", $t) . "\n");
echo "done\n";
