--TEST--
php-fpm: dlock_stats() is each worker's own and accumulates across that worker's requests (each request adds one cycle to the worker that served it, never to the other); what requests left held counts 0 after they end
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(7);
$path = dlt_path('fpm-stats-per-worker');
dlt_fpm_start($port); /* pm = static, 2 workers */
$seen = [];
$bad = [];
for ($i = 0; $i < 8; $i++) {
    $body = trim(dlt_fpm_get($port, 'stats.php', ['path' => $path], $rc));
    if (!preg_match('/^(\d+) (\d+) (\d+) (\d+)$/', $body, $m)) {
        $bad[] = "rc $rc: $body";
        continue;
    }
    [, $pid, $ok, $released, $held] = array_map('intval', $m);
    $seen[$pid] = ($seen[$pid] ?? 0) + 1;
    if ($ok !== $seen[$pid] || $released !== $seen[$pid] || $held !== 0) {
        $bad[] = "worker $pid: request {$seen[$pid]} saw ok $ok released $released held $held";
    }
}
echo "requests answered ", array_sum($seen), "\n";
echo "workers seen at most 2: ", json_encode(count($seen) >= 1 && count($seen) <= 2), "\n";
echo "each worker counted its own requests only: ", json_encode($bad === []), $bad ? ' ' . json_encode($bad) : '', "\n";
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(7));
?>
--EXPECT--
requests answered 8
workers seen at most 2: true
each worker counted its own requests only: true
