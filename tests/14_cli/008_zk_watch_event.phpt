--TEST--
dlock command on ZooKeeper: watch blocks on a child watch (at most --interval between looks): a new waiter and the holder's release each show; waitForChange() is false after its timeout, true on a change, null for a missing znode and on a backend without an event (Redis)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
$o = dlt_opts();
$name = dlt_path('cli-watch-event');
$h = dlt_cli_holder($o, $name);
dlt_line($h);
$t = microtime(true);
var_dump(DistributedLock::waitForChange($name, 0.2, $o));
$waited = microtime(true) - $t;
echo $waited >= 0.2 && $waited < 5 ? "timed out after its timeout\n" : "waited $waited s\n";
var_dump(DistributedLock::waitForChange(dlt_path('cli-watch-event-none'), 5, $o));
var_dump(DistributedLock::waitForChange('x', 5, dlt_backends()['redis']));

putenv('DLOCK_DSN=zookeeper://' . dlt_hosts());
$c = dlt_cspawn('
$cmd = "exec " . dlt_php_cmd() . " " . escapeshellarg($argv[2]) . " --json --interval 2 --count 3 --seconds 50 watch " . escapeshellarg($argv[3]);
$p = popen($cmd, "r");
while (($line = fgets($p)) !== false) { echo $line; flush(); }
echo "rc=", pclose($p), "\n";
', $o, [__DIR__ . '/../../bin/dlock', $name]);
$v1 = json_decode(dlt_line($c), true);
$t = microtime(true);
$w = dlt_cli_holder($o, $name);            /* a waiter joins: view 2 */
$v2 = json_decode(dlt_line($c, 20), true);
dlt_send($h, 'release');                   /* the holder leaves: view 3 */
dlt_line($h);
$v3 = json_decode(dlt_line($c, 20), true);
$took = microtime(true) - $t;
echo json_encode([count($v1['participants'] ?? []), count($v2['participants'] ?? []), count($v3['participants'] ?? [])]),
    ' ', $took < 30 ? 'on the event' : "took $took s", ' ', dlt_line($c), "\n";
dlt_line($w);
dlt_send($w, 'release');
dlt_line($w);
dlt_finish($c);
dlt_finish($h);
dlt_finish($w);
?>
--EXPECT--
bool(false)
timed out after its timeout
NULL
NULL
[1,2,1] on the event rc=0
