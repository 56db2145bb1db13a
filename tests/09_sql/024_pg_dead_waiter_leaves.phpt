--TEST--
SQL (postgres): a waiter killed with kill -9 leaves the server's queue (pg_locks, participants()) and frees its connection slot within 5 s while the lock stays held (client_connection_check_interval = 1 s, PostgreSQL 14+) (issue 17 defect 22)
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
$b = 'postgres';
$name = dlt_skey('s24-dead', $b);
$h = new DistributedLock($name, dlt_sopts($b));
dlt_check($h->acquire(5), 'held by the test');
$c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts("postgres"));
echo "waiting\n";
$l->acquire();
', [$name]);
dlt_check(dlt_line($c) === 'waiting', 'another process waits');
$waiter = fn() => array_values(array_filter(dlt_sql_name_locks($b, $name), fn($r) => !$r['granted']))[0]['sid'] ?? 0;
dlt_check(dlt_until(fn() => $waiter() > 0, 15), 'queued in the server');
$sid = $waiter();
dlt_check(count(DistributedLock::participants($name, dlt_sopts($b))) === 2, 'participants() lists holder and waiter');
dlt_signal($c, 9);
dlt_finish($c);
$t = microtime(true);
$gone = dlt_until(fn() => !dlt_sql_session_exists($b, $sid), 5);
dlt_check($gone, 'the killed waiter\'s session is gone within 5 s', microtime(true) - $t);
dlt_check($waiter() === 0, 'it is no longer queued');
$p = DistributedLock::participants($name, dlt_sopts($b));
dlt_check(count($p) === 1 && $p[0]['holder'] === true, 'participants() lists the holder only', $p);
dlt_check($h->isAcquired(), 'the lock is still held');
$h->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s24-dead', 'postgres'));
?>
--EXPECT--
held by the test
another process waits
queued in the server
participants() lists holder and waiter
the killed waiter's session is gone within 5 s
it is no longer queued
participants() lists the holder only
the lock is still held
