--TEST--
dlock command, every backend: a lock name with a newline, ESC sequences, C1 controls (8-bit CSI as UTF-8; in a name that is not UTF-8 every byte from 0x80) and a backslash is printed escaped by ls, show and break (one line each, no control byte reaches the terminal, valid UTF-8 kept); --json keeps the name exact
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
/* no C0/C1 control or DEL byte, nor a C1 control as UTF-8 */
$clean = fn(string $s) => preg_match('~[\x00-\x09\x0b-\x1f\x7f\x80-\x9f]|\xc2[\x80-\x9f]~', $s) === 0;
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    $prefix = dlt_cname('cli-esc', $b);
    $name = "$prefix/é\n\e[2J\xc2\x9b31mFAKE mutex 0 /x\\x0a\x7f";
    $raw = "$prefix/raw\x9b31m\n";
    try {
        new DistributedLock($name, $o);
    } catch (ValueError $e) {
        echo "$b: name refused\n";
        continue;
    }
    $h = dlt_cli_holder($o, $name);
    /* argv would lose the byte that is not UTF-8: the child gets it in hex */
    $r = dlt_cspawn('$l = new DistributedLock(hex2bin($argv[2]), $opts);
echo $l->acquire(30) ? "held " . $l->getFencingToken() : "not held", "\\n";
fgets(STDIN);
$l->release();
', $o, [bin2hex($raw)]);
    $held = str_starts_with(dlt_line($h), 'held ') && str_starts_with(dlt_line($r), 'held ');
    $want = "$prefix/é\\x0a\\x1b[2J\\x9b31mFAKE mutex 0 /x\\\\x0a\\x7f";
    [$rc1, $ls] = dlt_cli(['ls', $prefix], $dsn);
    [$rc2, $show] = dlt_cli(['show', $name], $dsn);
    [$rc3, $json] = dlt_cli(['--json', 'ls', $prefix], $dsn);
    [$rc4, $brk] = dlt_cli(['break', '--force', $name], $dsn);
    echo "$b: ", json_encode([$held, $rc1, $rc2, $rc3, $rc4,
        substr_count($ls, "\n"), str_contains($ls, $want), str_contains($ls, "$prefix/raw\\x9b31m\\x0a\n"), str_starts_with($show, "$want on "),
        str_starts_with($brk, "$want: ended 1"), $clean($ls . $show . $brk),
        in_array($name, array_column(json_decode($json, true)['locks'] ?? [], 'name'), true)]), "\n";
    dlt_send($h, 'release');
    dlt_send($r, 'release');
    dlt_finish($h);
    dlt_finish($r);
}
?>
--EXPECT--
zookeeper: name refused
redis: [true,0,0,0,0,2,true,true,true,true,true,true]
postgres: [true,0,0,0,0,2,true,true,true,true,true,true]
mysql: [true,0,0,0,0,2,true,true,true,true,true,true]
