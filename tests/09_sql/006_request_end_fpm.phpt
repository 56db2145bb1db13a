--TEST--
php-fpm, SQL (postgres, mysql): a lock left held by a request (no release, exit, uncaught exception) is free for the next request on the same worker and on the other worker; the server shows no hold right after the request
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_skipif();
require __DIR__ . '/../inc/fpm.inc';
if (($why = dlt_fpm_missing()) !== '') {
    die("skip $why");
}
?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(9);
$dir = dlt_fpm_dir('sql-006');
dlt_fpm_start($port); /* pm = static, 2 workers, persistent connections (the default) */
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s06-fpm-request-end', $b);
    foreach (['none', 'exit', 'exception'] as $round => $how) {
        $body = dlt_fpm_get($port, 'hold.php', ['path' => $name, 'how' => $how, 'backend' => $b], $rc);
        $holder = preg_match('/^held (\d+)$/m', $body, $m) ? (int) $m[1] : 0;
        dlt_check($holder > 0, "$how: the request held the lock", [$rc, $body]);
        if ($how === 'exception') {
            dlt_check(str_contains($body, 'Uncaught RuntimeException: boom'), "$how: uncaught exception", $body);
        }
        /* the worker's session stays open (persistent): only request shutdown can have released */
        /* bounded: request shutdown's release does not wait for its reply (dlock.async_release) */
        dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 2), "$how: no hold on the server right after the request", dlt_sql_name_locks($b, $name));
        dlt_check(dlt_sql_pid_sessions($b, $holder) !== [], "$how: the worker kept its session");
        /* two probes at once occupy both workers: one is the holder's, one the other */
        $q = ['path' => $name, 'dir' => $dir, 'round' => "$b$round", 'backend' => $b];
        $pa = dlt_fpm_async($port, 'probe.php', $q);
        $pb = dlt_fpm_async($port, 'probe.php', $q);
        $seen = [];
        foreach ([dlt_fpm_wait($pa), dlt_fpm_wait($pb)] as $line) {
            if (preg_match('/^(\d+) (free|busy)$/', trim($line), $p)) {
                $seen[(int) $p[1]] = $p[2];
            }
        }
        dlt_check(($seen[$holder] ?? '') === 'free', "$how: free for the same worker", $seen);
        unset($seen[$holder]);
        dlt_check(count($seen) === 1 && reset($seen) === 'free', "$how: free for the other worker", $seen);
    }
}
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(9));
dlt_sql_clean(dlt_skey('s06-fpm-request-end', 'postgres'), dlt_skey('s06-fpm-request-end', 'mysql'));
?>
--EXPECT--
-- postgres
none: the request held the lock
none: no hold on the server right after the request
none: the worker kept its session
none: free for the same worker
none: free for the other worker
exit: the request held the lock
exit: no hold on the server right after the request
exit: the worker kept its session
exit: free for the same worker
exit: free for the other worker
exception: the request held the lock
exception: uncaught exception
exception: no hold on the server right after the request
exception: the worker kept its session
exception: free for the same worker
exception: free for the other worker
-- mysql
none: the request held the lock
none: no hold on the server right after the request
none: the worker kept its session
none: free for the same worker
none: free for the other worker
exit: the request held the lock
exit: no hold on the server right after the request
exit: the worker kept its session
exit: free for the same worker
exit: free for the other worker
exception: the request held the lock
exception: uncaught exception
exception: no hold on the server right after the request
exception: the worker kept its session
exception: free for the same worker
exception: free for the other worker
