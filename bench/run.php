<?php
/*
 * bench/run.php: the dlock benchmark. Runs every scenario in one run against
 * one ZooKeeper server and reports medians, p99s and ratios measured in that
 * same run (the machines are shared and noisy: only same-run ratios mean
 * anything). Started by bench/run.sh, which builds and starts what it needs.
 * With DLOCK_BENCH_REDIS="always=HOST:PORT,everysec=HOST:PORT" (run.sh sets it)
 * it also runs bench/redis.php's scenarios and adds their section 8, and with
 * DLOCK_BENCH_SQL="postgres=DSN,mysql=DSN" bench/sql.php's, section 9.
 *
 *   php bench/run.php HOSTS OUT_DIR [--smoke]
 *
 * Writes OUT_DIR/results.md (tables, targets), OUT_DIR/results.json (raw
 * figures) and OUT_DIR/handover.png (hand-over latency against waiters), and
 * prints the markdown.
 */
[$self, $hosts, $outDir] = $argv + [null, '127.0.0.1:2181', __DIR__ . '/out'];
$smoke = in_array('--smoke', $argv, true);
$bin = __DIR__ . '/bin';
$php = PHP_BINARY . ' -n -d extension=' . escapeshellarg(getenv('DLOCK_SO') ?: 'dlock');
$size = $smoke
    ? ['floor' => 300, 'single' => 300, 'peer1' => 200, 'contended' => [2 => 20, 8 => 10], 'peer8' => 10,
       'poll8' => 2, 'herd' => [1, 4, 16], 'many' => 500, 'requests' => 40, 'memory' => 5000,
       'scale' => [1, 2, 4], 'scale_total' => 40, 'scale_peers' => ['dlock', 'limit', 'sync C recipe']]
    : ['floor' => 3000, 'single' => 5000, 'peer1' => 2000, 'contended' => [2 => 300, 8 => 100, 32 => 25],
       'peer8' => 100, 'poll8' => 4, 'herd' => [1, 4, 16, 64, 256], 'many' => 10000, 'requests' => 300,
       'memory' => 100000, 'scale' => [1, 2, 4, 8, 16, 32], 'scale_total' => 1200,
       'scale_peers' => ['dlock', 'limit', 'sync C recipe', 'Curator', 'kazoo']];
@mkdir($outDir, 0777, true);
$R = ['date' => gmdate('Y-m-d H:i') . ' UTC', 'smoke' => $smoke];

function say(string $s): void
{
    fwrite(STDERR, "bench: $s\n");
}

function pctl(array $v, float $p): float
{
    if (!$v) {
        return NAN;
    }
    sort($v);
    return $v[(int) round($p * (count($v) - 1))];
}

function kv(string $out): array
{
    $r = [];
    foreach (explode("\n", trim($out)) as $line) {
        $parts = preg_split('/\s+/', trim($line));
        if (count($parts) === 2 && is_numeric($parts[1])) {
            $r[$parts[0]] = (float) $parts[1];
        }
    }
    return $r;
}

/**
 * Runs $n contenders built by $cmd($i, $eventsFile) on one lock with a shared
 * counter, all released at once after each printed "ready". Returns cycles/s,
 * wait and hand-over percentiles (ms), and whether the counter is exact.
 */
