<?php
/* bench/fleet.php: the fleet rows of the benchmark. One php-fpm pool of W
 * workers (pm = static, 256 in a full run) on this host takes locks in its
 * requests against each backend started with the server's DEFAULT connection
 * limits: ZooKeeper maxClientCnxns 60 per client address (a server of its
 * own, scripts/servers/zk.sh --default-limits), PostgreSQL max_connections 100,
 * MariaDB max_connections 151, Redis maxclients 10000 (the servers bench/run.sh
 * started; their scripts leave these at the defaults). Each request takes one
 * of 16 locks, increments that lock's counter file under it and releases
 * (tests/12_fleet/www/fleet.php); scripts/runners/fleet.php drives the requests and
 * counts the server's connections. Per backend, four rows:
 *   kept, W in flight          sessions kept (dlock.idle_close=0), every worker busy at once
 *   kept, 32 in flight         the same pool at a steadier load
 *   idle_close 0.05, 32        dlock.idle_close=0.05
 *   persistent 0, 32           dlock.persistent=0 (a session per request)
 * then how long the idle_close pool takes to give every connection back.
 * Writes OUT/fleet.json and OUT/fleet.md (bench/run.sh appends it to results.md).
 *   php bench/fleet.php OUT [--smoke]
 *   php bench/fleet.php OUT --render    (fleet.md again from fleet.json, nothing run)
 * Environment: DLOCK_BENCH_SQL ("postgres=DSN,mysql=DSN"), DLOCK_BENCH_REDIS
 * ("...,everysec=ADDR"), DLOCK_BENCH_FLEET_ZK_PORT (default 21855),
 * DLOCK_BENCH_FLEET_FPM_PORT (default 21856), DLOCK_SO. */
$out = $argv[1] ?? __DIR__ . '/out';
$smoke = in_array('--smoke', $argv, true);
$renderOnly = in_array('--render', $argv, true); /* OUT/fleet.md again from OUT/fleet.json */
$root = dirname(__DIR__);
$W = $smoke ? 8 : 256;
$N = $smoke ? 64 : 1024;
$steady = $smoke ? 4 : 32;
$ct = 2; /* connect_timeout of the requests: a refused worker gives up after this */
$zkPort = (int) (getenv('DLOCK_BENCH_FLEET_ZK_PORT') ?: 21855);
$fpmPort = (int) (getenv('DLOCK_BENCH_FLEET_FPM_PORT') ?: 21856);
$www = "$root/tests/12_fleet/www/fleet.php";
$php = escapeshellarg(PHP_BINARY) . ' -n';
@mkdir($out, 0777, true);

function say(string $s): void
{
    fwrite(STDERR, "fleet: $s\n");
}

function sh(string $cmd): string
{
    exec($cmd . ' 2>&1', $o, $rc);
    if ($rc !== 0) {
        throw new RuntimeException("$cmd failed: " . implode("\n", $o));
    }
    return trim(implode("\n", $o));
}

