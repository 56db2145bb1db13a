--TEST--
TLS (mysql): with the TLS-only server stalled (SIGSTOP), a holder's isAcquired(), checkHeld(), getFencingToken() and release() and a waiting acquire($t) return within connect_timeout (or $t + 1 s) and slack, never "held" on a session that gave no answer (review 20 F2: over TLS Connector/C left the socket blocking and SSL_read() waited for the whole stall)
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
$b = 'mysql';
$port = (string) dlt_sql_own_port($b, 72);
$dsn = dlt_sql_sh($b, 'start-tls', $port);
$tmp = getenv('TMPDIR') ?: '/tmp';
$pid = (int) trim(file_get_contents("$tmp/dlock-mysql-$port/pid"));
$opts = ['dsn' => $dsn, 'connect_timeout' => 2];
/** Runs $f with the server stopped (for 8 s at most: a call that waits for the whole stall
 * then shows as 8 s, not as a hung test); returns [result or exception class, seconds]. */
function stalled(int $pid, callable $f): array
{
    dlt_stop_process($pid); /* every thread: one still running could answer */
    $guard = proc_open(['sh', '-c', "sleep 8; kill -CONT $pid"], [], $pipes);
    $t = microtime(true);
    try {
        $r = $f();
    } catch (Throwable $e) {
        $r = get_class($e);
    } finally {
        $dt = microtime(true) - $t;
        posix_kill($pid, SIGCONT);
        proc_terminate($guard);
        proc_close($guard);
    }
    return [$r, $dt];
}
$ops = [
    'isAcquired' => fn($l) => $l->isAcquired() ? 'held' : 'not held',
    'checkHeld' => function ($l) { $l->checkHeld(); return 'held'; },
    'getFencingToken' => fn($l) => $l->getFencingToken(),
    'release' => function ($l) { $l->release(); return 'released'; },
];
foreach ($ops as $op => $f) {
    $l = new DistributedLock(dlt_skey("t08-$op", $b), $opts);
    dlt_check($l->acquire(10), "$op: held over TLS");
    [$r, $dt] = stalled($pid, fn() => $f($l));
    dlt_check($dt < 2 + 1.5, "$op on the stalled server returns within connect_timeout (2 s) + 1.5 s slack", [$r, $dt]);
    dlt_check($r !== 'held' && !is_int($r), "$op does not vouch for the lock without an answer", $r);
    $l = null;
}
$name = dlt_skey('t08-wait', $b);
$h = new DistributedLock($name, $opts);
$w = new DistributedLock($name, $opts);
dlt_check($h->acquire(10) && $w->tryAcquire() === false, 'wait: another session holds it, the waiter\'s session is open');
[$r, $dt] = stalled($pid, fn() => $w->acquire(2.0) ? 'held' : 'not held');
dlt_check($dt >= 1.9 && $dt < 2 + 1 + 1.5, 'acquire(2.0) on the stalled server returns within 2 s + 1 s (+ 1.5 s slack)', [$r, $dt]);
dlt_check($r !== 'held' && !$w->isAcquired(), 'the waiter does not hold it', $r);
dlt_sql_sh($b, 'stop', $port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('mysql', 72);
?>
--EXPECT--
isAcquired: held over TLS
isAcquired on the stalled server returns within connect_timeout (2 s) + 1.5 s slack
isAcquired does not vouch for the lock without an answer
checkHeld: held over TLS
checkHeld on the stalled server returns within connect_timeout (2 s) + 1.5 s slack
checkHeld does not vouch for the lock without an answer
getFencingToken: held over TLS
getFencingToken on the stalled server returns within connect_timeout (2 s) + 1.5 s slack
getFencingToken does not vouch for the lock without an answer
release: held over TLS
release on the stalled server returns within connect_timeout (2 s) + 1.5 s slack
release does not vouch for the lock without an answer
wait: another session holds it, the waiter's session is open
acquire(2.0) on the stalled server returns within 2 s + 1 s (+ 1.5 s slack)
the waiter does not hold it
