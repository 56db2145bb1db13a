--TEST--
dlock command, every backend: watch shows a new view each time the queue changes (held, then free after the holder's release), bounded by --count; --seconds ends a watch of a lock that does not change
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    $name = dlt_cname('cli-watch', $b);
    $h = dlt_cli_holder($o, $name);
    dlt_line($h);
    putenv("DLOCK_DSN=$dsn");
    /* the watcher runs in a child; the holder releases once the first view is out */
    $c = dlt_cspawn('
$cmd = "exec " . dlt_php_cmd() . " " . escapeshellarg($argv[2]) . " --json --interval 0.05 --count 2 --seconds 30 watch " . escapeshellarg($argv[3]);
$p = popen($cmd, "r");
while (($line = fgets($p)) !== false) { echo $line; flush(); }
echo "rc=", pclose($p), "\n";
', $o, [__DIR__ . '/../../bin/dlock', $name]);
    $v1 = json_decode(dlt_line($c), true);
    dlt_send($h, 'release');
    dlt_line($h);
    $v2 = json_decode(dlt_line($c), true);
    echo "$b: ", json_encode([$v1['held'] ?? null, count($v1['participants'] ?? []), $v2['held'] ?? null,
        count($v2['participants'] ?? [])]), " ", dlt_line($c), "\n";
    dlt_finish($c);
    dlt_finish($h);
    $t = microtime(true);
    [$rc, $out] = dlt_cli(['watch', '--seconds', '0.5', '--interval', '0.1', $name], $dsn);
    $took = microtime(true) - $t;
    echo "$b: --seconds rc=$rc views=", substr_count($out, "$name on "), " ", $took < 10 ? 'bounded' : "took $took s", "\n";
}
?>
--EXPECT--
zookeeper: [true,1,false,0] rc=0
zookeeper: --seconds rc=0 views=1 bounded
redis: [true,1,false,0] rc=0
redis: --seconds rc=0 views=1 bounded
postgres: [true,1,false,0] rc=0
postgres: --seconds rc=0 views=1 bounded
mysql: [true,1,false,0] rc=0
mysql: --seconds rc=0 views=1 bounded
