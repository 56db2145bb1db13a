--TEST--
dlock command: bad input gives a clear message and exit 2, never a PHP error; an unreachable server exit 3 without the DSN's password; revoke of a free lock exit 1, refused by the backend (PostgreSQL) exit 4
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
$dsn = 'zookeeper://' . getenv('DLOCK_TEST_HOSTS');
$cases = [
    'no command' => [[], $dsn],
    'unknown command' => [['frobnicate'], $dsn],
    'unknown option' => [['--bogus', 'ls'], $dsn],
    'missing value' => [['ls', '--dsn'], $dsn],
    'show without name' => [['show'], $dsn],
    'show two names' => [['show', '/a', '/b'], $dsn],
    'relative name' => [['show', 'a'], $dsn],
    'trailing slash' => [['ls', '/a/'], $dsn],
    'bad kind' => [['--kind', 'queue', 'show', '/a'], $dsn],
    'bad count' => [['watch', '--count', '0', '/a'], $dsn],
    'bad timeout' => [['--connect-timeout', 'soon', 'ls'], $dsn],
    'bad dsn' => [['ls'], 'gopher://x'],
    'break no force' => [['break', '/a'], $dsn],
];
foreach ($cases as $what => [$args, $d]) {
    [$rc, $out, $err] = dlt_cli($args, $d);
    $msg = strtok($err, "\n");
    echo "$what: rc=$rc ", $out === '' && str_starts_with($err, 'dlock: ') && !preg_match('/Fatal|Warning|Stack trace|Uncaught/', $err) ? 'clean' : "out=$out err=$err", " | $msg\n";
}
foreach (['redis://user:sekrit@127.0.0.1:' . dlt_zk_port(497), 'zookeeper://127.0.0.1:' . dlt_zk_port(497)] as $d) {
    [$rc, $out, $err] = dlt_cli(['--connect-timeout', '1', 'show', '/a'], $d);
    echo "unreachable: rc=$rc ", str_contains($out . $err, 'sekrit') ? 'PASSWORD SHOWN' : 'no password', ' ', str_contains($err, 'unreachable') ? 'says unreachable' : $err, "\n";
}
[$rc, $out, $err] = dlt_cli(['revoke', dlt_cname('cli-revoke', 'zookeeper')], $dsn);
echo "revoke free: rc=$rc ", trim($out . $err), "\n";
[$rc, $out, $err] = dlt_cli(['revoke', dlt_cname('cli-revoke', 'postgres')], dlt_backends()['postgres']['dsn']);
echo "revoke on postgres: rc=$rc ", str_starts_with($err, 'dlock: ') && !str_contains($err, 'Fatal') ? 'refused' : $err, "\n";
[$rc, $out] = dlt_cli(['--help'], null);
echo "help: rc=$rc ", str_contains($out, 'break NAME --force') ? 'usage' : $out, "\n";
?>
--EXPECTF--
no command: rc=2 clean | dlock: no command given (dlock --help)
unknown command: rc=2 clean | dlock: unknown command "frobnicate" (dlock --help)
unknown option: rc=2 clean | dlock: unknown option --bogus (dlock --help)
missing value: rc=2 clean | dlock: --dsn needs a value (dlock --help)
show without name: rc=2 clean | dlock: show takes one lock name, got 0 (dlock --help)
show two names: rc=2 clean | dlock: show takes one lock name, got 2 (dlock --help)
relative name: rc=2 clean | dlock: the name must be absolute (start with "/")
trailing slash: rc=2 clean | dlock: the name must not end with "/"
bad kind: rc=2 clean | dlock: --kind must be mutex, rw or semaphore:N, not "queue" (dlock --help)
bad count: rc=2 clean | dlock: --count must be a whole number from 1, not "0" (dlock --help)
bad timeout: rc=2 clean | dlock: --connect-timeout must be a number from 0.001 to 3600, not "soon" (dlock --help)
bad dsn: rc=2 clean | dlock: %s
break no force: rc=2 clean | dlock: break needs --force: it ends /a's holds whoever has them, and the old holder is not told (docs/operations.md) (dlock --help)
unreachable: rc=3 no password says unreachable
unreachable: rc=3 no password says unreachable
revoke free: rc=1 /dlock-tests/contract-cli-revoke-zookeeper: revocation asked of 0 holder(s)
revoke on postgres: rc=4 refused
help: rc=0 usage
