--TEST--
Unix sockets (postgres ?host=/dir, mysql ?socket=/file, redis:///path and unix:///path?db=N): a lock taken over the socket excludes a holder over TCP on the same server and the other way round; a socket that does not exist is DistributedLockConnectionException
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif();
if (getenv('DLOCK_TEST_REDIS') === false) die('skip DLOCK_TEST_REDIS is not set (scripts/test.sh sets it)'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$tmp = getenv('TMPDIR') ?: '/tmp';
$pg = dlt_sql_parse(dlt_sql_dsn('postgres'));
$my = dlt_sql_parse(dlt_sql_dsn('mysql'));
$redis = getenv('DLOCK_TEST_REDIS');
$redisPort = explode(':', $redis)[1];
$redisSock = (getenv('DLOCK_REDIS_STATE') ?: '/tmp/dlock-redis') . "/$redisPort/sock";
$cases = [
    'postgres' => ["postgres://dlock@/dlock?host=$tmp/dlock-pg-$pg[1]&port=$pg[1]", dlt_sql_dsn('postgres'), "postgres://dlock@/dlock?host=$tmp/nope&port=$pg[1]"],
    'mysql' => ["mysql://dlock:dlock@/dlock?socket=$tmp/dlock-mysql-$my[1]/sock", dlt_sql_dsn('mysql'), "mysql://dlock:dlock@/dlock?socket=$tmp/nope.sock"],
    'redis' => ["redis://$redisSock", "redis://$redis", 'redis:///tmp/nope.sock'],
    'redis db 3' => ["unix://$redisSock?db=3", "redis://$redis/3", 'unix:///tmp/nope.sock?db=3'],
];
foreach ($cases as $b => [$sock, $tcp, $missing]) {
    $name = 'dlock-tests:t03-sock:' . str_replace(' ', '-', $b);
    $child = '$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 30]);
$ok = $l->tryAcquire(); echo $ok ? "free " . ($l->getFencingToken() > 0 ? "token" : "no-token") : "held", "\n";';
    $l = new DistributedLock($name, ['dsn' => $sock, 'connect_timeout' => 30]);
    dlt_check($l->tryAcquire(), "$b: tryAcquire over the socket");
    $c = dlt_sspawn($child, [$name, $tcp]);
    dlt_check(dlt_line($c) === 'held', "$b: another process over TCP finds it held");
    $l->release();
    $t = new DistributedLock($name, ['dsn' => $tcp, 'connect_timeout' => 30]);
    dlt_check($t->tryAcquire(), "$b: free again over TCP after the release, taken");
    $c = dlt_sspawn($child, [$name, $sock]);
    dlt_check(dlt_line($c) === 'held', "$b: another process over the socket finds the TCP holder");
    $t->release();
    $c = dlt_sspawn($child, [$name, $sock]);
    dlt_check(dlt_line($c) === 'free token', "$b: after that release, another process over the socket takes it (with a token)");
    $x = new DistributedLock($name, ['dsn' => $missing, 'connect_timeout' => 2]);
    [$cls, $dt] = dlt_throws(fn() => $x->tryAcquire(), $msg);
    dlt_check($cls === 'DistributedLockConnectionException' && $dt < 3.5, "$b: a missing socket: DistributedLockConnectionException", [$cls, $msg]);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean('dlock-tests:t03-sock:postgres', 'dlock-tests:t03-sock:mysql');
?>
--EXPECT--
postgres: tryAcquire over the socket
postgres: another process over TCP finds it held
postgres: free again over TCP after the release, taken
postgres: another process over the socket finds the TCP holder
postgres: after that release, another process over the socket takes it (with a token)
postgres: a missing socket: DistributedLockConnectionException
mysql: tryAcquire over the socket
mysql: another process over TCP finds it held
mysql: free again over TCP after the release, taken
mysql: another process over the socket finds the TCP holder
mysql: after that release, another process over the socket takes it (with a token)
mysql: a missing socket: DistributedLockConnectionException
redis: tryAcquire over the socket
redis: another process over TCP finds it held
redis: free again over TCP after the release, taken
redis: another process over the socket finds the TCP holder
redis: after that release, another process over the socket takes it (with a token)
redis: a missing socket: DistributedLockConnectionException
redis db 3: tryAcquire over the socket
redis db 3: another process over TCP finds it held
redis db 3: free again over TCP after the release, taken
redis db 3: another process over the socket finds the TCP holder
redis db 3: after that release, another process over the socket takes it (with a token)
redis db 3: a missing socket: DistributedLockConnectionException
