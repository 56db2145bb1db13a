--TEST--
A holder killed with SIGKILL (no shutdown at all): a waiter gets the lock once its session expires
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('shutdown-killed');
$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["session_timeout" => 2000]));
$l->acquire();
echo "held ", $l->getFencingToken(), "\n";
fgets(STDIN); /* block until killed */
', [$path]);
$line = dlt_line($c);
echo preg_match('/^held \d+$/', $line) ? "child holds\n" : "unexpected: $line\n";
$dead = (int) substr($line, 5);
$l = new DistributedLock($path, dlt_opts());
var_dump($l->tryAcquire());
dlt_signal($c, 9);
dlt_finish($c);
$t = microtime(true);
var_dump($l->acquire(20));
$dt = microtime(true) - $t;
/* not at once (nobody deleted the node), but within about the session timeout */
var_dump($dt > 0.5 && $dt < 10, $l->getFencingToken() > $dead);
$l->release();
?>
--EXPECT--
child holds
bool(false)
bool(true)
bool(true)
bool(true)
