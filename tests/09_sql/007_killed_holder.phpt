--TEST--
SQL (postgres, mysql): a holder killed with SIGKILL (no release, no shutdown) frees the lock at once: a waiter blocked in acquire() in another process gets it within a second, with a higher token
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
    $name = dlt_skey('s07-killed-holder', $b);
    $h = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire(10);
echo "held ", $l->getFencingToken(), "\n";
fgets(STDIN);
', [$name, $b]);
    $line = dlt_line($h);
    dlt_check((bool) preg_match('/^held (\d+)$/', $line, $m), 'the holder holds', $line);
    $old = (int) ($m[1] ?? 0);
    $w = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
echo "waiting\n";
$r = $l->acquire(30);
printf("%s %.6f %d\n", var_export($r, true), microtime(true), $r ? $l->getFencingToken() : 0);
', [$name, $b]);
    echo dlt_line($w), "\n";
    /* the waiter is blocked in the server (a waiting session), not sleeping in a retry loop */
    $waiting = function () use ($b, &$w): bool {
        foreach (dlt_sql_pid_sessions($b, $w['pid']) as $sid) {
            if (dlt_sql_session_locks($b, $sid)['waiting'] > 0) {
                return true;
            }
        }
        return false;
    };
    dlt_check(dlt_until($waiting, 10), 'the waiter waits in the server');
    $killed = microtime(true);
    dlt_signal($h, 9);
    dlt_finish($h);
    $line = dlt_line($w, 10);
    [$r, $at, $token] = explode(' ', $line) + [1 => 0, 2 => 0];
    dlt_check($r === 'true' && (float) $at - $killed < 1.0, 'the waiter got it within a second of the kill', [$line, (float) $at - $killed]);
    dlt_check((int) $token > $old, 'with a higher token', [$old, $token]);
    dlt_check(dlt_finish($w) === 0, 'waiter exit 0');
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'nothing held at the end');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s07-killed-holder', 'postgres'), dlt_skey('s07-killed-holder', 'mysql'));
?>
--EXPECT--
-- postgres
the holder holds
waiting
the waiter waits in the server
the waiter got it within a second of the kill
with a higher token
waiter exit 0
nothing held at the end
-- mysql
the holder holds
waiting
the waiter waits in the server
the waiter got it within a second of the kill
with a higher token
waiter exit 0
nothing held at the end
