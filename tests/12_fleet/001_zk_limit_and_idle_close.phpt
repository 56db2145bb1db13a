--TEST--
php-fpm fleet against a ZooKeeper connection limit (maxClientCnxns scaled down to 4): with the limit taken, every worker gets a DistributedLockConnectionException naming maxClientCnxns within connect_timeout, never a hang; with dlock.idle_close the fleet holds every lock (shared counter exact), stays under the limit, gives its sessions back when idle, and the next lock pays one connect
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$zkPort = (int) (getenv('DLOCK_TEST_PORT') ?: 21810) + 65;
$hosts = dlt_zk('start', (string) $zkPort, '--max-client-cnxns', '4');
$fpm = dlt_fpm_port(20);
$www = realpath(__DIR__ . '/www/fleet.php');
$dir = dlt_fpm_dir('fleet-001');
/* the driver (scripts/runners/fleet.php): N requests, C in flight, server connections sampled */
$fleet = function (int $n, int $c, array $q) use ($fpm, $www, $zkPort): array {
    $cmd = 'FLEET_BODIES=1 FLEET_TIMEOUT=120 ' . escapeshellarg(PHP_BINARY) . ' -n '
        . escapeshellarg(__DIR__ . '/../../scripts/runners/fleet.php') . " $fpm " . escapeshellarg($www)
        . " $n $c $zkPort " . escapeshellarg(http_build_query($q));
    $r = json_decode((string) shell_exec($cmd), true);
    if (!is_array($r)) {
        throw new RuntimeException("fleet.php failed: $cmd");
    }
    return $r;
};
$count = fn(): int => (int) shell_exec(escapeshellarg(PHP_BINARY) . ' -n '
    . escapeshellarg(__DIR__ . '/../../scripts/runners/fleet.php') . " --count $zkPort");
$sum = function () use (&$dir): int {
    $n = 0;
    foreach (glob("$dir/k*") as $f) {
        $n += str_ends_with($f, '.inside') ? 0 : (int) file_get_contents($f);
    }
    return $n;
};

echo "-- 4 processes hold the 4 connections the server allows; 6 workers take locks\n";
$holders = [];
for ($h = 0; $h < 4; $h++) { /* one after the other: simultaneous connects can pass the limit */
    $holders[$h] = dlt_spawn('
$l = new DistributedLock($argv[1], ["hosts" => $argv[2]]);
echo $l->acquire(10) ? "held\n" : "not held\n";
fgets(STDIN);
$l->release();
', ["/dlock-fleet/holder$h", $hosts]);
    echo "holder $h: ", dlt_line($holders[$h]), "\n";
}
echo "server connections: ", $count(), "\n";
dlt_fpm_start($fpm, ['pm.max_children=6']);
$r = $fleet(6, 2, ['dsn' => "zookeeper://$hosts", 'dir' => $dir, 'ct' => 1, 'keys' => 2]);
$refused = 0;
$other = [];
$slowest = 0.0; /* the workers' own clock: the test's may run under valgrind */
foreach ($r['bodies'] as $b) {
    if (preg_match('/^ERR \d+ DistributedLockConnectionException: .*closed every connection at once for 1000 ms: over its connection limit \(maxClientCnxns.*\(after ([\d.]+) s\)$/', $b, $m)) {
        $refused++;
        $slowest = max($slowest, (float) $m[1]);
    } else {
        $other[] = $b;
    }
}
echo "requests refused with the maxClientCnxns message: $refused of ", count($r['bodies']), ", other answers: ", json_encode($other), "\n";
echo "refusal within connect_timeout + 1 s: ", $slowest < 2.0 ? 'yes' : "no ($slowest s)", "\n";
echo "server connections never over 4: ", $r['conn_peak'] <= 4 ? 'yes' : "no ({$r['conn_peak']})", "\n";
echo "shared counter untouched: ", $sum() === 0 ? 'yes' : "no ({$sum()})", "\n";
dlt_send($holders[0], 'go');
echo "holder 0 ended: ", dlt_finish($holders[0]), "\n";
echo "a slot is free: ", dlt_until(fn() => $count() === 3, 10) ? 'yes' : 'no (' . $count() . ')', "\n";
$r = $fleet(1, 1, ['dsn' => "zookeeper://$hosts", 'dir' => $dir, 'ct' => 5, 'keys' => 2]);
echo "the next request: ", preg_replace('/^ok \d+$/', 'ok', $r['bodies'][0]), "\n";
for ($h = 1; $h < 4; $h++) {
    dlt_send($holders[$h], 'go');
    dlt_finish($holders[$h]);
}
dlt_fpm_stop($fpm);
echo "sessions closed with the workers: ", dlt_until(fn() => $count() === 0, 10) ? 'yes' : 'no', "\n";

echo "-- 4 workers, dlock.idle_close=0.05: 200 requests, 4 at a time, 2 locks\n";
$dir = dlt_fpm_dir('fleet-001b');
dlt_fpm_start($fpm, ['pm.max_children=4', 'php_admin_value[dlock.idle_close]=0.05']);
$r = $fleet(200, 4, ['dsn' => "zookeeper://$hosts", 'dir' => $dir, 'ct' => 2, 'keys' => 2, 'work_us' => 500]);
echo "ok: {$r['ok']}, errors: ", json_encode($r['errors']), "\n";
echo "shared counter = 200: ", $sum() === 200 ? 'yes' : "no ({$sum()})", "\n";
echo "server connections never over 4: ", $r['conn_peak'] <= 4 ? 'yes' : "no ({$r['conn_peak']})", "\n";
echo "idle workers gave their sessions back: ", dlt_until(fn() => $count() === 0, 10) ? 'yes' : 'no (' . $count() . ')', "\n";
$r = $fleet(1, 1, ['dsn' => "zookeeper://$hosts", 'dir' => $dir, 'ct' => 2, 'info' => 1]);
echo "the next lock: ", preg_replace('/^ok \d+/', 'ok', $r['bodies'][0]), "\n";
echo "shared counter = 201: ", $sum() === 201 ? 'yes' : "no ({$sum()})", "\n";
dlt_fpm_stop($fpm);
dlt_zk('stop', (string) $zkPort);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(20));
dlt_zk('stop', (string) ((int) (getenv('DLOCK_TEST_PORT') ?: 21810) + 65));
?>
--EXPECT--
-- 4 processes hold the 4 connections the server allows; 6 workers take locks
holder 0: held
holder 1: held
holder 2: held
holder 3: held
server connections: 4
requests refused with the maxClientCnxns message: 6 of 6, other answers: []
refusal within connect_timeout + 1 s: yes
server connections never over 4: yes
shared counter untouched: yes
holder 0 ended: 0
a slot is free: yes
the next request: ok
sessions closed with the workers: yes
-- 4 workers, dlock.idle_close=0.05: 200 requests, 4 at a time, 2 locks
ok: 200, errors: []
shared counter = 200: yes
server connections never over 4: yes
idle workers gave their sessions back: yes
the next lock: ok sessions at start 0, at end 1
shared counter = 201: yes
