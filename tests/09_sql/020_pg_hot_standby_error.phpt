--TEST--
SQL (postgres): a DSN pointing at a hot standby is refused at connect with a message that says why, while a client of the primary holds the same name (acquire, tryAcquire, participants throw; isAcquired false) (issue 17 defect 18)
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
$name = dlt_skey('s20-standby', $b);
$primary = new DistributedLock($name, dlt_sopts($b));
dlt_check($primary->acquire(5) && $primary->getFencingToken() > 0, 'a client of the primary holds the lock (the token table exists)');
$dsn = dlt_sql_sh($b, 'start-standby', (string) dlt_sql_own_port($b, 20), (string) dlt_sql_parse(dlt_sql_dsn($b))[1]);
$rec = dlt_sql_rows($b, 'SELECT pg_is_in_recovery() AS r', [], $dsn)[0]['r'] ?? null;
dlt_check($rec === true, 'the second server is a streaming hot standby that accepts logins', $rec);
$s = new DistributedLock($name, dlt_sopts($b, [], $dsn));
foreach (['acquire' => fn() => $s->acquire(2), 'tryAcquire' => fn() => $s->tryAcquire(),
          'participants' => fn() => DistributedLock::participants($name, dlt_sopts($b, [], $dsn))] as $what => $f) {
    $msg = '';
    [$class, $dt] = dlt_throws($f, $msg);
    dlt_check($class === 'DistributedLockException' && str_contains($msg, 'hot standby') && str_contains($msg, 'primary'),
        "$what on the standby: DistributedLockException naming the hot standby", [$class, $msg]);
}
dlt_check(!$s->isAcquired(), 'isAcquired() on the standby: false');
dlt_check($primary->isAcquired() && dlt_sql_holders($b, $name) !== [], 'the primary client still holds');
$primary->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('postgres', 20);
dlt_sql_clean(dlt_skey('s20-standby', 'postgres'));
?>
--EXPECT--
a client of the primary holds the lock (the token table exists)
the second server is a streaming hot standby that accepts logins
acquire on the standby: DistributedLockException naming the hot standby
tryAcquire on the standby: DistributedLockException naming the hot standby
participants on the standby: DistributedLockException naming the hot standby
isAcquired() on the standby: false
the primary client still holds
