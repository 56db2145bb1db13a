--TEST--
SQL (postgres, mysql): the holder's session killed from the server side (pg_terminate_backend / KILL CONNECTION): isAcquired() false as soon as the kill is confirmed, checkHeld() and release() throw DistributedLockLostException, a waiter in another process acquires; the object acquires again afterwards
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
    $name = dlt_skey('s09-session-killed', $b);
    $l = new DistributedLock($name, dlt_sopts($b));
    dlt_check($l->acquire(5), 'held');
    $holders = dlt_sql_holders($b, $name);
    dlt_check(count($holders) === 1 && in_array($holders[0], dlt_sql_pid_sessions($b, getmypid()), true), 'by a session of this process', $holders);
    $w = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
echo "waiting\n";
$r = $l->acquire(30);
echo "waiter ", var_export($r, true), "\n";
fgets(STDIN);
$l->release();
', [$name, $b]);
    echo dlt_line($w), "\n";
    dlt_check(dlt_sql_kill_session($b, $holders[0]), 'the server ended the session');
    dlt_check(!$l->isAcquired(), 'isAcquired() false at once');
    [$cls] = dlt_throws(fn() => $l->checkHeld());
    dlt_check($cls === 'DistributedLockLostException', 'checkHeld() throws DistributedLockLostException', $cls);
    [$cls] = dlt_throws(fn() => $l->release());
    dlt_check($cls === 'DistributedLockLostException', 'release() throws DistributedLockLostException', $cls);
    echo dlt_line($w, 10), "\n";
    dlt_check(!$l->tryAcquire(), 'the waiter holds it now: tryAcquire() false');
    dlt_send($w, 'go');
    dlt_check(dlt_finish($w) === 0, 'waiter exit 0');
    dlt_check($l->acquire(5) && $l->isAcquired(), 'the object acquires again (new session)');
    $l->checkHeld();
    $l->release();
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'nothing held at the end');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s09-session-killed', 'postgres'), dlt_skey('s09-session-killed', 'mysql'));
?>
--EXPECT--
-- postgres
held
by a session of this process
waiting
the server ended the session
isAcquired() false at once
checkHeld() throws DistributedLockLostException
release() throws DistributedLockLostException
waiter true
the waiter holds it now: tryAcquire() false
waiter exit 0
the object acquires again (new session)
nothing held at the end
-- mysql
held
by a session of this process
waiting
the server ended the session
isAcquired() false at once
checkHeld() throws DistributedLockLostException
release() throws DistributedLockLostException
waiter true
the waiter holds it now: tryAcquire() false
waiter exit 0
the object acquires again (new session)
nothing held at the end
