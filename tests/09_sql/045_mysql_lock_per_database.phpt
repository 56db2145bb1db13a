--TEST--
SQL (mysql): a lock lives in the DSN's database, as on PostgreSQL, and so do its fencing tokens: the same name in two databases of one server is two locks, each with tokens that only increase; within one database holders exclude each other (review defect 23: GET_LOCK was server-wide, the token table per database, and tokens went 1, 2, 3, then 1)
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
$dsn1 = dlt_sql_dsn($b);
[, , $user] = dlt_sql_parse($dsn1);
$root = dlt_pdo($b, $dsn1, true);
$root->exec('CREATE DATABASE IF NOT EXISTS dlt_s45');
$root->exec("GRANT ALL ON dlt_s45.* TO '$user'@'%'");
$dsn2 = preg_replace('~/[^/]*$~', '/dlt_s45', $dsn1);
$name = dlt_skey('s45-per-db', $b);
foreach (['short' => $name, 'long' => $name . str_repeat('x', 80)] as $what => $n) {
    echo "-- $what name\n";
    $tokens = [];
    foreach ([$dsn1, $dsn2, $dsn1, $dsn2, $dsn1] as $i => $dsn) {
        $l = new DistributedLock($n, dlt_sopts($b, [], $dsn));
        $l->acquire(5);
        $tokens[$dsn][] = $l->getFencingToken();
        $l->release();
    }
    dlt_check($tokens[$dsn1] === [1, 2, 3], 'tokens in the first database: 1, 2, 3', $tokens[$dsn1]);
    dlt_check($tokens[$dsn2] === [1, 2], 'tokens in the second database: 1, 2', $tokens[$dsn2]);
    $a = new DistributedLock($n, dlt_sopts($b, [], $dsn1));
    $c = new DistributedLock($n, dlt_sopts($b, [], $dsn2));
    dlt_check($a->tryAcquire() && $c->tryAcquire(), 'one holder in each database at once');
    $ta = $a->getFencingToken();
    $tc = $c->getFencingToken();
    dlt_check($ta === 4 && $tc === 3, 'each with its own database\'s next token', [$ta, $tc]);
    $o = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts("mysql", [], $argv[2]));
echo var_export($l->tryAcquire(), true), "\n";
', [$n, $dsn1]);
    dlt_check(dlt_line($o) === 'false', 'another process in the first database: tryAcquire() false');
    dlt_finish($o);
    dlt_check(dlt_sql_holders($b, $n, $dsn1) !== [] && dlt_sql_holders($b, $n, $dsn2) !== [], 'the server shows the holds under <database>.<name>');
    $a->release();
    $c->release();
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s45-per-db', 'mysql'), dlt_skey('s45-per-db', 'mysql') . str_repeat('x', 80));
try {
    dlt_pdo('mysql', null, true)->exec('DROP DATABASE IF EXISTS dlt_s45');
} catch (Throwable $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
-- short name
tokens in the first database: 1, 2, 3
tokens in the second database: 1, 2
one holder in each database at once
each with its own database's next token
another process in the first database: tryAcquire() false
the server shows the holds under <database>.<name>
-- long name
tokens in the first database: 1, 2, 3
tokens in the second database: 1, 2
one holder in each database at once
each with its own database's next token
another process in the first database: tryAcquire() false
the server shows the holds under <database>.<name>
