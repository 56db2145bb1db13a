--TEST--
php-fpm fleet of 160 workers (more than PostgreSQL's default max_connections of 100 and MariaDB's 151) with dlock.idle_close=0.05 against Redis, PostgreSQL and MariaDB at their default connection limits: every request holds its lock (shared counters exact, no overlap, fencing tokens increasing), no request errors, and the connections the server itself reports, sampled throughout, never exceed its limit
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--CONFLICTS--
servers
--SKIPIF--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_skipif(true);
require __DIR__ . '/../inc/sql.inc';
dlt_sql_skipif();
?>
--FILE--
<?php
/* Size: 160 workers is the smallest pool over both SQL servers' default limits, so
 * a pool that kept a connection per worker would be refused there; 32 requests
 * in flight keep CI's 2 cores busy without starving the servers. Redis's 10,000
 * cannot be reached on one small host: there the check is that the count stays
 * bounded and the locks are correct. */
require __DIR__ . '/../inc/fpm.inc';
require_once __DIR__ . '/../inc/sql.inc';
require_once __DIR__ . '/../inc/redis.inc';
$workers = 160;
$requests = 400;
$inflight = 32;
$fpm = dlt_fpm_port(21);
$www = realpath(__DIR__ . '/www/fleet.php');
$redisAddr = dlt_redis_addr();

/* per backend: DSN, server port, its limit as the server states it, its connection count now */
$redisInfo = function (string $field) use ($redisAddr): int {
    $info = (string) dlt_redis_at($redisAddr, 'INFO', 'clients');
    return preg_match("/^$field:(\d+)/m", $info, $m) ? (int) $m[1] : -1;
};
$backends = [
    'Redis' => [
        'dsn' => "redis://$redisAddr",
        'port' => (int) substr($redisAddr, strrpos($redisAddr, ':') + 1),
        'limit' => fn(): int => (int) dlt_redis_at($redisAddr, 'CONFIG', 'GET', 'maxclients')[1],
        'now' => fn(): int => $redisInfo('connected_clients'),
    ],
    'PostgreSQL' => [
        'dsn' => dlt_sql_dsn('postgres'),
        'port' => dlt_sql_parse(dlt_sql_dsn('postgres'))[1],
        'limit' => fn(): int => (int) dlt_sql_rows('postgres', 'SHOW max_connections')[0]['max_connections'],
        'now' => fn(): int => (int) dlt_sql_rows('postgres',
            "SELECT count(*) AS n FROM pg_stat_activity WHERE backend_type = 'client backend'")[0]['n'],
    ],
    'MariaDB' => [
        'dsn' => dlt_sql_dsn('mysql'),
        'port' => dlt_sql_parse(dlt_sql_dsn('mysql'))[1],
        'limit' => fn(): int => (int) dlt_sql_rows('mysql', 'SELECT @@max_connections AS n')[0]['n'],
        'now' => fn(): int => (int) dlt_sql_rows('mysql', "SHOW GLOBAL STATUS LIKE 'Threads_connected'", [], null, true)[0]['Value'],
    ],
];

dlt_fpm_start($fpm, ["pm.max_children=$workers", 'php_admin_value[dlock.idle_close]=0.05']);
foreach ($backends as $name => $b) {
    $dir = dlt_fpm_dir('fleet-003-' . strtolower($name));
    $limit = ($b['limit'])();
    echo "-- $name: limit $limit, $workers workers, $requests requests, $inflight in flight\n";
    if ($name === 'MariaDB') {
        /* the server's own high-water mark from here on: exact, not sampled */
        dlt_pdo('mysql', null, true)->exec('FLUSH STATUS');
    }
    $cmd = 'exec ' . escapeshellarg(PHP_BINARY) . ' -n ' . escapeshellarg(__DIR__ . '/../../scripts/runners/fleet.php')
        . " $fpm " . escapeshellarg($www) . " $requests $inflight {$b['port']} "
        . escapeshellarg(http_build_query(['dsn' => $b['dsn'], 'dir' => $dir, 'ct' => 5, 'keys' => 8, 'token' => 1]));
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null,
        ['FLEET_TIMEOUT' => '240'] + getenv());
    $out = '';
    $samples = [];
    $deadline = microtime(true) + 300;
    /* the server's count every 100 ms until the driver's report arrives (its end is the event) */
    while (!feof($pipes[1]) && microtime(true) < $deadline) {
        $samples[] = ($b['now'])();
        $r = [$pipes[1]];
        $w = $e = null;
        if (stream_select($r, $w, $e, 0, 100000)) {
            $out .= (string) fread($pipes[1], 65536);
        }
    }
    $err = stream_get_contents($pipes[2]);
    proc_close($proc);
    $res = json_decode($out, true);
    if (!is_array($res)) {
        echo "driver failed: $out $err\n";
        continue;
    }
    $peak = max($samples);
    $sum = 0;
    foreach (glob("$dir/k*") as $f) {
        $sum += preg_match('#/k\d+$#', $f) ? (int) file_get_contents($f) : 0;
    }
    echo "ok: ", $res['ok'] === $requests ? 'all' : $res['ok'], ", errors: ", json_encode($res['errors']), "\n";
    echo "shared counters add up to $requests: ", $sum === $requests ? 'yes' : "no ($sum)", "\n";
    echo "server's connections sampled: ", count($samples) >= 5 ? 'yes' : 'too few (' . count($samples) . ')', "\n";
    echo "server's connections never over $limit: ", $peak <= $limit ? 'yes' : "no ($peak)", "\n";
    if ($name === 'MariaDB') {
        $max = (int) dlt_sql_rows('mysql', "SHOW GLOBAL STATUS LIKE 'Max_used_connections'", [], null, true)[0]['Value'];
        echo "Max_used_connections never over $limit: ", $max <= $limit ? 'yes' : "no ($max)", "\n";
        $peak = max($peak, $max);
    }
    echo "fewer connections than workers (idle_close at work): ", $peak < $workers ? 'yes' : "no ($peak)", "\n";
}
dlt_fpm_stop($fpm);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(21));
?>
--EXPECT--
-- Redis: limit 10000, 160 workers, 400 requests, 32 in flight
ok: all, errors: []
shared counters add up to 400: yes
server's connections sampled: yes
server's connections never over 10000: yes
fewer connections than workers (idle_close at work): yes
-- PostgreSQL: limit 100, 160 workers, 400 requests, 32 in flight
ok: all, errors: []
shared counters add up to 400: yes
server's connections sampled: yes
server's connections never over 100: yes
fewer connections than workers (idle_close at work): yes
-- MariaDB: limit 151, 160 workers, 400 requests, 32 in flight
ok: all, errors: []
shared counters add up to 400: yes
server's connections sampled: yes
server's connections never over 151: yes
Max_used_connections never over 151: yes
fewer connections than workers (idle_close at work): yes
