--TEST--
acquire() without a timeout is capped in wall time by dlock.max_wait, or by max_execution_time when max_wait is -1
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('shutdown-max-wait');
$holder = new DistributedLock($path, dlt_opts());
$holder->acquire();
$code = '
$l = new DistributedLock($argv[1], dlt_opts());
$t = microtime(true);
try {
    $l->acquire();
    echo "acquired?!\n";
} catch (DistributedLockException $e) {
    $dt = microtime(true) - $t;
    echo preg_replace("/ \(.*/", "", $e->getMessage()), "\n";
    echo $dt >= (float) $argv[2] * 0.95 && $dt < (float) $argv[2] + 5 ? "after about the cap\n" : "after $dt s\n";
}
';
$c = dlt_spawn($code, [$path, 0.5], '-d dlock.max_wait=0.5');
echo dlt_line($c), "\n", dlt_line($c), "\n";
dlt_finish($c);
$c = dlt_spawn($code, [$path, 1.0], '-d max_execution_time=1');
echo dlt_line($c), "\n", dlt_line($c), "\n";
dlt_finish($c);
var_dump(dlt_nodes($path));
$holder->release();
?>
--EXPECT--
/dlock-tests/shutdown-max-wait: not acquired within 0.500 s, the wall-clock cap of acquire() without a timeout
after about the cap
/dlock-tests/shutdown-max-wait: not acquired within 1.000 s, the wall-clock cap of acquire() without a timeout
after about the cap
int(1)
