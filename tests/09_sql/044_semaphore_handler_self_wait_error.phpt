--TEST--
SQL (postgres): an untimed acquire() of another object of a semaphore, from a signal handler that interrupted this process's own acquire() of that semaphore, is refused with a DistributedLockException at once (though this process holds fewer than all leases) instead of waiting for ever behind the gate the interrupted acquire() holds; the outer acquire() then gets its lease on release (review defect 21)
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
/* semaphores exist on PostgreSQL only among the SQL servers */
$b = 'postgres';
$name = dlt_skey('s44-sem-self', $b);
$h = dlt_sspawn('
$s = new DistributedSemaphore($argv[1], 2, dlt_sopts($argv[2]));
$t = new DistributedSemaphore($argv[1], 2, dlt_sopts($argv[2]));
$s->acquire(10);
$t->acquire(10);
echo "held\n";
fgets(STDIN);
$s->release();
echo "released\n";
fgets(STDIN);
$t->release();
', [$name, $b]);
dlt_check(dlt_line($h) === 'held', 'another process holds both leases of a semaphore of 2');
$w = dlt_sspawn('
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () {
    $t = microtime(true);
    $inner = new DistributedSemaphore($GLOBALS["argv"][1], 2, dlt_sopts($GLOBALS["argv"][2]));
    try {
        $r = $inner->acquire();
        echo "inner returned ", var_export($r, true), "\n";
    } catch (DistributedLockException $e) {
        printf("inner refused %s in %s\n", get_class($e), microtime(true) - $t < 2.0 ? "time" : "too long");
    }
});
$s = new DistributedSemaphore($argv[1], 2, dlt_sopts($argv[2]));
echo "waiting\n";
$r = $s->acquire();
echo "outer acquired ", var_export($r, true), "\n";
$s->release();
', [$name, $b]);
dlt_check(dlt_line($w) === 'waiting', 'a second process waits for a lease');
/* the head waiter holds the gate lock while it waits for a release */
$gated = function () use ($b, &$w): bool {
    foreach (dlt_sql_pid_sessions($b, $w['pid']) as $sid) {
        if (dlt_sql_session_locks($b, $sid)['held'] > 0) {
            return true;
        }
    }
    return false;
};
dlt_check(dlt_until($gated, 10), 'it holds the gate');
posix_kill($w['pid'], SIGUSR1);
dlt_check(($l = dlt_line($w, 15)) === 'inner refused DistributedLockException in time', 'the handler\'s untimed acquire() is refused at once', $l);
dlt_send($h, '');
dlt_check(($l = dlt_line($h)) === 'released', 'the holder releases', $l);
dlt_check(($l = dlt_line($w, 15)) === 'outer acquired true', 'the outer acquire() gets the lease', $l);
dlt_check(dlt_finish($w, 15) === 0, 'waiter exit 0');
dlt_finish($h);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s44-sem-self', 'postgres'));
?>
--EXPECT--
another process holds both leases of a semaphore of 2
a second process waits for a lease
it holds the gate
the handler's untimed acquire() is refused at once
the holder releases
the outer acquire() gets the lease
waiter exit 0
