--TEST--
SQL (postgres, mysql): a CLI process that ends while holding (exit, uncaught exception, fatal error) frees the lock: another process acquires without waiting (acquire() returns within 0.5 s of its exit)
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
    foreach (['exit' => 'exit(0);', 'exception' => 'throw new RuntimeException("boom");',
              'fatal' => 'undefined_function_dlt();'] as $how => $end) {
        $name = dlt_skey("s05-end-$how", $b);
        $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire(10);
echo "held\n";
fgets(STDIN);
' . $end, [$name, $b]);
        $line = dlt_line($c);
        dlt_check($line === 'held' && count(dlt_sql_holders($b, $name)) === 1, "$how: the child holds", $line);
        dlt_send($c, 'end');
        $rc = dlt_finish($c);
        dlt_check($how === 'exit' ? $rc === 0 : $rc !== 0, "$how: the child ended", $rc);
        $l = new DistributedLock($name, dlt_sopts($b));
        /* the connection is opened first: the time measured is the wait alone
         * (a connect under valgrind takes seconds) */
        $w = new DistributedLock($name . ':warm', dlt_sopts($b));
        $w->tryAcquire() && $w->release();
        $t = microtime(true);
        $ok = $l->acquire(5);
        $dt = microtime(true) - $t;
        dlt_check($ok && $dt < 0.5, "$how: free at once for another process", [$ok, $dt]);
        $l->release();
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
foreach (['exit', 'exception', 'fatal'] as $how) {
    dlt_sql_clean(dlt_skey("s05-end-$how", 'postgres'), dlt_skey("s05-end-$how", 'mysql'));
}
?>
--EXPECT--
-- postgres
exit: the child holds
exit: the child ended
exit: free at once for another process
exception: the child holds
exception: the child ended
exception: free at once for another process
fatal: the child holds
fatal: the child ended
fatal: free at once for another process
-- mysql
exit: the child holds
exit: the child ended
exit: free at once for another process
exception: the child holds
exception: the child ended
exception: free at once for another process
fatal: the child holds
fatal: the child ended
fatal: free at once for another process
