--TEST--
SQL (postgres): through PgBouncer in transaction mode the first process is refused with a message naming the pooler, and so is the next one (not "prepared statement already exists"); through PgBouncer in session mode locks work and exclude direct clients (issue 17 defect 26)
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
$name = dlt_skey('s21-pooler', $b);
$tx = dlt_sql_sh($b, 'start-pooler', (string) dlt_sql_own_port($b, 21), (string) dlt_sql_parse(dlt_sql_dsn($b))[1]);
$session = str_replace('/dlock_tx', '/dlock_session', $tx);
/* behind a pooler a connect opens a second, short session (the pooler probe): a generous
 * connect_timeout, as under valgrind two SCRAM logins take seconds */
$msg = '';
[$class] = dlt_throws(function () use ($b, $name, $tx) {
    $l = new DistributedLock($name, ["dsn" => $tx, "connect_timeout" => 30]);
    $l->acquire(2);
}, $msg);
dlt_check($class === 'DistributedLockException' && str_contains($msg, 'pooler in transaction mode'),
    'the first process through the transaction pooler: refused, naming the pooler', [$class, $msg]);
for ($i = 2; $i <= 3; $i++) {
    $c = dlt_sspawn('
try {
    $l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 30]);
    echo json_encode(["none", $l->acquire(2)]), "\n";
} catch (Throwable $e) {
    echo json_encode([get_class($e), $e->getMessage()]), "\n";
}
', [$name, $tx]);
    $r = json_decode(dlt_line($c), true);
    dlt_finish($c);
    dlt_check(($r[0] ?? '') === 'DistributedLockException' && str_contains($r[1] ?? '', 'pooler in transaction mode'),
        "process $i through the transaction pooler: refused the same way", $r);
}
dlt_check(dlt_sql_holders($b, $name) === [], 'nothing is held on the server');
$l = new DistributedLock($name, ["dsn" => $session, "connect_timeout" => 30]);
dlt_check($l->acquire(5) && $l->isAcquired() && $l->getFencingToken() > 0, 'through the session-mode pool: acquired, held, a token');
$d = new DistributedLock($name, dlt_sopts($b));
dlt_check($d->tryAcquire() === false, 'a direct client is excluded');
$l->release();
dlt_check($d->tryAcquire() === true, 'and gets it after the release');
$d->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
try {
    dlt_sql_sh('postgres', 'stop-pooler', (string) dlt_sql_own_port('postgres', 21));
} catch (Throwable $e) {
    echo $e->getMessage(), "\n";
}
dlt_sql_clean(dlt_skey('s21-pooler', 'postgres'));
?>
--EXPECT--
the first process through the transaction pooler: refused, naming the pooler
process 2 through the transaction pooler: refused the same way
process 3 through the transaction pooler: refused the same way
nothing is held on the server
through the session-mode pool: acquired, held, a token
a direct client is excluded
and gets it after the release
