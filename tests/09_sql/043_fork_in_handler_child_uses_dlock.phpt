--TEST--
SQL (postgres, mysql): a child forked by a signal handler while acquire() waits, which takes and releases another lock and then returns into the interrupted acquire(), never frees, reads or cancels the parent's sessions (that acquire() throws in the child: the wait was the parent's): the parent goes on waiting and gets the lock on release (review defect 19c: use after free; PostgreSQL's untimed acquire() returned false)
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
    $name = dlt_skey('s43-fork-use', $b);
    $h = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire(10);
echo "held\n";
fgets(STDIN);
$l->release();
echo "released\n";
fgets(STDIN);
', [$name, $b]);
    dlt_check(dlt_line($h) === 'held', 'another process holds the lock');
    $w = dlt_sspawn('
pcntl_async_signals(true);
$mode = $argv[3];
pcntl_signal(SIGUSR1, function () use ($mode) {
    $k = pcntl_fork();
    if ($k === 0) {
        if ($mode === "use") {
            /* the child uses dlock: a lock of another name on the same server */
            $x = new DistributedLock($GLOBALS["argv"][1] . ":child", dlt_sopts($GLOBALS["argv"][2]));
            $r = $x->acquire(5);
            $x->release();
            echo "child acquired ", var_export($r, true), "\n";
            return; /* the child goes on with the interrupted acquire() */
        }
        exit(0);
    }
    pcntl_waitpid($k, $st);
    echo "forked\n";
});
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
echo "waiting\n";
try {
    $r = $l->acquire();
    echo "acquired ", var_export($r, true), "\n";
    if ($r) {
        $l->release();
    }
} catch (Throwable $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
', [$name, $b, 'use']);
    dlt_check(dlt_line($w) === 'waiting', 'a second process waits');
    $waiting = function () use ($b, &$w): bool {
        foreach (dlt_sql_pid_sessions($b, $w['pid']) as $sid) {
            if (dlt_sql_session_locks($b, $sid)['waiting'] > 0) {
                return true;
            }
        }
        return false;
    };
    dlt_check(dlt_until($waiting, 10), 'it waits in the server');
    posix_kill($w['pid'], SIGUSR1);
    dlt_check(($l = dlt_line($w, 15)) === 'child acquired true', 'the child took and released another lock', $l);
    $l = dlt_line($w, 15);
    dlt_check(str_starts_with($l, 'DistributedLockException: ') && str_contains($l, 'forked during acquire()'),
              'the interrupted acquire() in the child throws: the wait was the parent\'s', $l);
    dlt_check(($l = dlt_line($w, 15)) === 'forked', 'its signal handler forked a child', $l);
    dlt_check(dlt_until($waiting, 2) && $waiting(), 'the wait goes on in the server');
    dlt_send($h, '');
    dlt_check(($l = dlt_line($h)) === 'released', 'the holder releases', $l);
    dlt_check(($l = dlt_line($w, 15)) === 'acquired true', 'the waiter gets the lock', $l);
    dlt_check(dlt_finish($w, 15) === 0, 'waiter exit 0');
    dlt_finish($h);
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'nothing held at the end');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s43-fork-use', 'postgres'), dlt_skey('s43-fork-use', 'mysql'), dlt_skey('s43-fork-use', 'postgres') . ':child', dlt_skey('s43-fork-use', 'mysql') . ':child');
?>
--EXPECT--
-- postgres
another process holds the lock
a second process waits
it waits in the server
the child took and released another lock
the interrupted acquire() in the child throws: the wait was the parent's
its signal handler forked a child
the wait goes on in the server
the holder releases
the waiter gets the lock
waiter exit 0
nothing held at the end
-- mysql
another process holds the lock
a second process waits
it waits in the server
the child took and released another lock
the interrupted acquire() in the child throws: the wait was the parent's
its signal handler forked a child
the wait goes on in the server
the holder releases
the waiter gets the lock
waiter exit 0
nothing held at the end
