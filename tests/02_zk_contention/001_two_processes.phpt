--TEST--
Two processes: the second blocks in acquire() until the first releases, then gets the lock
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('contention-two');
$holder = new DistributedLock($path, dlt_opts());
var_dump($holder->acquire());
$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
echo "waiting\n";
$r = $l->acquire(30);
echo $r ? "acquired\n" : "timed out\n";
$l->release();
', [$path]);
echo dlt_line($c), "\n";
/* the waiter is queued once its node shows up behind ours */
$deadline = microtime(true) + 20;
while (dlt_nodes($path) < 2 && microtime(true) < $deadline);
var_dump(dlt_nodes($path));
$released = microtime(true);
$holder->release();
echo dlt_line($c), "\n";
var_dump(dlt_finish($c), dlt_nodes($path));
?>
--EXPECT--
bool(true)
waiting
int(2)
acquired
int(0)
int(0)
