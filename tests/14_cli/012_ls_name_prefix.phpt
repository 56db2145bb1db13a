--TEST--
dlock command, every backend: ls PREFIX lists the locks whose names start with PREFIX as a string, also on ZooKeeper, where a prefix that ends inside a path segment ("/x/pf", "/x/pfx/jo") finds "/x/pfx/job" and a sibling that does not start with it is not listed
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    $base = dlt_cname('cli-pfx', $b);
    $h = dlt_cli_holder($o, "$base/pfx/job");
    $s = dlt_cli_holder($o, "$base/other");
    $held = str_starts_with(dlt_line($h), 'held ') && str_starts_with(dlt_line($s), 'held ');
    $res = [];
    foreach (["$base/pf", "$base/pfx/jo", "$base/pfx", "$base/pfy", "$base/pfx/job/"] as $p) {
        [$rc, $out] = dlt_cli(['ls', rtrim($p, '/')], $dsn);
        $names = array_map(fn($l) => substr($l, strrpos($l, ' ') + 1), array_filter(explode("\n", $out)));
        $res[] = "$rc:" . implode(',', array_map(fn($n) => substr($n, strlen($base)), $names));
    }
    $api = array_column(DistributedLock::listLocks("$base/pf", $o), 'name');
    echo "$b: ", json_encode($held), ' ', implode(' ', $res), ' api:', implode(',', $api) === "$base/pfx/job" ? 'same' : json_encode($api), "\n";
    foreach ([$h, $s] as $c) {
        dlt_send($c, 'release');
        dlt_finish($c);
    }
}
?>
--EXPECT--
zookeeper: true 0:/pfx/job 0:/pfx/job 0:/pfx/job 1: 0:/pfx/job api:same
redis: true 0:/pfx/job 0:/pfx/job 0:/pfx/job 1: 0:/pfx/job api:same
postgres: true 0:/pfx/job 0:/pfx/job 0:/pfx/job 1: 0:/pfx/job api:same
mysql: true 0:/pfx/job 0:/pfx/job 0:/pfx/job 1: 0:/pfx/job api:same
