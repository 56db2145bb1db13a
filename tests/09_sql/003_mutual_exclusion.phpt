--TEST--
SQL (postgres, mysql): 4 processes x 40 cycles increment a shared file counter under the lock (read, pause, write): the total is exact, every holder's token is new and larger than the one before it
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
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s03-mutex', $b);
    $file = tempnam(sys_get_temp_dir(), 'dlt-smutex');
    file_put_contents($file, "0 0");
    $kids = [];
    for ($i = 0; $i < 4; $i++) {
        $kids[$i] = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
$bad = 0;
for ($n = 0; $n < 40; $n++) {
    if (!$l->acquire(60)) { echo "timeout\n"; exit(1); }
    $t = $l->getFencingToken();
    [$count, $last] = array_map("intval", explode(" ", file_get_contents($argv[3])));
    if ($t <= $last) { $bad++; }
    usleep(500);
    file_put_contents($argv[3], ($count + 1) . " $t");
    $l->release();
}
echo "done $bad\n";
', [$name, $b, $file]);
    }
    $lines = [];
    foreach ($kids as $i => $c) {
        $lines[] = dlt_line($kids[$i], 120);
        dlt_finish($kids[$i]);
    }
    dlt_check($lines === array_fill(0, 4, 'done 0'), 'every process finished, each token above the last one written', $lines);
    [$count, $last] = array_map('intval', explode(' ', file_get_contents($file)));
    dlt_check($count === 160, 'the counter is exactly 160', $count);
    dlt_check($last === dlt_sql_token($b, $name), 'the last writer had the newest token');
    dlt_check(dlt_sql_holders($b, $name) === [], 'nothing held at the end');
    unlink($file);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s03-mutex', 'postgres'), dlt_skey('s03-mutex', 'mysql'));
?>
--EXPECT--
-- postgres
every process finished, each token above the last one written
the counter is exactly 160
the last writer had the newest token
nothing held at the end
-- mysql
every process finished, each token above the last one written
the counter is exactly 160
the last writer had the newest token
nothing held at the end