function contend(string $label, int $n, int $cycles, callable $cmd): array
{
    $counter = tempnam(sys_get_temp_dir(), 'bench-counter');
    file_put_contents($counter, '0');
    $procs = [];
    for ($i = 0; $i < $n; $i++) {
        $events = tempnam(sys_get_temp_dir(), 'bench-ev');
        $p = proc_open($cmd($counter, $events), [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $procs[] = [$p, $pipes, $events];
    }
    foreach ($procs as [$p, $pipes]) {
        $line = trim((string) fgets($pipes[1]));
        if ($line !== 'ready') {
            say("$label: a contender did not start ($line)");
        }
    }
    $t0 = microtime(true);
    foreach ($procs as [$p, $pipes]) {
        fwrite($pipes[0], "go\n");
        fflush($pipes[0]);
    }
    foreach ($procs as [$p, $pipes]) {
        fgets($pipes[1]);
    }
    $elapsed = microtime(true) - $t0;
    $ev = [];
    foreach ($procs as [$p, $pipes, $events]) {
        fclose($pipes[0]);
        fclose($pipes[1]);
        proc_close($p);
        foreach (file($events, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $l) {
            $ev[] = array_map('floatval', explode(' ', $l));
        }
        unlink($events);
    }
    usort($ev, fn($a, $b) => $a[1] <=> $b[1]);
    $wait = $hand = [];
    foreach ($ev as $k => $e) {
        $wait[] = ($e[1] - $e[0]) * 1000;
        if ($k > 0 && $e[0] < $ev[$k - 1][2] && $e[1] >= $ev[$k - 1][2]) {
            $hand[] = ($e[1] - $ev[$k - 1][2]) * 1000; /* it waited while the previous holder released */
        }
    }
    $count = (int) file_get_contents($counter);
    unlink($counter);
    $r = ['processes' => $n, 'cycles' => count($ev), 'cycles_per_s' => count($ev) / $elapsed,
          'wait_p50_ms' => pctl($wait, 0.5), 'wait_p99_ms' => pctl($wait, 0.99),
          'handover_p50_ms' => pctl($hand, 0.5), 'handover_p99_ms' => pctl($hand, 0.99),
          'counter_exact' => $count === $n * $cycles];
    say(sprintf('%s x%d: %.0f cycles/s, wait p50 %.2f ms, hand-over p50 %.2f ms, counter %s', $label, $n,
        $r['cycles_per_s'], $r['wait_p50_ms'], $r['handover_p50_ms'], $r['counter_exact'] ? 'exact' : "WRONG ($count)"));
    return $r;
}

$java = 'java -XX:TieredStopAtLevel=1 -Xmx128m -cp ' . escapeshellarg("$bin:" . getenv('CURATOR_CP'));
$peers = [
    'dlock' => fn($path, $c) => fn($counter, $ev) => "exec $php " . __DIR__ . "/worker.php $hosts $path $c $counter $ev",
    'limit' => fn($path, $c) => fn($counter, $ev) => "exec $bin/limit $hosts $path $c $counter $ev",
    /* bench/limit.c without trick 2 (the deferred delete a library cannot do) */
    'safe limit' => fn($path, $c) => fn($counter, $ev) => "exec env LIMIT_SAFE=1 $bin/limit $hosts $path $c $counter $ev",
    'sync C recipe' => fn($path, $c) => fn($counter, $ev) => "exec $bin/recipe $hosts $path $c $counter $ev 0",
    'Curator' => fn($path, $c) => fn($counter, $ev) => "exec $java CuratorBench $hosts $path $c $counter $ev",
    'kazoo' => fn($path, $c) => fn($counter, $ev) => 'exec /usr/bin/python3 ' . __DIR__ . "/kazoo_bench.py $hosts $path $c $counter $ev",
    'polling PHP recipe (C model, 500 ms)' => fn($path, $c) => fn($counter, $ev) => "exec $bin/recipe $hosts $path $c $counter $ev 500",
];
$machine = trim((string) shell_exec("nproc")) . ' cores, ' . trim((string) shell_exec("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2"))
    . ', ' . PHP_OS . ' ' . php_uname('r') . ', PHP ' . PHP_VERSION . ', ZooKeeper 3.8 standalone on 127.0.0.1 (fsync on)';
$R['machine'] = $machine;

/* 1. floor */
say('floor');
$R['floor'] = kv((string) shell_exec("$bin/floor $hosts {$size['floor']}"));

/* 2. uncontended single process, and peers at 1 process */
$R['single'] = [];
foreach (['dlock', 'limit', 'safe limit', 'sync C recipe', 'Curator', 'kazoo'] as $name) {
    $c = in_array($name, ['dlock', 'limit', 'safe limit'], true) ? $size['single'] : $size['peer1'];
    $R['single'][$name] = contend("$name uncontended", 1, $c, $peers[$name]('/bench/single-' . md5($name), $c));
}

/* 3. contended throughput and hand-over */
$R['contended'] = [];
foreach ($size['contended'] as $n => $c) {
    $R['contended']["dlock x$n"] = contend('dlock', $n, $c, $peers['dlock']("/bench/contended-$n", $c));
}
foreach (['limit', 'safe limit', 'sync C recipe', 'Curator', 'kazoo'] as $name) {
    $R['contended']["$name x8"] = contend($name, 8, $size['peer8'], $peers[$name]('/bench/c8-' . md5($name), $size['peer8']));
}
$R['contended']['polling x8'] = contend('polling recipe', 8, $size['poll8'],
    $peers['polling PHP recipe (C model, 500 ms)']('/bench/c8-polling', $size['poll8']));

/* 3b. throughput against processes: every contender at P = 1, 2, 4, 8, 16,
 * 32 (smoke: the C and dlock contenders at 1, 2, 4), about scale_total cycles
 * a point; the rows of sections 2-3 stand for their P, the rest is run here,
 * the contenders interleaved at each P so they see the same load */
$R['scale'] = [];
$known = function (string $name, int $n) use (&$R): ?array {
    if ($n === 1) {
        return $R['single'][$name] ?? null;
    }
    return $R['contended'][$name === 'dlock' ? "dlock x$n" : "$name x$n"] ?? null;
};
foreach ($size['scale'] as $n) {
    foreach ($size['scale_peers'] as $name) {
        $r = $known($name, $n);
        if (!$r) {
            $c = max(3, intdiv($size['scale_total'], $n));
            $r = contend($name, $n, $c, $peers[$name]("/bench/scale-$n-" . md5($name), $c));
        }
        $R['scale'][$name][$n] = $r;
    }
}

/* 4. herd-freedom */
$R['herd'] = [];
foreach ($size['herd'] as $w) {
    $rounds = max(1, intdiv($smoke ? 8 : 32, $w)); /* short queues: repeat for enough samples */
    $R['herd'][$w] = kv((string) shell_exec("$bin/herd $hosts $w $rounds"));
    say(sprintf('herd %d waiters: %.3f notifications/release, hand-over p50 %.2f ms', $w,
        $R['herd'][$w]['notifications_per_release'] ?? NAN, $R['herd'][$w]['handover_p50_ms'] ?? NAN));
}

/* 5b. new paths: a lock cycle on a path whose parent does not exist yet (the
 * per-entity lock, /locks/orders/<id>) against one on an existing path */
$newpath = <<<'PHP'
<?php
[, $hosts, $n] = $argv; $n = (int) $n; $o = ['hosts' => $hosts];
$w = new DistributedLock('/bench/np-one', $o); $w->acquire(); $w->release();
$run = function (callable $path) use ($n, $o) {
    $t = hrtime(true);
    for ($i = 0; $i < $n; $i++) { $l = new DistributedLock($path($i), $o); $l->acquire(); $l->release(); }
    return (hrtime(true) - $t) / 1e6 / $n;
};
$tag = bin2hex(random_bytes(4));
$w = new DistributedLock("/bench/np-$tag/warm", $o); $w->acquire(); $w->release();
$one = $new = [];
for ($r = 0; $r < 3; $r++) { /* interleaved, so both see the same load */
    $one[] = $run(fn($i) => '/bench/np-one');
    $new[] = $run(fn($i) => "/bench/np-$tag/o$r-$i");
}
sort($one); sort($new);
printf("one_path_ms %.4f\nnew_path_ms %.4f\n", $one[1], $new[1]);
PHP;
$f = tempnam(sys_get_temp_dir(), 'bench') . '.php';
file_put_contents($f, $newpath);
$R['newpath'] = kv((string) shell_exec("$php $f $hosts " . ($smoke ? 50 : 500)));
unlink($f);
say(sprintf('new paths: %.3f ms a cycle against %.3f ms on one path', $R['newpath']['new_path_ms'] ?? NAN,
    $R['newpath']['one_path_ms'] ?? NAN));

/* 5. many locks, 7. memory: run in a fresh PHP process each */
$many = <<<'PHP'
[, $hosts, $n] = $argv;
$rss = fn() => (int) preg_replace('/\D/', '', preg_grep('/^VmRSS/', file('/proc/self/status'))[array_key_first(preg_grep('/^VmRSS/', file('/proc/self/status')))]);
(new DistributedLock('/bench/many/warm', ['hosts' => $hosts]))->tryAcquire();
$m0 = memory_get_usage(); $r0 = $rss(); $t0 = microtime(true);
$locks = [];
for ($i = 0; $i < $n; $i++) { $locks[$i] = new DistributedLock("/bench/many/l$i", ['hosts' => $hosts]); $locks[$i]->acquire(); }
$t1 = microtime(true); $m1 = memory_get_usage(); $r1 = $rss();
foreach ($locks as $l) { $l->release(); }
printf("ms_per_lock %.4f\nbytes_per_lock_zend %.1f\nbytes_per_lock_rss %.1f\n", ($t1 - $t0) * 1000 / $n, ($m1 - $m0) / $n, ($r1 - $r0) * 1024 / $n);
PHP;
$memory = <<<'PHP'
[, $hosts, $n] = $argv;
$rss = function () { preg_match('/^VmRSS:\s+(\d+)/m', file_get_contents('/proc/self/status'), $m); return (int) $m[1]; };
$l = new DistributedLock('/bench/memory', ['hosts' => $hosts]);
for ($i = 0; $i < 1000; $i++) { $l->acquire(); $l->release(); }
$m0 = memory_get_usage(); $r0 = $rss();
for ($i = 0; $i < $n; $i++) { $l->acquire(); $l->release(); }
printf("zend_bytes_before %d\nzend_bytes_after %d\nrss_kb_before %d\nrss_kb_after %d\n", $m0, memory_get_usage(), $r0, $rss());
PHP;
foreach (['many' => $many, 'memory' => $memory] as $k => $code) {
    $f = tempnam(sys_get_temp_dir(), 'bench') . '.php';
    file_put_contents($f, "<?php\n$code");
    say($k);
    $R[$k] = kv((string) shell_exec("$php $f $hosts " . ($k === 'many' ? $size['many'] : $size['memory'])));
    unlink($f);
}

/* 6. per-request cost through the built-in server: persistent session vs a fresh one per request */
$R['requests'] = [];
foreach (['persistent' => 1, 'fresh session' => 0] as $label => $persistent) {
    $sock = stream_socket_server('tcp://127.0.0.1:0');
    $port = (int) substr(strrchr(stream_socket_get_name($sock, false), ':'), 1);
    fclose($sock);
    $srv = proc_open("exec $php -d dlock.persistent=$persistent -d dlock.hosts=$hosts -S 127.0.0.1:$port -t " . __DIR__ . '/www',
        [0 => ['pipe', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['pipe', 'w']], $pipes);
    fgets($pipes[2]); /* "Development Server ... started" */
    $lat = [];
    for ($i = 0; $i < $size['requests'] + 5; $i++) {
        $t = microtime(true);
        $body = @file_get_contents("http://127.0.0.1:$port/cycle.php");
        if ($i >= 5) { /* the first requests warm up */
            $lat[] = (microtime(true) - $t) * 1000;
        }
        if (trim((string) $body) !== 'ok') {
            say("request failed: $body");
        }
    }
    proc_terminate($srv);
    proc_close($srv);
    $R['requests'][$label] = ['p50_ms' => pctl($lat, 0.5), 'p99_ms' => pctl($lat, 0.99)];
    say(sprintf('request (%s): p50 %.2f ms', $label, $R['requests'][$label]['p50_ms']));
}

/* 6b. per-request cost under php-fpm (one worker, cgi-fcgi per request): the
 * lock's share is a request's p50 less the same request's without a lock */
$R['fpm'] = [];
$fpmSh = dirname(__DIR__) . '/scripts/servers/fpm.sh';
$fpmPort = (int) (getenv('DLOCK_BENCH_FPM_PORT') ?: 21870);
foreach (['no lock' => [1, 'nolock.php'], 'persistent' => [1, 'cycle.php'], 'fresh session' => [0, 'cycle.php']]
         as $label => [$persistent, $script]) {
    $start = sprintf('DLOCK_SO=%s %s start %d pm.max_children=1 %s %s 2>&1',
        escapeshellarg(getenv('DLOCK_SO') ?: ''), escapeshellarg($fpmSh), $fpmPort,
        escapeshellarg("php_admin_value[dlock.persistent]=$persistent"),
        escapeshellarg("php_admin_value[dlock.hosts]=$hosts"));
    exec($start, $out, $rc);
    if ($rc !== 0) {
        say('php-fpm did not start: ' . implode(' ', $out));
        break;
    }
    $env = ['SCRIPT_FILENAME' => __DIR__ . "/www/$script", 'REQUEST_METHOD' => 'GET',
            'PATH' => getenv('PATH')];
    $lat = [];
    for ($i = 0; $i < $size['requests'] + 5; $i++) {
        $t = microtime(true);
        $p = proc_open(['cgi-fcgi', '-bind', '-connect', "127.0.0.1:$fpmPort"],
            [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $env);
        $body = stream_get_contents($pipes[1]);
        fclose($pipes[1]);
        proc_close($p);
        if ($i >= 5) {
            $lat[] = (microtime(true) - $t) * 1000;
        }
        if (!str_contains((string) $body, "ok\n")) {
            say("fpm request failed: $body");
        }
    }
    exec(sprintf('%s stop %d 2>&1', escapeshellarg($fpmSh), $fpmPort));
    $R['fpm'][$label] = ['p50_ms' => pctl($lat, 0.5), 'p99_ms' => pctl($lat, 0.99)];
    say(sprintf('fpm request (%s): p50 %.2f ms', $label, $R['fpm'][$label]['p50_ms']));
}

/* 8. Redis: when bench/run.sh started its servers, DLOCK_BENCH_REDIS="always=HOST:PORT,everysec=HOST:PORT" */
$redisServers = [];
foreach (array_filter(explode(',', (string) getenv('DLOCK_BENCH_REDIS'))) as $pair) {
    [$k, $v] = explode('=', $pair, 2) + [1 => ''];
    $redisServers[$k] = $v;
}
if ($redisServers) {
    require __DIR__ . '/redis.php';
    $R['redis'] = redis_bench($redisServers, $smoke,
        ['php_dlock' => $php, 'php_redis' => PHP_BINARY . ' -n -d extension=igbinary -d extension=redis']);
}

/* 9. SQL: when bench/run.sh started its servers, DLOCK_BENCH_SQL="postgres=DSN,mysql=DSN" */
$sqlServers = [];
foreach (array_filter(explode(',', (string) getenv('DLOCK_BENCH_SQL'))) as $pair) {
    [$k, $v] = explode('=', $pair, 2) + [1 => ''];
    $sqlServers[$k] = $v;
}
if ($sqlServers) {
    require __DIR__ . '/sql.php';
    $R['sql'] = sql_bench($sqlServers, $smoke, ['php_dlock' => $php,
        'php_pdo_pgsql' => PHP_BINARY . ' -n -d extension=pdo -d extension=pdo_pgsql',
        'php_pdo_mysql' => PHP_BINARY . ' -n -d extension=pdo -d extension=mysqlnd -d extension=pdo_mysql']);
}

/* ---- report ---------------------------------------------------------- */
$f = $R['floor'];
$single = $R['single'];
$c8 = $R['contended'];
$rtt = min($f['create_p50_ms'], $f['delete_p50_ms']);
$notif = $R['herd'][max(array_keys($R['herd']))]['handover_p50_ms'] ?? NAN;
$h1 = $R['herd'][1]['handover_p50_ms'] ?? NAN;
$hmax = max(array_keys($R['herd']));
$targets = [
    ['uncontended >= 1.5 x sync C recipe', $single['dlock']['cycles_per_s'] / $single['sync C recipe']['cycles_per_s'], 1.5],
    ['uncontended >= 2 x Curator', $single['dlock']['cycles_per_s'] / $single['Curator']['cycles_per_s'], 2],
    ['uncontended >= 2 x kazoo', $single['dlock']['cycles_per_s'] / $single['kazoo']['cycles_per_s'], 2],
    ['uncontended >= 0.95 x limit', $single['dlock']['cycles_per_s'] / $single['limit']['cycles_per_s'], 0.95],
    ['8 processes >= 0.9 x limit', $c8['dlock x8']['cycles_per_s'] / $c8['limit x8']['cycles_per_s'], 0.9],
    ['8 processes >= 1.3 x sync C recipe', $c8['dlock x8']['cycles_per_s'] / $c8['sync C recipe x8']['cycles_per_s'], 1.3],
    ['8 processes >= 2 x kazoo', $c8['dlock x8']['cycles_per_s'] / $c8['kazoo x8']['cycles_per_s'], 2],
    ['hand-over p50 (8 processes) <= 2 x write RTT + notification (ratio to that bound, <= 1)',
        $c8['dlock x8']['handover_p50_ms'] / (2 * $rtt + 1.0), 1, true],
    ["notifications per release at $hmax waiters == 1", $R['herd'][$hmax]['notifications_per_release'] ?? NAN, 1, 'eq'],
    ["hand-over at $hmax waiters <= 1.5 x at 1 waiter", ($R['herd'][$hmax]['handover_p50_ms'] ?? NAN) / $h1, 1.5, true],
    ['persistent request >= 5 x faster than fresh session', $R['requests']['fresh session']['p50_ms'] / $R['requests']['persistent']['p50_ms'], 5],
    ['new-path cycle <= 1.15 x an existing-path cycle', ($R['newpath']['new_path_ms'] ?? NAN) / ($R['newpath']['one_path_ms'] ?? NAN), 1.15, true],
    ['no memory growth (zend bytes over the memory run)', $R['memory']['zend_bytes_after'] - $R['memory']['zend_bytes_before'], 4096, true],
];
$md = "# dlock benchmark" . ($smoke ? ' (smoke run: small sizes, figures indicative only)' : '') . "\n\n";
$md .= "- date: {$R['date']}\n- machine: $machine\n- command: `bash bench/run.sh" . ($smoke ? ' --smoke' : '') . "`\n\n";
$md .= "## 1. Floor (plain synchronous C recipe, one session)\n\n| figure | value |\n|---|---|\n";
foreach ($f as $k => $v) {
    $md .= sprintf("| %s | %.3f |\n", $k, $v);
}
$md .= "\n## 2–3. Lock cycles (shared-counter critical section)\n\n"
    . "`limit` is bench/limit.c, the hand-tuned C client (bench/README.md): the ceiling every row is also given as a ratio to.\n\n"
    . "| contender | processes | cycles/s | ratio to sync C recipe (same P) | ratio to limit (same P) | wait p50 ms | wait p99 ms | hand-over p50 ms | hand-over p99 ms | counter exact |\n|---|---|---|---|---|---|---|---|---|---|\n";
$limitAt = fn(int $n) => ($R['scale']['limit'][$n] ?? ($n === 1 ? $single['limit'] : $c8["limit x$n"] ?? null))['cycles_per_s'] ?? null;
$row = function ($name, $r, $base) use ($limitAt) {
    $lim = $limitAt($r['processes']);
    return sprintf("| %s | %d | %.0f | %s | %s | %.2f | %.2f | %s | %s | %s |\n", $name, $r['processes'], $r['cycles_per_s'],
        $base ? sprintf('%.2f', $r['cycles_per_s'] / $base) : '–', $lim ? sprintf('%.2f', $r['cycles_per_s'] / $lim) : '–',
        $r['wait_p50_ms'], $r['wait_p99_ms'],
        is_nan($r['handover_p50_ms']) ? '–' : sprintf('%.2f', $r['handover_p50_ms']),
        is_nan($r['handover_p99_ms']) ? '–' : sprintf('%.2f', $r['handover_p99_ms']), $r['counter_exact'] ? 'yes' : 'NO');
};
foreach ($single as $name => $r) {
    $md .= $row($name, $r, $single['sync C recipe']['cycles_per_s']);
}
foreach ($c8 as $name => $r) {
    $base = $r['processes'] === 8 ? $c8['sync C recipe x8']['cycles_per_s'] : null;
    $md .= $row($name, $r, $base);
}
$md .= "\n## 3a. dlock against the limit and the safe limit\n\n"
    . "The limit defers a released node's delete and sends it with the next create in one transaction "
    . "(one fsync a cycle), which a library cannot do: a released lock would look held. The safe limit is "
    . "bench/limit.c without that trick (LIMIT_SAFE=1): asynchronous delete, create and listing pipelined, "
    . "no relist behind the only node ahead.\n\n"
    . "| processes | dlock cycles/s | limit cycles/s | safe limit cycles/s | dlock / limit | dlock / safe limit |\n|---|---|---|---|---|---|\n";
foreach ([1 => [$single['dlock'] ?? null, $single['limit'] ?? null, $single['safe limit'] ?? null],
          8 => [$c8['dlock x8'] ?? null, $c8['limit x8'] ?? null, $c8['safe limit x8'] ?? null]] as $n => [$d, $l, $sl]) {
    if ($d && $l && $sl) {
        $md .= sprintf("| %d | %.0f | %.0f | %.0f | %.2f | %.2f |\n", $n, $d['cycles_per_s'], $l['cycles_per_s'],
            $sl['cycles_per_s'], $d['cycles_per_s'] / $l['cycles_per_s'], $d['cycles_per_s'] / $sl['cycles_per_s']);
    }
}
$md .= "\n## 3b. Throughput against processes (cycles/s; in brackets: ratio to limit at the same P)\n\n"
    . "Points at P = 1 and 8 (and dlock's at 2 and 32) are the rows above; the others ran after them, about "
    . "{$size['scale_total']} cycles a point" . ($smoke ? ' (smoke: Curator and kazoo left out, P up to 4)' : '') . ".\n\n"
    . '| processes | ' . implode(' | ', $size['scale_peers']) . " | counters exact |\n|" . str_repeat('---|', count($size['scale_peers']) + 2) . "\n";
$dat = '# processes ' . implode(' ', array_map(fn($n) => str_replace(' ', '_', $n), $size['scale_peers'])) . " (cycles/s)\n";
foreach ($size['scale'] as $n) {
    $cells = [];
    $exact = true;
    $dat .= $n;
    foreach ($size['scale_peers'] as $name) {
        $r = $R['scale'][$name][$n];
        $lim = $limitAt($n);
        $cells[] = sprintf('%.0f (%.2f)', $r['cycles_per_s'], $lim ? $r['cycles_per_s'] / $lim : NAN);
        $exact = $exact && $r['counter_exact'];
        $dat .= sprintf(' %.1f', $r['cycles_per_s']);
    }
    $dat .= "\n";
    $md .= "| $n | " . implode(' | ', $cells) . ' | ' . ($exact ? 'yes' : 'NO') . " |\n";
}
file_put_contents("$outDir/throughput.dat", $dat);
$md .= "\n![throughput against processes](throughput.png)\n";
$md .= "\n## 4. Herd-freedom (one holder, W waiters each on its own session; every holder releases in turn)\n\n| waiters | notifications per release | hand-over p50 ms | hand-over p99 ms |\n|---|---|---|---|\n";
foreach ($R['herd'] as $w => $h) {
    $md .= sprintf("| %d | %.3f | %.2f | %.2f |\n", $w, $h['notifications_per_release'] ?? NAN, $h['handover_p50_ms'] ?? NAN, $h['handover_p99_ms'] ?? NAN);
}
$md .= "\n![hand-over latency against waiters](handover.png)\n";
$md .= sprintf("\n## 5. Many locks (%d distinct paths, one process)\n\n| ms per lock | bytes per held lock (zend) | bytes per held lock (RSS) |\n|---|---|---|\n| %.3f | %.0f | %.0f |\n",
    $size['many'], $R['many']['ms_per_lock'] ?? NAN, $R['many']['bytes_per_lock_zend'] ?? NAN, $R['many']['bytes_per_lock_rss'] ?? NAN);
$md .= sprintf("\n## 5b. New paths (a lock on a path whose parent does not exist yet, against one existing path; median of 3 interleaved rounds)\n\n| one path ms a cycle | new paths ms a cycle | ratio |\n|---|---|---|\n| %.3f | %.3f | %.2f |\n",
    $R['newpath']['one_path_ms'] ?? NAN, $R['newpath']['new_path_ms'] ?? NAN,
    ($R['newpath']['new_path_ms'] ?? NAN) / ($R['newpath']['one_path_ms'] ?? NAN));
$md .= "\n## 6. Per-request cost (php -S, one lock cycle per request)\n\n| session | p50 ms | p99 ms |\n|---|---|---|\n";
foreach ($R['requests'] as $k => $r) {
    $md .= sprintf("| %s | %.2f | %.2f |\n", $k, $r['p50_ms'], $r['p99_ms']);
}
if (isset($R['fpm']['no lock'])) {
    $md .= "\n## 6b. Per-request cost under php-fpm (one worker, one cgi-fcgi process per request)\n\n"
         . "| request | p50 ms | p99 ms | lock's share of p50 ms |\n|---|---|---|---|\n";
    foreach ($R['fpm'] as $k => $r) {
        $md .= sprintf("| %s | %.2f | %.2f | %s |\n", $k, $r['p50_ms'], $r['p99_ms'],
            $k === 'no lock' ? '–' : sprintf('%.2f', $r['p50_ms'] - $R['fpm']['no lock']['p50_ms']));
    }
}
$m = $R['memory'];
$md .= sprintf("\n## 7. Memory over %d cycles\n\n| | before | after |\n|---|---|---|\n| memory_get_usage() bytes | %d | %d |\n| RSS KB | %d | %d |\n",
    $size['memory'], $m['zend_bytes_before'] ?? 0, $m['zend_bytes_after'] ?? 0, $m['rss_kb_before'] ?? 0, $m['rss_kb_after'] ?? 0);
$md .= "\n## Targets\n\n| target | measured | met |\n|---|---|---|\n";
$met = 0;
foreach ($targets as $t) {
    [$name, $v, $goal] = $t;
    $mode = $t[3] ?? false;
    $ok = $mode === 'eq' ? abs($v - $goal) < 1e-9 : ($mode === true ? $v <= $goal : $v >= $goal);
    $met += $ok;
    $md .= sprintf("| %s | %.2f | %s |\n", $name, $v, $ok ? 'yes' : 'no');
}
$md .= sprintf("\n%d of %d targets met in this run.\n", $met, count($targets));
$R['targets_met'] = $met;
$R['targets'] = count($targets);
if (isset($R['redis'])) {
    [$redisMd, $R['redis_targets_met'], $R['redis_targets']] = redis_report($R['redis'], $smoke);
    $md .= $redisMd;
}
if (isset($R['sql'])) {
    [$sqlMd, $R['sql_targets_met'], $R['sql_targets']] = sql_report($R['sql'], $smoke);
    $md .= $sqlMd;
}
file_put_contents("$outDir/results.md", $md);
file_put_contents("$outDir/results.json", json_encode($R, JSON_PRETTY_PRINT | JSON_PARTIAL_OUTPUT_ON_ERROR) . "\n");
$dat = '';
foreach ($R['herd'] as $w => $h) {
    $dat .= sprintf("%d %.3f %.3f\n", $w, $h['handover_p50_ms'] ?? 0, $h['handover_p99_ms'] ?? 0);
}
file_put_contents("$outDir/handover.dat", $dat);
$gp = "set terminal png size 800,450\nset output '$outDir/handover.png'\nset logscale x 2\nset xlabel 'waiters queued'\n"
    . "set ylabel 'hand-over latency (ms)'\nset title 'dlock hand-over latency against waiters (release returned -> next acquire returned)'\n"
    . "set yrange [0:*]\nset key left top\nplot '$outDir/handover.dat' using 1:2 with linespoints title 'p50', '' using 1:3 with linespoints title 'p99'\n";
$plots = [];
foreach ($size['scale_peers'] as $k => $name) {
    $plots[] = sprintf("'%s/throughput.dat' using 1:%d with linespoints lw 2 title '%s'", $outDir, $k + 2, $name);
}
$gp .= "set output '$outDir/throughput.png'\nset xlabel 'processes contending for one lock'\nset ylabel 'lock cycles per second (all processes)'\n"
    . "set title 'lock throughput against contending processes (one ZooKeeper, 2 shared cores)'\n"
    . "set xtics (1, 2, 4, 8, 16, 32)\nset key outside right\nplot " . implode(', ', $plots) . "\n";
$gpf = tempnam(sys_get_temp_dir(), 'gp');
file_put_contents($gpf, $gp);
$gpOut = trim((string) shell_exec('gnuplot ' . escapeshellarg($gpf) . ' 2>&1'));
unlink($gpf);
foreach (['handover.png', 'throughput.png'] as $png) {
    if (!is_file("$outDir/$png") || filemtime("$outDir/$png") < time() - 60) {
        say("chart $png not written (is gnuplot installed?) $gpOut; the tables and .dat files are complete");
    }
}
echo $md;
