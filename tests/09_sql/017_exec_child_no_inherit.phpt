--TEST--
SQL (postgres, mysql): a holder that started another program (proc_open, exec) and then dies frees the lock at once: the program must not inherit the session's socket (close-on-exec)
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s17-exec-child', $b);
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire(10);
/* a program that outlives us, with no pipes of ours */
$p = proc_open("exec sleep 30", [0 => ["file", "/dev/null", "r"], 1 => ["file", "/dev/null", "w"], 2 => ["file", "/dev/null", "w"]], $pipes);
echo proc_get_status($p)["pid"], "\n";
fgets(STDIN);
', [$name, $b]);
    $sleeper = (int) dlt_line($c);
    dlt_check($sleeper > 0, 'the holder started a program');
    dlt_signal($c, 9);
    dlt_finish($c);
    $l = new DistributedLock($name, dlt_sopts($b));
    /* the connection is opened first: the time measured is the wait alone
     * (a connect under valgrind takes seconds) */
    $w = new DistributedLock($name . ':warm', dlt_sopts($b));
    $w->tryAcquire() && $w->release();
    $t = microtime(true);
    $ok = $l->acquire(3);
    $dt = microtime(true) - $t;
    dlt_check($ok && $dt < 1.0, 'free within a second of the holder\'s death while its program still runs', [$ok, $dt, posix_kill($sleeper, 0)]);
    posix_kill($sleeper, SIGKILL);
    if ($ok) {
        $l->release();
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s17-exec-child', 'postgres'), dlt_skey('s17-exec-child', 'mysql'));
?>
--EXPECT--
-- postgres
the holder started a program
free within a second of the holder's death while its program still runs
-- mysql
the holder started a program
free within a second of the holder's death while its program still runs
