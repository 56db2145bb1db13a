--TEST--
SQL (postgres, mysql): a signal handler that runs while acquire() waits and uses another lock held on the same session (release, isAcquired, checkHeld, getFencingToken, a nested acquire) gets an exception or "not certain", never a crash, a hang or a lost lock; after the wait the lock is still held and works; the waiting object itself, or an untimed acquire of the awaited name, is refused; a lock destroyed in the handler is unlocked when the wait ends (review defects)
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
pcntl_async_signals(true);
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $a = dlt_skey('s18-held', $b);
    $busy = dlt_skey('s18-busy', $b);
    $held = new DistributedLock($a, dlt_sopts($b));
    dlt_check($held->acquire(5), 'held');
    /* another process holds the second lock, so our acquire() waits on the same session */
    $o = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire(5);
echo "other holds\n";
fgets(STDIN);
$l->release();
', [$busy, $b]);
    dlt_check(dlt_line($o) === 'other holds', 'another process holds the second lock');
    $seen = [];
    $dropped = new DistributedLock($a . ':dropped', dlt_sopts($b));
    dlt_check($dropped->acquire(5), 'a third lock held on the same session');
    $w = new DistributedLock($busy, dlt_sopts($b));
    pcntl_signal(SIGUSR1, function () use ($held, $a, $b, $busy, &$seen, &$w, &$dropped) {
        foreach (['release' => fn() => $held->release(), 'isAcquired' => fn() => $held->isAcquired(),
                  'checkHeld' => fn() => $held->checkHeld(), 'token' => fn() => $held->getFencingToken(),
                  'nested' => fn() => $held->acquire(1)] as $what => $f) {
            try {
                $r = $f();
                $seen[$what] = $what === 'isAcquired' ? var_export($r, true) : 'returned';
            } catch (DistributedLockException $e) {
                $seen[$what] = get_class($e);
            }
        }
        foreach (['the waiting object' => fn() => $w->acquire(1),
                  'untimed, awaited name' => fn() => (new DistributedLock($busy, dlt_sopts($b)))->acquire()] as $what => $f) {
            try {
                $seen[$what] = var_export($f(), true);
            } catch (DistributedLockException $e) {
                $seen[$what] = get_class($e);
            }
        }
        $dropped = null; /* destroyed while its session waits: unlocked after the wait */
        /* a lock of another name: acquired on a session of its own */
        $x = new DistributedLock($a . ':x', dlt_sopts($b));
        $seen['other name'] = var_export($x->acquire(1), true);
        $x->release();
    });
    $me = getmypid();
    $k = pcntl_fork();
    if ($k === 0) {
        usleep(300000);
        posix_kill($me, SIGUSR1);
        exit(0);
    }
    $t = microtime(true);
    $r = $w->acquire(1.5);
    $dt = microtime(true) - $t;
    pcntl_waitpid($k, $st);
    dlt_check($r === false && $dt < 3.0, 'the wait ran to its timeout', [$r, $dt]);
    ksort($seen);
    echo json_encode($seen), "\n";
    dlt_check($held->isAcquired(), 'after the wait the lock is still held');
    $held->checkHeld();
    dlt_check($held->getFencingToken() > 0, 'and has a token');
    $held->release();
    dlt_check(!$held->isAcquired() && dlt_sql_holders($b, $a) === [], 'released: nothing held on the server');
    dlt_check(dlt_sql_holders($b, $a . ':dropped') === [], 'the lock destroyed in the handler is free on the server');
    dlt_send($o, 'go');
    dlt_check(dlt_finish($o) === 0, 'the other process ended');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s18-held', 'postgres'), dlt_skey('s18-busy', 'postgres'), dlt_skey('s18-held', 'mysql'), dlt_skey('s18-busy', 'mysql'),
    dlt_skey('s18-held', 'postgres') . ':dropped', dlt_skey('s18-held', 'mysql') . ':dropped');
?>
--EXPECT--
-- postgres
held
another process holds the second lock
a third lock held on the same session
the wait ran to its timeout
{"checkHeld":"DistributedLockException","isAcquired":"false","nested":"DistributedLockException","other name":"true","release":"DistributedLockException","the waiting object":"DistributedLockException","token":"DistributedLockException","untimed, awaited name":"DistributedLockException"}
after the wait the lock is still held
and has a token
released: nothing held on the server
the lock destroyed in the handler is free on the server
the other process ended
-- mysql
held
another process holds the second lock
a third lock held on the same session
the wait ran to its timeout
{"checkHeld":"DistributedLockException","isAcquired":"false","nested":"DistributedLockException","other name":"true","release":"DistributedLockException","the waiting object":"DistributedLockException","token":"DistributedLockException","untimed, awaited name":"DistributedLockException"}
after the wait the lock is still held
and has a token
released: nothing held on the server
the lock destroyed in the handler is free on the server
the other process ended
