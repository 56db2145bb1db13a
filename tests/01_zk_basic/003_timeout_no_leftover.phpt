--TEST--
acquire($t) returns false after about $t seconds and leaves no node behind
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('basic-timeout');
$holder = new DistributedLock($path, dlt_opts());
var_dump($holder->acquire());
$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
$t = microtime(true);
$r = $l->acquire(0.5);
$dt = microtime(true) - $t;
var_export($r); echo "\n";
echo $dt >= 0.45 && $dt < 5 ? "waited about 0.5 s\n" : "waited $dt s\n";
var_export($l->isAcquired()); echo "\n";
', [$path]);
echo dlt_line($c), "\n", dlt_line($c), "\n", dlt_line($c), "\n";
var_dump(dlt_finish($c));
$q = DistributedLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['token'] === $holder->getFencingToken());
$holder->release();
var_dump(dlt_nodes($path));
?>
--EXPECT--
bool(true)
false
waited about 0.5 s
false
int(0)
int(1)
bool(true)
int(0)
