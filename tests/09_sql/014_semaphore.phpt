--TEST--
SQL: DistributedSemaphore: on postgres N=2 admits two holders in two processes and a third waits until one leaves; on mysql it throws DistributedLockException (not offered)
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
$name = dlt_skey('s14-semaphore', 'postgres');
try {
    $a = new DistributedSemaphore($name, 2, dlt_sopts('postgres'));
    dlt_check($a->acquire(5), 'postgres: first holder here');
    $c = dlt_sspawn('
$s = new DistributedSemaphore($argv[1], 2, dlt_sopts("postgres"));
echo "second ", var_export($s->tryAcquire(), true), "\n";
fgets(STDIN);
$s->release();
', [$name]);
    dlt_check(dlt_line($c) === 'second true', 'postgres: a second holder in another process');
    $d = new DistributedSemaphore($name, 2, dlt_sopts('postgres'));
    dlt_check(!$d->tryAcquire(), 'postgres: a third is refused');
    dlt_send($c, 'go');
    dlt_finish($c);
    dlt_check($d->acquire(5), 'postgres: the third gets in once one left');
    $a->release();
    $d->release();
} catch (Throwable $e) {
    echo 'postgres: ', get_class($e), ': ', $e->getMessage(), "\n";
}
[$cls] = dlt_throws(function () {
    $s = new DistributedSemaphore(dlt_skey('s14-semaphore', 'mysql'), 2, dlt_sopts('mysql'));
    $s->acquire(1);
}, $msg);
dlt_check($cls === 'DistributedLockException' && stripos((string) $msg, 'not') !== false, 'mysql: a semaphore throws DistributedLockException (not offered)', [$cls, $msg]);
?>
--EXPECT--
postgres: first holder here
postgres: a second holder in another process
postgres: a third is refused
postgres: the third gets in once one left
mysql: a semaphore throws DistributedLockException (not offered)
