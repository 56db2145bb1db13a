--TEST--
SQL (mysql): a user without the CREATE privilege, in a database without dlock_tokens, gets a DistributedLockException that names the missing table and gives the statement to create it once by hand (review defect 27)
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
[$host, $port] = dlt_sql_parse(dlt_sql_dsn($b));
$root = dlt_pdo($b, null, true);
$root->exec('DROP DATABASE IF EXISTS dlt_s47');
$root->exec('CREATE DATABASE dlt_s47');
$root->exec("DROP USER IF EXISTS 'dlt_s47'@'%'");
$root->exec("CREATE USER 'dlt_s47'@'%' IDENTIFIED BY 'pw47'");
$root->exec("GRANT SELECT, INSERT, UPDATE ON dlt_s47.* TO 'dlt_s47'@'%'");
$l = new DistributedLock(dlt_skey('s47', $b), dlt_sopts($b, [], "mysql://dlt_s47:pw47@$host:$port/dlt_s47"));
[$class] = dlt_throws(fn() => $l->acquire(5), $msg);
echo $class, "\n";
dlt_check(str_contains((string) $msg, 'dlock_tokens is missing') &&
          str_contains((string) $msg, 'create it once by hand: CREATE TABLE dlock_tokens (name VARBINARY(1024) PRIMARY KEY, token BIGINT NOT NULL)'),
          'the message names the table and how to create it', $msg);
dlt_check(!$l->isAcquired(), 'nothing held');
$n = (int) $root->query("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dlt_s47'")->fetchColumn();
dlt_check($n === 0, 'no table was created');
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
try {
    dlt_pdo('mysql', null, true)->exec("DROP USER IF EXISTS 'dlt_s47'@'%'");
    dlt_pdo('mysql', null, true)->exec('DROP DATABASE IF EXISTS dlt_s47');
} catch (Throwable $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
DistributedLockException
the message names the table and how to create it
nothing held
no table was created
