--TEST--
dlock command, every backend: ls lists a held lock under its prefix, show gives the holder then the waiter in queue order with their data, age and token (text and --json), exit codes 0/1
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    $prefix = dlt_cname('cli-ls', $b);
    $name = "$prefix/job";
    $h = dlt_cli_holder($o, $name, 'holder-data');
    $held = dlt_line($h);
    $w = dlt_cli_holder($o, $name, 'waiter-data');
    $caps = dlt_cli_caps($b);
    $queued = !$caps['waiters'] || dlt_until(fn() => count(DistributedLock::participants($name, $o)) === 2, 20);

    [$rc, $out] = dlt_cli(['ls', $prefix], $dsn);
    $found = array_values(array_filter(explode("\n", $out), fn($l) => str_ends_with($l, " $name")));
    echo "$b: ls rc=$rc ", json_encode([$queued, count($found), preg_split('/\s+/', trim($found[0] ?? ''))[0] ?? '']), "\n";

    [$hd, $wd] = $caps['data'] === 'option' ? ['holder-data', 'waiter-data'] : ['', ''];
    [$rc, $out] = dlt_cli(['show', $name], $dsn);
    $lines = explode("\n", trim($out));
    echo "$b: show rc=$rc ", json_encode([
        str_contains($lines[0], "$name on ") && str_contains($lines[0], 'held, ' . ($caps['waiters'] ? 1 : 0) . ' waiting'),
        preg_match('/^\s*1\s+holds\s.*' . $hd . '$/', $lines[2] ?? '') === 1,
        !$caps['waiters'] || preg_match('/^\s*2\s+waits\s.*' . $wd . '$/', $lines[3] ?? '') === 1,
    ]), "\n";

    [$rc, $out] = dlt_cli(['--json', 'show', $name], $dsn);
    $j = json_decode($out, true);
    $p = $j['participants'] ?? [];
    echo "$b: json rc=$rc ", json_encode([$j['name'] ?? null, $j['held'] ?? null, count($p) === ($caps['waiters'] ? 2 : 1),
        $p[0]['holder'] ?? null, dlt_cli_data_ok($b, $p[0] ?? null, 'holder-data'), "held " . ($p[0]['token'] ?? '?') === $held,
        !$caps['waiters'] || (($p[1]['holder'] ?? null) === false && dlt_cli_data_ok($b, $p[1] ?? null, 'waiter-data')),
        $caps['since'] ? is_float($p[0]['age'] ?? null) && $p[0]['age'] >= 0 && $p[0]['age'] < 60
                       : array_key_exists('age', $p[0] ?? []) && $p[0]['age'] === null]), "\n";

    dlt_send($h, 'release');
    echo "$b: holder ", dlt_line($h), ", waiter ", preg_replace('/\d+/', 'N', dlt_line($w)), "\n";
    dlt_send($w, 'release');
    dlt_line($w);
    dlt_finish($h);
    dlt_finish($w);
    [$rc] = dlt_cli(['show', $name], $dsn);
    [$rc2, $out2] = dlt_cli(['ls', "$prefix-none"], $dsn);
    echo "$b: free show rc=$rc, empty ls rc=$rc2 '", trim($out2), "'\n";
}
?>
--EXPECTF--
zookeeper: ls rc=0 [true,1,"mutex"]
zookeeper: show rc=0 [true,true,true]
zookeeper: json rc=0 ["%s-zookeeper\/job",true,true,true,true,true,true,true]
zookeeper: holder free, waiter held N
zookeeper: free show rc=1, empty ls rc=1 ''
redis: ls rc=0 [true,1,"mutex"]
redis: show rc=0 [true,true,true]
redis: json rc=0 ["%s-redis\/job",true,true,true,true,true,true,true]
redis: holder free, waiter held N
redis: free show rc=1, empty ls rc=1 ''
postgres: ls rc=0 [true,1,"mutex"]
postgres: show rc=0 [true,true,true]
postgres: json rc=0 ["%s-postgres\/job",true,true,true,true,true,true,true]
postgres: holder free, waiter held N
postgres: free show rc=1, empty ls rc=1 ''
mysql: ls rc=0 [true,1,"mutex"]
mysql: show rc=0 [true,true,true]
mysql: json rc=0 ["%s-mysql\/job",true,true,true,true,true,true,true]
mysql: holder free, waiter held N
mysql: free show rc=1, empty ls rc=1 ''
