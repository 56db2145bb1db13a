--TEST--
SQL (postgres, mysql): a timed acquire($t) that waits on a server which then stalls (SIGSTOP of the server, own server, connection already open) returns within $t + 1 s and some scheduling slack (a DistributedLockConnectionException: the session is given up), not after $t + connect_timeout (review SQL finding 4: 2 s + connect_timeout)
--EXTENSIONS--
dlock
posix
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
/** Pids of $b's own server $port: the server process and (PostgreSQL) every backend. */
function server_pids(string $b, string $port): array
{
    $tmp = getenv('TMPDIR') ?: '/tmp';
    if ($b === 'mysql') {
        return [(int) trim(file_get_contents("$tmp/dlock-mysql-$port/pid"))];
    }
    $pm = (int) file("$tmp/dlock-pg-$port/data/postmaster.pid")[0];
    $pids = [$pm];
    foreach (glob('/proc/[0-9]*/stat') as $f) {
        $st = @file_get_contents($f);
        if ($st !== false && preg_match('~^(\d+) \(.*\) \S (\d+) ~s', $st, $m) && (int) $m[2] === $pm) {
            $pids[] = (int) $m[1];
        }
    }
    return $pids;
}
foreach (['postgres', 'mysql'] as $b) {
    echo "-- $b\n";
    $port = (string) dlt_sql_own_port($b, 53);
    $dsn = dlt_sql_own_start($b, 53);
    $name = dlt_skey('s53-stall', $b);
    $opts = dlt_sopts($b, ['connect_timeout' => 6], $dsn);
    /* the holder: a PDO session of this process, holding the server lock dlock uses for $name */
    $pdo = dlt_pdo($b, $dsn, $b === 'mysql');
    $got = $b === 'postgres'
        ? $pdo->query("SELECT pg_try_advisory_lock(('x' || left(encode(sha256('" . $name . "'::bytea), 'hex'), 16))::bit(64)::bigint)")->fetchColumn()
        : $pdo->query("SELECT GET_LOCK('" . dlt_my_lock_name($name, $dsn) . "', 0)")->fetchColumn();
    dlt_check($got === true || $got == 1, 'held by another session');
    $w = new DistributedLock($name, $opts);
    dlt_check($w->tryAcquire() === false, 'the waiter\'s connection is open, the lock taken');
    $pids = server_pids($b, $port);
    foreach ($pids as $p) {
        dlt_stop_process($p); /* every thread: one still running could answer */
    }
    try {
        $msg = '';
        [$cls, $dt] = dlt_throws(function () use ($w) {
            if ($w->acquire(2.0)) {
                throw new RuntimeException('acquired');
            }
        }, $msg);
    } finally {
        foreach ($pids as $p) {
            posix_kill($p, SIGCONT);
        }
    }
    dlt_check($cls === 'DistributedLockConnectionException', 'acquire(2.0) on the stalled server: DistributedLockConnectionException', [$cls, $msg]);
    dlt_check($dt >= 1.9 && $dt < 4.5, 'within 2 s + 1 s (+ 1.5 s slack), not 2 s + connect_timeout (6 s)', $dt);
    dlt_check(!$w->isAcquired(), 'not held');
    dlt_sql_own_stop($b, 53);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('postgres', 53);
dlt_sql_own_stop('mysql', 53);
?>
--EXPECT--
-- postgres
held by another session
the waiter's connection is open, the lock taken
acquire(2.0) on the stalled server: DistributedLockConnectionException
within 2 s + 1 s (+ 1.5 s slack), not 2 s + connect_timeout (6 s)
not held
-- mysql
held by another session
the waiter's connection is open, the lock taken
acquire(2.0) on the stalled server: DistributedLockConnectionException
within 2 s + 1 s (+ 1.5 s slack), not 2 s + connect_timeout (6 s)
not held
