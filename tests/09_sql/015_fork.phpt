--TEST--
SQL (postgres, mysql): after pcntl_fork() the child holds nothing (isAcquired() false, release() throws) and never releases the parent's hold, not even by exiting; a third process still finds it held
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s15-fork', $b);
    $l = new DistributedLock($name, dlt_sopts($b));
    $l->acquire();
    $token = $l->getFencingToken();
    $holders = dlt_sql_holders($b, $name);
    $out = tempnam(sys_get_temp_dir(), 'dlt-sfork');
    $pid = pcntl_fork();
    if ($pid === 0) {
        $r = [];
        $r[] = 'child isAcquired: ' . var_export($l->isAcquired(), true);
        try {
            $l->release();
            $r[] = 'child release: ok?!';
        } catch (DistributedLockException $e) {
            $r[] = 'child release: ' . get_class($e);
        }
        $mine = new DistributedLock($name, dlt_sopts($b));
        $r[] = 'child tryAcquire: ' . var_export($mine->tryAcquire(), true);
        file_put_contents($out, implode("\n", $r) . "\n");
        exit(0);
    }
    pcntl_waitpid($pid, $status);
    echo file_get_contents($out);
    unlink($out);
    dlt_check(pcntl_wexitstatus($status) === 0, 'child exit 0');
    dlt_check($l->isAcquired() && $l->getFencingToken() === $token, 'the parent still holds');
    $l->checkHeld();
    dlt_check(dlt_sql_holders($b, $name) === $holders, 'the server shows the same hold');
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
echo var_export($l->tryAcquire(), true), "\n";
', [$name, $b]);
    dlt_check(dlt_line($c) === 'false', 'a third process: tryAcquire false');
    dlt_finish($c);
    $l->release();
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'the parent releases it');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s15-fork', 'postgres'), dlt_skey('s15-fork', 'mysql'));
?>
--EXPECT--
-- postgres
child isAcquired: false
child release: DistributedLockException
child tryAcquire: false
child exit 0
the parent still holds
the server shows the same hold
a third process: tryAcquire false
the parent releases it
-- mysql
child isAcquired: false
child release: DistributedLockException
child tryAcquire: false
child exit 0
the parent still holds
the server shows the same hold
a third process: tryAcquire false
the parent releases it
