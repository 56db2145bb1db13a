--TEST--
Nested release while the connection is down: only counts down; the outer hold (the node) survives the blip
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$port = (string) dlt_zk_port(40);
$hosts = dlt_zk('start', $port);
$opts = ['hosts' => $hosts, 'session_timeout' => 20000, 'connect_timeout' => 10];
$path = dlt_path('safety-nested-release');
$l = new DistributedLock($path, $opts);
var_dump($l->acquire(), $l->acquire());
dlt_zk('crash', $port);
var_dump(dlt_until(fn() => !$l->isAcquired(), 20));
/* the server comes back while the inner release runs: it must not wait for
 * the reconnect and delete the node under the outer hold */
exec(escapeshellarg(getenv('DLOCK_ZK_SCRIPT') ?: __DIR__ . '/../../scripts/servers/zk.sh') . " resume $port >/dev/null 2>&1 &");
$l->release();
echo "inner released\n";
var_dump(dlt_until(fn() => $l->isAcquired(), 30));
$l->checkHeld();
var_dump(count(DistributedLock::participants($path, $opts)));
$c = dlt_spawn('$o = new DistributedLock($argv[1], ["hosts" => $argv[2]]); var_export($o->tryAcquire()); echo "\n";', [$path, $hosts]);
echo "other process: ", dlt_line($c), "\n";
dlt_finish($c);
$l->release();
var_dump(count(DistributedLock::participants($path, $opts)));
dlt_zk('stop', $port);
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
inner released
bool(true)
int(1)
other process: false
int(0)
