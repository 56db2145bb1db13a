--TEST--
SQL (postgres): a pg_cancel_backend() of a waiting session from outside does not end acquire() (untimed, or with a timeout still running) with false: the wait goes on in the server and is granted when the holder releases (issue 17 defect 24)
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
$b = 'postgres';
$name = dlt_skey('s23-cancel', $b);
$h = new DistributedLock($name, dlt_sopts($b));
foreach (['acquire()' => 'null', 'acquire(30)' => '30.0'] as $what => $t) {
    dlt_check($h->acquire(5), "$what: held by the test");
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts("postgres"));
$t0 = microtime(true);
try {
    $r = var_export($l->acquire(' . $t . '), true);
} catch (Throwable $e) {
    $r = get_class($e) . ": " . $e->getMessage();
}
echo $r, "\n";
', [$name]);
    $waiter = fn() => array_values(array_filter(dlt_sql_name_locks($b, $name), fn($r) => !$r['granted']))[0]['sid'] ?? 0;
    dlt_check(dlt_until(fn() => $waiter() > 0, 15), "$what: the other process waits in the server");
    $sid = $waiter();
    $start = dlt_sql_rows($b, 'SELECT query_start AS q FROM pg_stat_activity WHERE pid = ?', [$sid])[0]['q'];
    $ok = dlt_sql_rows($b, 'SELECT pg_cancel_backend(CAST(? AS int)) AS ok', [$sid])[0]['ok'];
    dlt_check($ok === true, "$what: pg_cancel_backend() of its session");
    /* the wait starts again: a new statement of the same session waits */
    dlt_check(dlt_until(fn() => $waiter() === $sid && dlt_sql_rows($b, 'SELECT query_start AS q FROM pg_stat_activity WHERE pid = ?', [$sid])[0]['q'] !== $start, 15),
        "$what: the same session waits again");
    $h->release();
    $line = dlt_line($c, 15);
    dlt_check($line === 'true', "$what: granted after the release", $line);
    dlt_finish($c);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s23-cancel', 'postgres'));
?>
--EXPECT--
acquire(): held by the test
acquire(): the other process waits in the server
acquire(): pg_cancel_backend() of its session
acquire(): the same session waits again
acquire(): granted after the release
acquire(30): held by the test
acquire(30): the other process waits in the server
acquire(30): pg_cancel_backend() of its session
acquire(30): the same session waits again
acquire(30): granted after the release
