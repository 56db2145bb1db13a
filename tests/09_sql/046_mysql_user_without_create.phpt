--TEST--
SQL (mysql): a user without the CREATE privilege locks and gets fencing tokens once dlock_tokens exists (created once by hand, as the README says): dlock only creates the table when it is missing (review defect 27: CREATE TABLE IF NOT EXISTS needed CREATE even when the table existed)
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
$dsn = dlt_sql_dsn($b);
[$host, $port, , , $db] = dlt_sql_parse($dsn);
dlt_pdo($b)->exec('CREATE TABLE IF NOT EXISTS dlock_tokens (name VARBINARY(1024) PRIMARY KEY, token BIGINT NOT NULL)');
$root = dlt_pdo($b, null, true);
$root->exec("DROP USER IF EXISTS 'dlt_s46'@'%'");
$root->exec("CREATE USER 'dlt_s46'@'%' IDENTIFIED BY 'pw46'");
$root->exec("GRANT SELECT, INSERT, UPDATE ON `$db`.dlock_tokens TO 'dlt_s46'@'%'");
$grants = implode(' ', array_column($root->query("SHOW GRANTS FOR 'dlt_s46'@'%'")->fetchAll(PDO::FETCH_NUM), 0));
dlt_check(!str_contains($grants, 'CREATE') && !str_contains($grants, 'ALL'), 'the user has no CREATE privilege', $grants);
$limited = "mysql://dlt_s46:pw46@$host:$port/$db";
$name = dlt_skey('s46-nocreate', $b);
try {
    $l = new DistributedLock($name, dlt_sopts($b, [], $limited));
    dlt_check($l->acquire(5), 'it acquires');
    $t1 = $l->getFencingToken();
    $l->release();
    dlt_check($l->acquire(5) && $l->getFencingToken() > $t1, 'and gets increasing tokens');
    $l->release();
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s46-nocreate', 'mysql'));
try {
    dlt_pdo('mysql', null, true)->exec("DROP USER IF EXISTS 'dlt_s46'@'%'");
} catch (Throwable $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
the user has no CREATE privilege
it acquires
and gets increasing tokens
