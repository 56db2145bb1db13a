--TEST--
SQL (mysql): a MySQL DSN without a database is refused when the lock is made (ValueError naming what is missing), also for participants(), instead of every acquire failing with "No database selected" (review defect 28)
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
$b = 'mysql';
$nodb = preg_replace('~/[^/]*$~', '', dlt_sql_dsn($b));
foreach (["$nodb", "$nodb/"] as $dsn) {
    [$class] = dlt_throws(fn() => new DistributedLock('s48', dlt_sopts($b, [], $dsn)), $msg);
    echo $class, "\n";
    dlt_check(str_contains((string) $msg, 'must name a database'), 'the message says a database is needed', $msg);
    [$class] = dlt_throws(fn() => DistributedLock::participants('s48', dlt_sopts($b, [], $dsn)), $msg);
    echo 'participants(): ', $class, "\n";
}
?>
--EXPECT--
ValueError
the message says a database is needed
participants(): ValueError
ValueError
the message says a database is needed
participants(): ValueError
