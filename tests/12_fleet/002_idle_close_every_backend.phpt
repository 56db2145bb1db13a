--TEST--
dlock.idle_close=5 (php -S, one process): a request soon after the last keeps the process's connection to every backend; once the process has been idle that long its connections to ZooKeeper, Redis, PostgreSQL and MariaDB are closed (the servers' view), and the next request's locks open one connection each
--EXTENSIONS--
dlock
--SKIPIF--
<?php
require __DIR__ . '/../inc/skipif.inc';
require_once __DIR__ . '/../inc/redis.inc';
dlt_redis_skipif();
foreach (['DLOCK_TEST_PG', 'DLOCK_TEST_MYSQL'] as $e) {
    if (!getenv($e)) {
        die("skip $e is not set");
    }
}
exec('command -v ss', $o, $rc);
if ($rc !== 0) {
    die('skip ss not installed (apt-get install iproute2)');
}
?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$srv = dlt_server(__DIR__ . '/www', '-d dlock.idle_close=5');
$pid = proc_get_status($srv['proc'])['pid'];
$port = fn(string $hostport) => (int) substr($hostport, strrpos($hostport, ':') + 1);
$ports = [
    'ZooKeeper' => $port(explode('/', explode(',', getenv('DLOCK_TEST_HOSTS'))[0])[0]),
    'Redis' => $port(getenv('DLOCK_TEST_REDIS')),
    'PostgreSQL' => (int) parse_url(getenv('DLOCK_TEST_PG'), PHP_URL_PORT),
    'MariaDB' => (int) parse_url(getenv('DLOCK_TEST_MYSQL'), PHP_URL_PORT),
];
/* the server's side: this php -S process's established connections to each server (ss) */
$open = function () use ($ports, $pid): array {
    $r = [];
    foreach ($ports as $name => $p) {
        $r[$name] = (int) shell_exec(escapeshellarg(PHP_BINARY) . ' -n '
            . escapeshellarg(__DIR__ . '/../../scripts/runners/fleet.php') . " --count $p $pid");
    }
    return $r;
};
echo "-- first request\n", dlt_get($srv['url'] . '/every.php');
echo "-- the next at once\n", dlt_get($srv['url'] . '/every.php');
echo "connections the servers see: ", json_encode($open()), "\n";
$closed = dlt_until(fn() => array_sum($open()) === 0, 30);
echo "idle for dlock.idle_close: every connection closed: ", $closed ? 'yes' : 'no ' . json_encode($open()), "\n";
echo "-- the next request\n", dlt_get($srv['url'] . '/every.php');
dlt_signal($srv, 15);
dlt_finish($srv);
?>
--EXPECT--
-- first request
ZooKeeper: 0 at start, 1 at end
Redis: 0 at start, 1 at end
PostgreSQL: 0 at start, 1 at end
MySQL/MariaDB: 0 at start, 1 at end
ok
-- the next at once
ZooKeeper: 1 at start, 1 at end
Redis: 1 at start, 1 at end
PostgreSQL: 1 at start, 1 at end
MySQL/MariaDB: 1 at start, 1 at end
ok
connections the servers see: {"ZooKeeper":1,"Redis":1,"PostgreSQL":1,"MariaDB":1}
idle for dlock.idle_close: every connection closed: yes
-- the next request
ZooKeeper: 0 at start, 1 at end
Redis: 0 at start, 1 at end
PostgreSQL: 0 at start, 1 at end
MySQL/MariaDB: 0 at start, 1 at end
ok
