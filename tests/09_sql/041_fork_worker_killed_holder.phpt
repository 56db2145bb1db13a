--TEST--
SQL (postgres, mysql): a holder that forked a worker (which never calls dlock) and is then killed with SIGKILL frees its lock at once, while the worker lives on: the child's copy of the session's socket is closed at fork() (review defect 19a)
--EXTENSIONS--
dlock
pcntl
posix
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
    $name = dlt_skey('s41-fork-kill', $b);
    $h = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire(10);
$k = pcntl_fork();
if ($k === 0) {
    /* a worker: no dlock call at all; lives until the test kills it */
    fclose(STDOUT);
    for ($i = 0; $i < 600; $i++) {
        usleep(100000);
    }
    exit(0);
}
echo "held $k\n";
fgets(STDIN);
', [$name, $b]);
    $line = dlt_line($h);
    dlt_check((bool) preg_match('/^held (\d+)$/', $line, $m), 'the holder holds and forked a worker', $line);
    $worker = (int) ($m[1] ?? 0);
    dlt_check(count(dlt_sql_holders($b, $name)) === 1, 'the server shows the hold');
    dlt_signal($h, 9);
    dlt_finish($h);
    dlt_check($worker > 0 && posix_kill($worker, 0), 'the holder is killed, the worker lives');
    $l = new DistributedLock($name, dlt_sopts($b));
    $t = microtime(true);
    $r = $l->acquire(8);
    $dt = microtime(true) - $t;
    dlt_check($r === true && $dt < 3.0, 'another acquires at once', [$r, $dt]);
    if ($r) {
        $l->release();
    }
    if ($worker > 0) {
        posix_kill($worker, 9);
    }
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'nothing held at the end');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s41-fork-kill', 'postgres'), dlt_skey('s41-fork-kill', 'mysql'));
?>
--EXPECT--
-- postgres
the holder holds and forked a worker
the server shows the hold
the holder is killed, the worker lives
another acquires at once
nothing held at the end
-- mysql
the holder holds and forked a worker
the server shows the hold
the holder is killed, the worker lives
another acquires at once
nothing held at the end
