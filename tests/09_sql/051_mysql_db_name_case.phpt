--TEST--
SQL (mysql): with lower_case_table_names=1 (Windows' default; own server) the DSNs .../dlock and .../DLOCK name one database, so they give one lock: a holder through one excludes the other (in this process and another), tokens come from the one table in order, and the server lock name is <database as the server spells it>.<name> (review SQL finding 2: two holders at once)
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
$b = 'mysql';
$port = (string) dlt_sql_own_port($b, 51);
$lower = dlt_sql_sh($b, 'start', $port, '--lower-case-names');
$upper = preg_replace('~/dlock$~', '/DLOCK', $lower);
$mixed = preg_replace('~/dlock$~', '/Dlock', $lower);
dlt_check(dlt_sql_rows($b, 'SELECT @@lower_case_table_names AS v', [], $lower, true)[0]['v'] == 1, 'the server folds database names');
foreach (['short' => 's51-case', 'long' => 's51-case' . str_repeat('x', 80)] as $what => $name) {
    echo "-- $what name\n";
    $a = new DistributedLock($name, dlt_sopts($b, [], $lower));
    dlt_check($a->acquire(5) && $a->getFencingToken() === 1, 'held through /dlock, token 1');
    $u = new DistributedLock($name, dlt_sopts($b, [], $upper));
    dlt_check($u->tryAcquire() === false, 'through /DLOCK in this process: tryAcquire() false');
    $o = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts("mysql", [], $argv[2]));
echo var_export($l->tryAcquire(), true), "\n";
', [$name, $mixed]);
    dlt_check(dlt_line($o) === 'false', 'through /Dlock in another process: tryAcquire() false');
    dlt_finish($o);
    dlt_check($a->isAcquired(), 'the first holder still holds');
    $a->release();
    dlt_check($u->acquire(5) && $u->getFencingToken() === 2, 'after the release, through /DLOCK: held, token 2 (the same token row)');
    if ($what === 'short') {
        $q = dlt_sql_rows($b, 'SELECT IS_USED_LOCK(?) IS NOT NULL AS v', ["dlock.$name"], $lower, true)[0]['v'];
        dlt_check($q == 1, 'the server lock name is dlock.<name> through /DLOCK');
    }
    $u->release();
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('mysql', 51);
?>
--EXPECT--
the server folds database names
-- short name
held through /dlock, token 1
through /DLOCK in this process: tryAcquire() false
through /Dlock in another process: tryAcquire() false
the first holder still holds
after the release, through /DLOCK: held, token 2 (the same token row)
the server lock name is dlock.<name> through /DLOCK
-- long name
held through /dlock, token 1
through /DLOCK in this process: tryAcquire() false
through /Dlock in another process: tryAcquire() false
the first holder still holds
after the release, through /DLOCK: held, token 2 (the same token row)
