--TEST--
SQL: DistributedReadWriteLock on postgres (two readers in two processes at once, a writer excluded while a reader holds, readers excluded while the writer holds); on mysql it throws DistributedLockException (not supported); DistributedMultiLock is all or nothing on both
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
/* postgres: shared advisory locks */
$name = dlt_skey('s13-rw', 'postgres');
$a = new DistributedReadWriteLock($name, dlt_sopts('postgres'));
dlt_check($a->readLock()->acquire(5), 'postgres: a reader here');
$r = dlt_sspawn('
$l = new DistributedReadWriteLock($argv[1], dlt_sopts("postgres"));
echo "read ", var_export($l->readLock()->tryAcquire(), true), "\n";
fgets(STDIN);
$l->readLock()->release();
echo "released\n";
', [$name]);
$w = dlt_sspawn('
$l = new DistributedReadWriteLock($argv[1], dlt_sopts("postgres"));
fgets(STDIN);
echo "write ", var_export($l->writeLock()->tryAcquire(), true), "\n";
fgets(STDIN);
echo "write ", var_export($l->writeLock()->acquire(10), true), "\n";
fgets(STDIN);
$l->writeLock()->release();
echo "done\n";
', [$name]);
dlt_check(dlt_line($r) === 'read true', 'postgres: a reader in another process at the same time');
$rows = dlt_sql_name_locks('postgres', $name);
dlt_check(count($rows) === 2 && $rows[0]['shared'] && $rows[1]['shared'] && $rows[0]['granted'] && $rows[1]['granted'], 'postgres: the server shows two shared holds', $rows);
dlt_send($w, 'try');
dlt_check(($line = dlt_line($w)) === 'write false', 'postgres: a writer (third process) is excluded while readers hold', $line);
$a->readLock()->release();
dlt_send($r, 'go');
echo dlt_line($r), "\n";
dlt_finish($r);
dlt_send($w, 'acquire');
dlt_check(($line = dlt_line($w)) === 'write true', 'postgres: the writer gets it once both readers left', $line);
$o = new DistributedReadWriteLock($name, dlt_sopts('postgres'));
dlt_check(!$o->readLock()->tryAcquire() && !$o->writeLock()->tryAcquire(), 'postgres: readers and writers excluded while the writer holds');
dlt_send($w, 'release');
echo dlt_line($w), "\n";
dlt_finish($w);
dlt_check($o->readLock()->tryAcquire(), 'postgres: free again');
$o->readLock()->release();

/* mysql: GET_LOCK has no shared mode */
$m = dlt_skey('s13-rw', 'mysql');
[$cls] = dlt_throws(function () use ($m) {
    $l = new DistributedReadWriteLock($m, dlt_sopts('mysql'));
    $l->readLock()->acquire(1);
}, $msg);
dlt_check($cls === 'DistributedLockException' && stripos((string) $msg, 'not') !== false, 'mysql: a read-write lock throws DistributedLockException (not offered)', [$cls, $msg]);

foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b multi\n";
    $p = [dlt_skey('s13-multi-a', $b), dlt_skey('s13-multi-b', $b)];
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$l->acquire();
echo "holding\n";
fgets(STDIN);
$l->release();
echo "released\n";
', [$p[1], $b]);
    echo dlt_line($c), "\n";
    $locks = [new DistributedLock($p[0], dlt_sopts($b)), new DistributedLock($p[1], dlt_sopts($b))];
    $multi = new DistributedMultiLock($locks);
    $t = microtime(true);
    dlt_check($multi->acquire(0.5) === false && microtime(true) - $t >= 0.45, 'acquire(0.5) false after the timeout');
    dlt_check(!$multi->isAcquired() && !$locks[0]->isAcquired() && !$locks[1]->isAcquired(), 'holds none of the parts');
    dlt_check(dlt_sql_holders($b, $p[0]) === [], 'the free part is not held on the server');
    dlt_check($multi->tryAcquire() === false && dlt_sql_holders($b, $p[0]) === [], 'tryAcquire false, still nothing held');
    dlt_send($c, 'go');
    echo dlt_line($c), "\n";
    dlt_finish($c);
    dlt_check($multi->acquire(10) && $locks[0]->isAcquired() && $locks[1]->isAcquired(), 'once free: holds all');
    dlt_check(count(dlt_sql_holders($b, $p[0])) === 1 && count(dlt_sql_holders($b, $p[1])) === 1, 'both held on the server');
    $multi->checkHeld();
    $multi->release();
    dlt_check(!$locks[0]->isAcquired() && !$locks[1]->isAcquired() && dlt_until(fn() => dlt_sql_holders($b, $p[0]) === [] && dlt_sql_holders($b, $p[1]) === [], 5), 'released all');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
foreach (['s13-rw', 's13-multi-a', 's13-multi-b'] as $n) {
    dlt_sql_clean(dlt_skey($n, 'postgres'), dlt_skey($n, 'mysql'));
}
?>
--EXPECT--
postgres: a reader here
postgres: a reader in another process at the same time
postgres: the server shows two shared holds
postgres: a writer (third process) is excluded while readers hold
released
postgres: the writer gets it once both readers left
postgres: readers and writers excluded while the writer holds
done
postgres: free again
mysql: a read-write lock throws DistributedLockException (not offered)
-- postgres multi
holding
acquire(0.5) false after the timeout
holds none of the parts
the free part is not held on the server
tryAcquire false, still nothing held
released
once free: holds all
both held on the server
released all
-- mysql multi
holding
acquire(0.5) false after the timeout
holds none of the parts
the free part is not held on the server
tryAcquire false, still nothing held
released
once free: holds all
both held on the server
released all
