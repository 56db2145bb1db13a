--TEST--
SQL (postgres): a signal handler that throws during acquire(30) while the postmaster is stalled (SIGSTOP) ends the call within connect_timeout (2 s) plus slack: every step of the cancel obeys the deadline (issue 17 defect 20)
--EXTENSIONS--
dlock
pcntl
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
$b = 'postgres';
$port = dlt_sql_own_port($b, 25);
$dsn = dlt_sql_own_start($b, 25);
$pm = (int) file(rtrim(getenv('TMPDIR') ?: '/tmp', '/') . "/dlock-pg-$port/data/postmaster.pid")[0];
$name = dlt_skey('s25-stall', $b);
$h = new DistributedLock($name, dlt_sopts($b, [], $dsn));
dlt_check($h->acquire(5), 'held by the test');
$c = dlt_sspawn('
pcntl_async_signals(true);
$t0 = 0;
pcntl_signal(SIGUSR1, function () use (&$t0) { $t0 = microtime(true); throw new RuntimeException("stop"); });
$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 2]);
echo "waiting\n";
try {
    $r = var_export($l->acquire(30.0), true);
} catch (Throwable $e) {
    $r = get_class($e);
}
printf("%s after %.1f s\n", $r, microtime(true) - $t0);
', [$name, $dsn]);
dlt_check(dlt_line($c) === 'waiting', 'another process waits (connect_timeout 2 s)');
dlt_check(dlt_until(fn() => count(dlt_sql_name_locks($b, $name, $dsn)) === 2, 15), 'queued in the server');
posix_kill($pm, SIGSTOP);
try {
    posix_kill($c['pid'], SIGUSR1);
    $line = dlt_line($c, 12);
} finally {
    posix_kill($pm, SIGCONT);
}
dlt_check(preg_match('/^RuntimeException after (\S+) s$/', $line, $m) && (float) $m[1] < 5.0,
    'the handler\'s exception ends acquire() within 5 s though the postmaster is stalled', $line);
dlt_finish($c);
dlt_check(dlt_until(fn() => count(dlt_sql_name_locks($b, $name, $dsn)) === 1, 15), 'the waiter left the server\'s queue');
$h->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
$port = dlt_sql_own_port('postgres', 25);
$f = rtrim(getenv('TMPDIR') ?: '/tmp', '/') . "/dlock-pg-$port/data/postmaster.pid";
if (is_file($f)) {
    posix_kill((int) file($f)[0], SIGCONT);
}
dlt_sql_own_stop('postgres', 25);
?>
--EXPECT--
held by the test
another process waits (connect_timeout 2 s)
queued in the server
the handler's exception ends acquire() within 5 s though the postmaster is stalled
the waiter left the server's queue
