--TEST--
SQL (postgres, mysql): participants() lists the holder (holder => true, its token, node = the server session holding it); an empty list when nobody holds
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
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s16-participants', $b);
    dlt_check(DistributedLock::participants($name, dlt_sopts($b)) === [], 'nobody: empty list');
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire();
echo $l->getFencingToken(), "\n";
fgets(STDIN);
', [$name, $b]);
    $token = (int) dlt_line($c);
    $q = DistributedLock::participants($name, dlt_sopts($b));
    $first = $q[0] ?? [];
    dlt_check(count($q) >= 1 && ($first['holder'] ?? null) === true, 'the holder is listed first', $q);
    dlt_check(($first['token'] ?? null) === $token, 'with its token', [$first, $token]);
    dlt_check((string) ($first['node'] ?? '') === (string) (dlt_sql_holders($b, $name)[0] ?? '-'), 'node is the server session that holds it', [$first, dlt_sql_name_locks($b, $name)]);
    dlt_send($c, 'go');
    dlt_finish($c);
    dlt_check(dlt_until(fn() => DistributedLock::participants($name, dlt_sopts($b)) === [], 5), 'empty again once the holder is gone');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s16-participants', 'postgres'), dlt_skey('s16-participants', 'mysql'));
?>
--EXPECT--
-- postgres
nobody: empty list
the holder is listed first
with its token
node is the server session that holds it
empty again once the holder is gone
-- mysql
nobody: empty list
the holder is listed first
with its token
node is the server session that holds it
empty again once the holder is gone
