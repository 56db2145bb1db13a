--TEST--
SQL (postgres, mysql): the server killed (kill -9, own server) while a lock is held: isAcquired() false soon after, checkHeld() throws (lost or connection), release() does not hang, acquire while it is down throws DistributedLockConnectionException within connect_timeout + 1 s; after a restart new and old objects acquire again
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
foreach (['postgres' => 8, 'mysql' => 8] as $b => $n) {
    echo "-- $b\n";
    $port = (string) dlt_sql_own_port($b, $n);
    $dsn = dlt_sql_own_start($b, $n);
    $name = dlt_skey('s08-killed-server', $b);
    $l = new DistributedLock($name, dlt_sopts($b, ['connect_timeout' => 0.5], $dsn));
    dlt_check($l->acquire(5) && $l->isAcquired(), 'held');
    dlt_sql_sh($b, 'kill', $port);
    $t = microtime(true);
    dlt_check(dlt_until(fn() => !$l->isAcquired(), 3.0), 'isAcquired() false soon after the kill', microtime(true) - $t);
    [$cls, $dt] = dlt_throws(fn() => $l->checkHeld());
    dlt_check(in_array($cls, ['DistributedLockLostException', 'DistributedLockConnectionException'], true) && $dt < 1.5,
        'checkHeld() throws lost or connection, at once', [$cls, $dt]);
    [$cls, $dt] = dlt_throws(fn() => $l->release());
    dlt_check($cls !== 'none' && $dt < 1.5, 'release() throws, at once', [$cls, $dt]);
    $o = new DistributedLock($name, dlt_sopts($b, ['connect_timeout' => 0.5], $dsn));
    foreach (['tryAcquire' => fn() => $o->tryAcquire(), 'acquire()' => fn() => $o->acquire(), 'acquire(10)' => fn() => $o->acquire(10)] as $call => $f) {
        [$cls, $dt] = dlt_throws($f);
        dlt_check($cls === 'DistributedLockConnectionException' && $dt < 1.5, "$call while down: DistributedLockConnectionException within connect_timeout + 1 s", [$cls, $dt]);
    }
    dlt_sql_sh($b, 'restart', $port);
    dlt_check($o->acquire(5) && $o->isAcquired() && !$l->tryAcquire(), 'after the restart: a new acquire works (and excludes)');
    $o->checkHeld();
    $o->release();
    dlt_check($l->acquire(5) && $l->isAcquired(), 'the object that lost its hold acquires again');
    $l->checkHeld();
    $l->release();
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name, $dsn) === [], 5), 'nothing held at the end');
    dlt_sql_sh($b, 'stop', $port);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('postgres', 8);
dlt_sql_own_stop('mysql', 8);
?>
--EXPECT--
-- postgres
held
isAcquired() false soon after the kill
checkHeld() throws lost or connection, at once
release() throws, at once
tryAcquire while down: DistributedLockConnectionException within connect_timeout + 1 s
acquire() while down: DistributedLockConnectionException within connect_timeout + 1 s
acquire(10) while down: DistributedLockConnectionException within connect_timeout + 1 s
after the restart: a new acquire works (and excludes)
the object that lost its hold acquires again
nothing held at the end
-- mysql
held
isAcquired() false soon after the kill
checkHeld() throws lost or connection, at once
release() throws, at once
tryAcquire while down: DistributedLockConnectionException within connect_timeout + 1 s
acquire() while down: DistributedLockConnectionException within connect_timeout + 1 s
acquire(10) while down: DistributedLockConnectionException within connect_timeout + 1 s
after the restart: a new acquire works (and excludes)
the object that lost its hold acquires again
nothing held at the end
