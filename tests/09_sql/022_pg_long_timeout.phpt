--TEST--
SQL (postgres): timeouts above lock_timeout's 24.8 days, up to the documented maximum of one year, work: granted at once on a free lock, and a waiter with a 40-day timeout is granted when the holder releases (issue 17 defect 25)
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
$name = dlt_skey('s22-long', $b);
$l = new DistributedLock($name, dlt_sopts($b));
foreach ([24 * 86400.0, 30 * 86400.0, 31536000.0] as $t) {
    $msg = '';
    $r = null;
    [$class] = dlt_throws(function () use ($l, $t, &$r) { $r = $l->acquire($t); }, $msg);
    dlt_check($class === 'none' && $r === true && $l->isAcquired(), "acquire($t) on a free lock: true", [$class, $msg, $r]);
    if ($l->isAcquired()) {
        $l->release();
    }
}
dlt_check($l->acquire(5), 'held');
$c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts("postgres"));
echo "waiting\n";
try {
    echo var_export($l->acquire(40 * 86400.0), true), "\n";
} catch (Throwable $e) {
    echo get_class($e), ": ", $e->getMessage(), "\n";
}
', [$name]);
dlt_check(dlt_line($c) === 'waiting', 'a second process waits with a 40-day timeout');
dlt_check(dlt_until(fn() => count(dlt_sql_name_locks($b, $name)) === 2, 15), 'queued in the server', dlt_sql_name_locks($b, $name));
$l->release();
$line = dlt_line($c, 15);
dlt_check($line === 'true', 'granted when the holder releases', $line);
dlt_finish($c);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s22-long', 'postgres'));
?>
--EXPECT--
acquire(2073600) on a free lock: true
acquire(2592000) on a free lock: true
acquire(31536000) on a free lock: true
held
a second process waits with a 40-day timeout
queued in the server
granted when the holder releases
