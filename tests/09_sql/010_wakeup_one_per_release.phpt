--TEST--
SQL (postgres, mysql): a waiter blocked in acquire() (waiting in the server) wakes within 0.5 s of the release; with 3 waiters blocked, each release hands the lock to exactly one of them while the others stay blocked
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
    $name = dlt_skey('s10-wakeup', $b);
    $holder = new DistributedLock($name, dlt_sopts($b));
    dlt_check($holder->acquire(), 'held');
    $waiter = '
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
echo "waiting\n";
$r = $l->acquire(60);
printf("%s %.6f\n", var_export($r, true), microtime(true));
fgets(STDIN);
$l->release();
';
    $kids = [];
    for ($i = 0; $i < 3; $i++) {
        $kids[$i] = dlt_sspawn($waiter, [$name, $b]);
        $line = dlt_line($kids[$i]);
        if ($line !== 'waiting') {
            echo "child $i: $line\n";
        }
    }
    $blocked = function (array $which) use ($b, &$kids): bool {
        foreach ($which as $i) {
            $w = 0;
            foreach (dlt_sql_pid_sessions($b, $kids[$i]['pid']) as $sid) {
                $w += dlt_sql_session_locks($b, $sid)['waiting'];
            }
            if ($w !== 1) {
                return false;
            }
        }
        return true;
    };
    dlt_check(dlt_until(fn() => $blocked([0, 1, 2]), 10), 'three waiters blocked in the server');
    $left = [0, 1, 2];
    $released = microtime(true);
    $holder->release();
    for ($round = 0; $round < 3; $round++) {
        /* exactly one of the blocked waiters answers */
        $r = array_map(fn($k) => $kids[$k]['out'], $left);
        $w = $e = null;
        stream_select($r, $w, $e, 10);
        $got = [];
        foreach ($left as $i) {
            $line = dlt_line($kids[$i], 0.3);
            if (!str_starts_with($line, 'NO LINE')) {
                $got[$i] = $line;
            }
        }
        dlt_check(count($got) === 1, "release $round: exactly one waiter acquired", $got);
        $i = (int) array_key_first($got);
        [$ok, $at] = explode(' ', (string) reset($got)) + [1 => 0];
        $delay = (float) $at - $released;
        dlt_check($ok === 'true' && $delay >= 0 && $delay < 0.5, "release $round: woken within 0.5 s", [$got, $delay]);
        $left = array_values(array_diff($left, [$i]));
        dlt_check($blocked($left), "release $round: the others are still blocked");
        $released = microtime(true);
        dlt_send($kids[$i], 'release');
        dlt_check(dlt_finish($kids[$i]) === 0, "release $round: that waiter exits 0");
    }
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'nothing held at the end');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s10-wakeup', 'postgres'), dlt_skey('s10-wakeup', 'mysql'));
?>
--EXPECT--
-- postgres
held
three waiters blocked in the server
release 0: exactly one waiter acquired
release 0: woken within 0.5 s
release 0: the others are still blocked
release 0: that waiter exits 0
release 1: exactly one waiter acquired
release 1: woken within 0.5 s
release 1: the others are still blocked
release 1: that waiter exits 0
release 2: exactly one waiter acquired
release 2: woken within 0.5 s
release 2: the others are still blocked
release 2: that waiter exits 0
nothing held at the end
-- mysql
held
three waiters blocked in the server
release 0: exactly one waiter acquired
release 0: woken within 0.5 s
release 0: the others are still blocked
release 0: that waiter exits 0
release 1: exactly one waiter acquired
release 1: woken within 0.5 s
release 1: the others are still blocked
release 1: that waiter exits 0
release 2: exactly one waiter acquired
release 2: woken within 0.5 s
release 2: the others are still blocked
release 2: that waiter exits 0
nothing held at the end
