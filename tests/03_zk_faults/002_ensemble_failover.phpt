--TEST--
3-node ensemble: 8 processes keep the shared counter exact while the leader is killed (kill -9) and restarted
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$base = dlt_zk_port(20);
$hosts = dlt_zk('start-ensemble', (string) $base);
echo "ensemble up\n";
$path = '/dlock-tests/faults-ensemble';
$file = tempnam(sys_get_temp_dir(), 'dlt-ens');
file_put_contents($file, '0');
$kids = [];
for ($i = 0; $i < 8; $i++) {
    $kids[] = dlt_spawn('
$l = new DistributedLock($argv[1], ["hosts" => $argv[3], "session_timeout" => 4000]);
$inside = $argv[2] . ".inside";
$maxWait = 0;
for ($n = 0; $n < 40; $n++) {
    $t = microtime(true);
    $l->acquire();
    $maxWait = max($maxWait, microtime(true) - $t);
    if (!@mkdir($inside)) { echo "overlap\n"; }
    $v = (int) file_get_contents($argv[2]);
    usleep(2000);
    file_put_contents($argv[2], (string) ($v + 1));
    rmdir($inside);
    $l->release();
}
printf("done %.1f\n", $maxWait);
', [$path, $file, $hosts]);
}
$count = fn() => (int) @file_get_contents($file);
var_dump(dlt_until(fn() => $count() >= 60, 120));
$killed = dlt_zk('kill-leader', (string) $base);
$at = $count();
echo "leader killed\n";
var_dump(dlt_until(fn() => $count() >= $at + 60, 120));   /* progress without the old leader */
dlt_zk('restart-node', (string) $base, $killed);
echo "node restarted\n";
$maxWait = 0;
foreach ($kids as $k => $c) {
    $line = dlt_line($kids[$k], 180);
    if (preg_match('/^done ([\d.]+)$/', $line, $m)) {
        $maxWait = max($maxWait, (float) $m[1]);
    } else {
        dlt_finish($kids[$k]);
        echo "child $k: ", trim($line . "\n" . $kids[$k]['buf']), "\n";
        continue;
    }
    dlt_finish($kids[$k]);
}
var_dump($count());
/* no acquire waited longer than about session timeout + election time */
var_dump($maxWait < 15.0 ? 'bounded wait' : "waited $maxWait s");
var_dump(count(DistributedLock::participants($path, ['hosts' => $hosts])));
unlink($file);
dlt_zk('stop', (string) $base);
?>
--EXPECT--
ensemble up
bool(true)
leader killed
bool(true)
node restarted
int(320)
string(12) "bounded wait"
int(0)
