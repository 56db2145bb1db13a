<?php
/* One request of tests/12_fleet/002 (php -S, one process): takes and releases
 * a lock on each backend of the test run (ZooKeeper, Redis, PostgreSQL,
 * MariaDB) and prints, per backend, the connections this process had open
 * at the request's start and at its end (phpinfo), and "ok" when every lock
 * was taken. */
function every_open(): array
{
    ob_start();
    phpinfo(INFO_MODULES);
    preg_match_all('/(\S+) connections open in this process\D*(\d+)/', strip_tags(ob_get_clean()), $m);
    return array_combine($m[1], $m[2]);
}
$start = every_open();
$dsns = ['ZooKeeper' => 'zookeeper://' . getenv('DLOCK_TEST_HOSTS'), 'Redis' => 'redis://' . getenv('DLOCK_TEST_REDIS'),
         'PostgreSQL' => getenv('DLOCK_TEST_PG'), 'MySQL/MariaDB' => getenv('DLOCK_TEST_MYSQL')];
$ok = true;
foreach ($dsns as $name => $dsn) {
    $l = new DistributedLock('/dlock-tests/fleet-every', ['dsn' => $dsn, 'connect_timeout' => 5]);
    $ok = $l->acquire(10) && $ok;
    $l->release();
}
$end = every_open();
foreach ($dsns as $name => $dsn) {
    echo "$name: {$start[$name]} at start, {$end[$name]} at end\n";
}
echo $ok ? "ok\n" : "not acquired\n";
