--TEST--
Multi-lock on PostgreSQL: two processes naming one server as 127.0.0.1 and as localhost, with opposite part lists, take the parts in one order and both finish (no deadlock)
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
$a = dlt_skey('s-spell-a', 'postgres');
$b = dlt_skey('s-spell-b', 'postgres');
$ip = dlt_sql_dsn('postgres');
$lh = str_replace('@127.0.0.1:', '@localhost:', $ip);
dlt_check($ip !== $lh, 'the test DSN names 127.0.0.1', $ip);
/* each child builds a multi-lock over a (first DSN) and b (second DSN) and
 * acquires it without a timeout; dlock.max_wait only turns a deadlock into
 * an exception instead of a hang */
$child = '
[$_, $a, $b, $da, $db] = $argv;
$m = new DistributedMultiLock([new DistributedLock($a, dlt_sopts("postgres", [], $da)),
                               new DistributedLock($b, dlt_sopts("postgres", [], $db))]);
echo "ready\n";
try {
    $m->acquire();
    echo "acquired\n";
    $m->release();
} catch (Throwable $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
';
$hold = new DistributedLock($a, dlt_sopts('postgres'));
$hold->acquire();
$waiters = fn() => count(array_filter(dlt_sql_name_locks('postgres', $a), fn($r) => !$r['granted']));
/* P1 spells a as 127.0.0.1, b as localhost; P2 the other way round. Spelled
 * order (server first) made P2 take b and then queue on a behind P1 */
$p1 = dlt_sspawn($child, [$a, $b, $ip, $lh], '-d dlock.max_wait=20');
echo 'P1 ', dlt_line($p1), "\n";
dlt_check(dlt_until(fn() => $waiters() === 1, 30), 'P1 queues on a');
$p2 = dlt_sspawn($child, [$a, $b, $lh, $ip], '-d dlock.max_wait=20');
echo 'P2 ', dlt_line($p2), "\n";
dlt_check(dlt_until(fn() => $waiters() === 2, 30), 'P2 queues on a');
$hold->release();
echo 'P1 ', dlt_line($p1, 60), "\n";
echo 'P2 ', dlt_line($p2, 60), "\n";
dlt_finish($p1);
dlt_finish($p2);
var_dump(dlt_sql_holders('postgres', $a), dlt_sql_holders('postgres', $b));
?>
--EXPECT--
the test DSN names 127.0.0.1
P1 ready
P1 queues on a
P2 ready
P2 queues on a
P1 acquired
P2 acquired
array(0) {
}
array(0) {
}
