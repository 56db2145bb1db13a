--TEST--
dlock command: a Redis AUTH refusal of a password the server does not have exits 4 (refused), as WRONGPASS and the SQL refusals do, not 3; --count is a whole number; an option a command does not take is a usage error (exit 2); messages name the name and --dsn in the command line's words, without a doubled subject
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
$all = dlt_backends();
$redis = getenv('DLOCK_TEST_REDIS');
$pwfile = tempnam(sys_get_temp_dir(), 'dlt');
file_put_contents($pwfile, "nosuchpassword\n");
$zk = 'zookeeper://' . getenv('DLOCK_TEST_HOSTS');
$cases = [
    'redis password the server lacks' => [['show', '/a'], "redis://:nosuchpassword@$redis"],
    'redis password file the server lacks' => [['--password-file', $pwfile, 'show', '/a'], "redis://$redis"],
    'count 1.5' => [['watch', '--count', '1.5', '/a'], $zk],
    'count 2x' => [['watch', '--count', '2x', '/a'], $zk],
    'ls --count' => [['ls', '--count', '3'], $zk],
    'ls --kind' => [['ls', '--kind', 'rw'], $zk],
    'show --interval' => [['show', '--interval', '1', '/a'], $zk],
    'break --seconds' => [['break', '--force', '--seconds', '1', '/a'], $zk],
    'show --force' => [['show', '--force', '/a'], $zk],
    'redis empty name' => [['show', ''], $all['redis']['dsn']],
    'postgres empty name' => [['show', ''], $all['postgres']['dsn']],
    'bad dsn' => [['ls'], 'gopher://x'],
    'dsn with a query' => [['show', '/a'], "redis://$redis?frob=1"],
];
foreach ($cases as $what => [$args, $d]) {
    [$rc, $out, $err] = dlt_cli($args, $d, 20);
    $msg = strtok($err, "\n");
    echo "$what: rc=$rc ", $out === '' && !preg_match('/Fatal|Warning|Argument #|the name (?:a|lock) /', $err) ? 'clean' : "out=$out err=$err", " | ",
        str_contains($msg, 'nosuchpassword') ? 'PASSWORD SHOWN' : preg_replace('~\d+\.\d+\.\d+\.\d+:\d+~', 'HOST', $msg), "\n";
}
unlink($pwfile);
?>
--EXPECTF--
redis password the server lacks: rc=4 clean | dlock: %sAUTH refused: %s
redis password file the server lacks: rc=4 clean | dlock: %sAUTH refused: %s
count 1.5: rc=2 clean | dlock: --count must be a whole number from 1, not "1.5" (dlock --help)
count 2x: rc=2 clean | dlock: --count must be a whole number from 1, not "2x" (dlock --help)
ls --count: rc=2 clean | dlock: ls does not take --count (dlock --help)
ls --kind: rc=2 clean | dlock: ls does not take --kind (dlock --help)
show --interval: rc=2 clean | dlock: show does not take --interval (dlock --help)
break --seconds: rc=2 clean | dlock: break does not take --seconds (dlock --help)
show --force: rc=2 clean | dlock: show does not take --force (dlock --help)
redis empty name: rc=2 clean | dlock: a Redis lock name must be 1 to 1024 bytes without NUL bytes
postgres empty name: rc=2 clean | dlock: the lock name must be 1 to 1024 bytes without NUL on a SQL server
bad dsn: rc=2 clean | dlock: --dsn: DSN scheme "gopher" is not supported %s
dsn with a query: rc=2 clean | dlock: --dsn: redis DSN must not have a query or fragment ("?", "#")
