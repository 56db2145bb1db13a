--TEST--
SQL (postgres, mysql): fencing tokens strictly increase across holders in different processes, and keep increasing after the server is killed (kill -9) and restarted: dlock_tokens is a durable table (own server per backend)
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$child = '
$l = new DistributedLock($argv[1], dlt_sopts($argv[2], [], $argv[3]));
$out = [];
for ($i = 0; $i < 3; $i++) {
    if (!$l->acquire(30)) { echo "timeout\n"; exit(1); }
    $out[] = $l->getFencingToken();
    $l->release();
}
echo implode(" ", $out), "\n";
';
foreach (['postgres' => 4, 'mysql' => 4] as $b => $n) {
    echo "-- $b\n";
    $dsn = dlt_sql_own_start($b, $n, true);
    $name = dlt_skey('s04-tokens', $b);
    $tokens = [];
    for ($p = 0; $p < 3; $p++) {
        $c = dlt_sspawn($child, [$name, $b, $dsn]);
        $line = dlt_line($c, 60);
        dlt_finish($c);
        array_push($tokens, ...array_map('intval', explode(' ', $line)));
    }
    $sorted = $tokens;
    sort($sorted);
    dlt_check(count($tokens) === 9 && count(array_unique($tokens)) === 9 && $sorted === $tokens && $tokens[0] > 0,
        'nine holds in three processes: nine strictly increasing tokens', $tokens);
    $l = new DistributedLock($name, dlt_sopts($b, ['connect_timeout' => 2], $dsn));
    dlt_check($l->acquire(10) && $l->getFencingToken() > end($tokens), 'this process: a larger token again');
    $last = $l->getFencingToken();
    dlt_sql_sh($b, 'kill', (string) dlt_sql_own_port($b, $n));
    dlt_sql_sh($b, 'restart', (string) dlt_sql_own_port($b, $n));
    dlt_check(dlt_sql_token($b, $name, $dsn) === $last, 'the token row survived the kill', [dlt_sql_token($b, $name, $dsn), $last]);
    $c = dlt_sspawn($child, [$name, $b, $dsn]);
    $line = dlt_line($c, 60);
    dlt_finish($c);
    $after = array_map('intval', explode(' ', $line));
    dlt_check(count($after) === 3 && $after[0] > $last && $after[1] > $after[0] && $after[2] > $after[1],
        'after the restart another process gets larger tokens still', [$last, $line]);
    dlt_sql_sh($b, 'stop', (string) dlt_sql_own_port($b, $n));
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('postgres', 4);
dlt_sql_own_stop('mysql', 4);
?>
--EXPECT--
-- postgres
nine holds in three processes: nine strictly increasing tokens
this process: a larger token again
the token row survived the kill
after the restart another process gets larger tokens still
-- mysql
nine holds in three processes: nine strictly increasing tokens
this process: a larger token again
the token row survived the kill
after the restart another process gets larger tokens still