if ($renderOnly) {
    $R = json_decode(file_get_contents("$out/fleet.json"), true);
    [$W, $N, $ct] = [$R['workers'], $R['requests'], $R['connect_timeout']];
} else {
    $parts = [];
    foreach (explode(',', (string) getenv('DLOCK_BENCH_SQL') . ',' . (string) getenv('DLOCK_BENCH_REDIS')) as $kv) {
        if (str_contains($kv, '=')) {
            [$k, $v] = explode('=', $kv, 2);
            $parts[$k] = $v;
        }
    }
    $zkHosts = sh("$root/scripts/servers/zk.sh start $zkPort --default-limits");
    $backends = ['ZooKeeper' => ["zookeeper://$zkHosts", $zkPort, 'maxClientCnxns 60 per client address']];
    if (isset($parts['everysec'])) {
        $backends['Redis'] = ['redis://' . $parts['everysec'], (int) substr($parts['everysec'], strrpos($parts['everysec'], ':') + 1), ''];
    }
    foreach (['postgres' => 'PostgreSQL', 'mysql' => 'MariaDB'] as $k => $name) {
        if (isset($parts[$k])) {
            $backends[$name] = [$parts[$k], (int) parse_url($parts[$k], PHP_URL_PORT), ''];
        }
    }
    /* each server's own limit, asked of it */
    foreach ($backends as $name => &$b) {
        $u = parse_url($b[0]);
        if ($name === 'Redis') {
            $v = sh('redis-cli -h 127.0.0.1 -p ' . $b[1] . ' config get maxclients | tail -1');
            $b[2] = "maxclients $v";
        } elseif ($name === 'PostgreSQL') {
            $v = sh('PGPASSWORD=' . escapeshellarg(urldecode($u['pass'] ?? '')) . ' psql -X -At ' . escapeshellarg(sprintf(
                'host=127.0.0.1 port=%d user=%s dbname=%s', $b[1], urldecode($u['user']), ltrim($u['path'], '/')))
                . " -c 'SHOW max_connections' -c 'SHOW superuser_reserved_connections'");
            $b[2] = 'max_connections ' . str_replace("\n", ' (superuser reserved ', $v) . ')';
        } elseif ($name === 'MariaDB') {
            $v = sh('mariadb --no-defaults -h127.0.0.1 -P' . $b[1] . ' -u' . escapeshellarg(urldecode($u['user']))
                . ' -p' . escapeshellarg(urldecode($u['pass'] ?? '')) . " -N -e 'select @@max_connections'");
            $b[2] = "max_connections $v";
        }
    }
    unset($b);

    $rows = [
        'kept, all workers busy' => [[], $W],
        "kept, $steady in flight" => [[], $steady],
        "idle_close 0.05, $steady in flight" => [['php_admin_value[dlock.idle_close]=0.05'], $steady],
        "persistent 0, $steady in flight" => [['php_admin_value[dlock.persistent]=0'], $steady],
    ];
    $R = ['workers' => $W, 'requests' => $N, 'connect_timeout' => $ct, 'backends' => []];
    $count = fn(int $port) => (int) sh("$php " . escapeshellarg("$root/scripts/runners/fleet.php") . " --count $port");
    try {
        foreach ($backends as $name => [$dsn, $port, $limit]) {
            $R['backends'][$name] = ['limit' => $limit, 'rows' => []];
            foreach ($rows as $label => [$opts, $conc]) {
                $dir = sys_get_temp_dir() . '/dlock-bench-fleet';
                @mkdir($dir);
                array_map('unlink', glob("$dir/k*"));
                $t = microtime(true);
                sh("$root/scripts/servers/fpm.sh start $fpmPort pm.max_children=$W listen.backlog=1024 " . implode(' ', array_map('escapeshellarg', $opts)));
                $startS = microtime(true) - $t;
                $q = http_build_query(['dsn' => $dsn, 'dir' => $dir, 'ct' => $ct, 'keys' => 16, 'wait' => 120]);
                $r = json_decode(sh("FLEET_TIMEOUT=600 $php " . escapeshellarg("$root/scripts/runners/fleet.php")
                    . " $fpmPort " . escapeshellarg($www) . " $N $conc $port " . escapeshellarg($q)), true);
                $sum = 0;
                foreach (glob("$dir/k*") as $f) {
                    $sum += str_ends_with($f, '.inside') ? 0 : (int) file_get_contents($f);
                }
                $r['counter'] = $sum;
                $r['counter_exact'] = $sum === $r['ok'];
                if (str_starts_with($label, 'idle_close')) {
                    $t = microtime(true);
                    $r['conn_after_run'] = $count($port);
                    while ($count($port) > 0 && microtime(true) - $t < 30) {
                        usleep(20000); /* polling the server's connection count, with a deadline */
                    }
                    $r['idle_giveback_s'] = round(microtime(true) - $t, 2);
                    $r['conn_after_giveback'] = $count($port);
                }
                sh("$root/scripts/servers/fpm.sh stop $fpmPort");
                $R['backends'][$name]['rows'][$label] = $r;
                say(sprintf('%s, %s: %d/%d ok, %.0f req/s, p99 %.1f ms, server connections peak %d, counter %s, errors %s (pool start %.1f s)',
                    $name, $label, $r['ok'], $N, $r['throughput'], $r['p99_ms'], $r['conn_peak'],
                    $r['counter_exact'] ? 'exact' : "WRONG ($sum)", json_encode($r['errors']), $startS));
            }
        }
    } finally {
        exec("$root/scripts/servers/fpm.sh stop $fpmPort 2>&1");
        exec("$root/scripts/servers/zk.sh stop $zkPort 2>&1");
    }
}

$md = "\n## Fleet: $W php-fpm workers on one host against default server limits\n\n"
    . "`bench/fleet.php`: one php-fpm pool (pm = static, $W workers), $N requests a row, each taking one of 16 locks, "
    . "incrementing that lock's counter file under it and releasing (`tests/12_fleet/www/fleet.php`), driven by "
    . "`scripts/runners/fleet.php` (FastCGI, the given number of requests in flight). Every server runs with its default "
    . "connection limit. connect_timeout is $ct s. \"server connections\" is the most connections the server "
    . "answered at once (sampled every 200 ms with ss; a ZooKeeper connection accepted only to be closed is not counted). "
    . "Latency is the request's, from the FastCGI connect to its end (queueing for a worker included).\n\n"
    . "| backend (limit) | row | ok | refused or failed | req/s | p50 ms | p99 ms | server connections (peak) | workers used | counter exact |\n"
    . "|---|---|---|---|---|---|---|---|---|---|\n";
$notes = '';
foreach ($R['backends'] as $name => $b) {
    foreach ($b['rows'] as $label => $r) {
        $bad = array_sum($r['errors']);
        $md .= sprintf("| %s (%s) | %s | %d | %d | %.0f | %.1f | %.1f | %d | %d | %s |\n", $name, $b['limit'], $label,
            $r['ok'], $bad, $r['throughput'], $r['p50_ms'], $r['p99_ms'], $r['conn_peak'], $r['workers'],
            $r['counter_exact'] ? 'yes' : 'NO');
        $alike = []; /* the same answer for another of the 16 locks is the same answer */
        foreach ($r['errors'] as $msg => $n) {
            $k = preg_replace('#/dlock-fleet/k\d+#', '/dlock-fleet/kN', $msg);
            $alike[$k] = ($alike[$k] ?? 0) + $n;
        }
        arsort($alike);
        foreach ($alike as $msg => $n) {
            $notes .= "- $name, $label, {$n}×: `" . str_replace('`', "'", (strlen($msg) > 400 ? substr($msg, 0, 400) . "…" : $msg)) . "`\n";
        }
        if (isset($r['idle_giveback_s'])) {
            $notes .= sprintf("- %s, %s: %d server connections when the last request ended, %d after %.2f s (idle close)\n",
                $name, $label, $r['conn_after_run'], $r['conn_after_giveback'], $r['idle_giveback_s']);
        }
    }
}
$md .= "\nWhat the workers saw, and the idle close:\n\n" . ($notes ?: "- no request failed\n");
file_put_contents("$out/fleet.json", json_encode($R, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");
file_put_contents("$out/fleet.md", $md);
echo $md;
