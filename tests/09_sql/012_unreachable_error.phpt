--TEST--
SQL (postgres, mysql): a closed port or a server that never answers: DistributedLockConnectionException within connect_timeout + 1 s from acquire(), tryAcquire(), acquire(10) and participants(); never held
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
$s = stream_socket_server('tcp://127.0.0.1:0');
$closed = stream_socket_get_name($s, false);
fclose($s);
$mute = stream_socket_server('tcp://127.0.0.1:0');
$silent = stream_socket_get_name($mute, false);
foreach (['postgres', 'mysql'] as $b) {
    echo "-- $b\n";
    foreach (['closed port' => $closed, 'silent server' => $silent] as $what => $addr) {
        $opts = ['dsn' => "$b://dlock:dlock@$addr/dlock", 'connect_timeout' => 0.5];
        foreach (['acquire' => fn($l) => $l->acquire(), 'tryAcquire' => fn($l) => $l->tryAcquire(),
                  'acquire(10)' => fn($l) => $l->acquire(10.0)] as $call => $f) {
            $l = new DistributedLock('dlock-tests:s12-unreachable', $opts);
            [$cls, $dt] = dlt_throws(fn() => $f($l));
            dlt_check($cls === 'DistributedLockConnectionException' && $dt < 1.5 && !$l->isAcquired(), "$what, $call: DistributedLockConnectionException in time", [$cls, $dt]);
        }
        [$cls, $dt] = dlt_throws(fn() => DistributedLock::participants('dlock-tests:s12-unreachable', $opts));
        dlt_check($cls === 'DistributedLockConnectionException' && $dt < 1.5, "$what, participants: DistributedLockConnectionException in time", [$cls, $dt]);
    }
}
fclose($mute);
?>
--EXPECT--
-- postgres
closed port, acquire: DistributedLockConnectionException in time
closed port, tryAcquire: DistributedLockConnectionException in time
closed port, acquire(10): DistributedLockConnectionException in time
closed port, participants: DistributedLockConnectionException in time
silent server, acquire: DistributedLockConnectionException in time
silent server, tryAcquire: DistributedLockConnectionException in time
silent server, acquire(10): DistributedLockConnectionException in time
silent server, participants: DistributedLockConnectionException in time
-- mysql
closed port, acquire: DistributedLockConnectionException in time
closed port, tryAcquire: DistributedLockConnectionException in time
closed port, acquire(10): DistributedLockConnectionException in time
closed port, participants: DistributedLockConnectionException in time
silent server, acquire: DistributedLockConnectionException in time
silent server, tryAcquire: DistributedLockConnectionException in time
silent server, acquire(10): DistributedLockConnectionException in time
silent server, participants: DistributedLockConnectionException in time
