--TEST--
SQL (postgres, mysql): reentrancy is counted in the object (token unchanged, one hold on the server, held for other processes until the last release); 'reentrant' => false throws on a second acquire
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
/* release() waits for the server's reply: the test looks at the server right after it */
ini_set('dlock.async_release', '0');
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s02-reentrant', $b);
    $l = new DistributedLock($name, dlt_sopts($b));
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
while (($cmd = trim((string) fgets(STDIN))) === "try") {
    $r = $l->tryAcquire();
    if ($r) { $l->release(); }
    echo var_export($r, true), "\n";
}
', [$name, $b]);
    $other = function () use (&$c): string { dlt_send($c, 'try'); return dlt_line($c); };
    dlt_check($l->acquire() && $l->tryAcquire() && $l->acquire(1.0), 'three nested acquires');
    $token = $l->getFencingToken();
    dlt_check(count(dlt_sql_holders($b, $name)) === 1, 'one hold on the server', dlt_sql_name_locks($b, $name));
    dlt_check($other() === 'false', 'another process cannot take it');
    $l->release();
    $l->release();
    dlt_check($l->isAcquired() && $l->getFencingToken() === $token, 'still held after two releases, same token');
    dlt_check(count(dlt_sql_holders($b, $name)) === 1, 'still one hold on the server');
    dlt_check($other() === 'false', 'another process still cannot take it');
    $l->release();
    dlt_check(!$l->isAcquired() && dlt_sql_holders($b, $name) === [], 'the last release frees it');
    dlt_check($other() === 'true', 'another process takes it now');
    [$cls] = dlt_throws(fn() => $l->release());
    dlt_check($cls === 'DistributedLockException', 'release while not held throws DistributedLockException', $cls);
    dlt_send($c, 'exit');
    dlt_check(dlt_finish($c) === 0, 'child exit 0');

    $nr = dlt_skey('s02-nonreentrant', $b);
    $n = new DistributedLock($nr, dlt_sopts($b, ['reentrant' => false]));
    dlt_check($n->acquire(), 'non-reentrant: first acquire');
    [$cls] = dlt_throws(fn() => $n->acquire(1.0));
    dlt_check($cls === 'DistributedLockException', 'non-reentrant: second acquire throws DistributedLockException', $cls);
    [$cls] = dlt_throws(fn() => $n->tryAcquire());
    dlt_check($cls === 'DistributedLockException', 'non-reentrant: tryAcquire throws DistributedLockException', $cls);
    dlt_check($n->isAcquired() && count(dlt_sql_holders($b, $nr)) === 1, 'still held once');
    $n->release();
    dlt_check(!$n->isAcquired() && dlt_sql_holders($b, $nr) === [], 'one release frees it');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s02-reentrant', 'postgres'), dlt_skey('s02-reentrant', 'mysql'), dlt_skey('s02-nonreentrant', 'postgres'), dlt_skey('s02-nonreentrant', 'mysql'));
?>
--EXPECT--
-- postgres
three nested acquires
one hold on the server
another process cannot take it
still held after two releases, same token
still one hold on the server
another process still cannot take it
the last release frees it
another process takes it now
release while not held throws DistributedLockException
child exit 0
non-reentrant: first acquire
non-reentrant: second acquire throws DistributedLockException
non-reentrant: tryAcquire throws DistributedLockException
still held once
one release frees it
-- mysql
three nested acquires
one hold on the server
another process cannot take it
still held after two releases, same token
still one hold on the server
another process still cannot take it
the last release frees it
another process takes it now
release while not held throws DistributedLockException
child exit 0
non-reentrant: first acquire
non-reentrant: second acquire throws DistributedLockException
non-reentrant: tryAcquire throws DistributedLockException
still held once
one release frees it
