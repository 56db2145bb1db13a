--TEST--
SQL (postgres, mysql): after many concurrent holds of one name end, the process keeps one idle session per server, not one per former hold (a worker that once held 20 read locks left 20 sessions open for its life)
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
    $name = dlt_skey('s55-idle', $b);
    $locks = [];
    for ($i = 0; $i < 20; $i++) {
        /* PostgreSQL: 20 shared holds, one session each; MySQL: timed tries (one session holds, the rest time out) */
        $l = $b === 'postgres' ? (new DistributedReadWriteLock($name, dlt_sopts($b)))->readLock() : new DistributedLock($name, dlt_sopts($b));
        $l->acquire($b === 'postgres' ? 5.0 : 0.05);
        $locks[] = $l;
    }
    $during = count(dlt_sql_pid_sessions($b, getmypid()));
    foreach ($locks as $l) {
        if ($l->isAcquired()) {
            $l->release();
        }
    }
    $after = count(dlt_sql_pid_sessions($b, getmypid()));
    unset($locks, $l);
    echo "sessions while held: ", $b === 'postgres' ? ($during >= 20 ? 'one per hold' : $during) : ($during >= 1 ? 'some' : 0), "; after: $after\n";
    $again = new DistributedLock($name, dlt_sopts($b));
    var_dump($again->tryAcquire());
    $again->release();
}
?>
--EXPECT--
-- postgres
sessions while held: one per hold; after: 1
bool(true)
-- mysql
sessions while held: some; after: 1
bool(true)
