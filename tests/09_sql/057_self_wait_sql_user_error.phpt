--TEST--
Self-deadlock guard on MySQL: a name held through one user and asked for untimed through another user of the same server and database throws instead of waiting for itself (a name on one database is one lock whoever asks); a multi-lock with both is refused
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--INI--
dlock.max_wait=6
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$b = 'mysql';
[$host, $port, , , $db] = dlt_sql_parse(dlt_sql_dsn($b));
$root = dlt_pdo($b, null, true);
$root->exec("DROP USER IF EXISTS 'dlt_k22'@'%'");
$root->exec("CREATE USER 'dlt_k22'@'%' IDENTIFIED BY 'pw22'");
$root->exec("GRANT ALL ON `$db`.* TO 'dlt_k22'@'%'");
$other = "mysql://dlt_k22:pw22@$host:$port/$db";
$name = dlt_skey('k22-user', $b);
$a = new DistributedLock($name, dlt_sopts($b));
$a->acquire();
$o = new DistributedLock($name, dlt_sopts($b, [], $other));
$t = microtime(true);
try {
    $o->acquire();
    echo "acquired?!\n";
} catch (DistributedLockException $e) {
    printf("%s: %s (%s)\n", get_class($e), $e->getMessage(), microtime(true) - $t < 3 ? 'at once' : sprintf('after %.1f s', microtime(true) - $t));
}
var_dump($o->acquire(0.2));                     /* with a timeout it is allowed, and just fails */
$a->release();
try {
    new DistributedMultiLock([new DistributedLock($name, dlt_sopts($b)), new DistributedLock($name, dlt_sopts($b, [], $other))]);
    echo "multi accepted\n";
} catch (ValueError $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$root->exec("DROP USER IF EXISTS 'dlt_k22'@'%'");
?>
--EXPECTF--
DistributedLockException: %s: this process already holds it through another object; waiting without a timeout would wait for itself (at once)
bool(false)
ValueError: DistributedMultiLock::__construct(): Argument #1 ($locks) contains two locks on the same path (%s): it would wait for itself
