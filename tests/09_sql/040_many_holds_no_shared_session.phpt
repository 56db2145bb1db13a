--TEST--
SQL (postgres): however many objects of this process hold one name (a DistributedLock and then 64 semaphore leases of the same name: 65 holds), a second DistributedLock on that name never takes a holder's session: tryAcquire() false and one holder only (review defect 17: the list of sessions to avoid was capped at 64)
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
/* MySQL has neither semaphores nor read locks: one process cannot hold one name twice there */
$b = 'postgres';
$name = dlt_skey('s40-many', $b);
$first = new DistributedLock($name, dlt_sopts($b));
dlt_check($first->acquire(5), 'a DistributedLock holds the name');
$sems = [];
for ($i = 0; $i < 64; $i++) {
    $s = new DistributedSemaphore($name, 100, dlt_sopts($b));
    if (!$s->tryAcquire()) {
        break;
    }
    $sems[] = $s;
}
dlt_check(count($sems) === 64, '64 leases of a semaphore of the same name held beside it', count($sems));
$second = new DistributedLock($name, dlt_sopts($b));
$r = $second->tryAcquire();
dlt_check($r === false, 'a second DistributedLock: tryAcquire() false');
dlt_check($first->isAcquired() && !$second->isAcquired(), 'only the first holds it');
dlt_check(count(dlt_sql_holders($b, $name)) === 1, 'the server shows one holder', dlt_sql_holders($b, $name));
if ($r) {
    $second->release();
}
$first->release();
dlt_check($second->tryAcquire(), 'released: the second gets it now');
$second->release();
foreach ($sems as $s) {
    $s->release();
}
dlt_check(dlt_sql_holders($b, $name) === [], 'nothing held at the end');
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s40-many', 'postgres'));
?>
--EXPECT--
a DistributedLock holds the name
64 leases of a semaphore of the same name held beside it
a second DistributedLock: tryAcquire() false
only the first holds it
the server shows one holder
released: the second gets it now
nothing held at the end
