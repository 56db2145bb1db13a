--TEST--
php-fpm: pm.max_requests recycles workers whose last request held a lock; exclusion is kept (exact counter, 4 parallel clients) and no node stays
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(2);
$path = dlt_path('fpm-max-requests');
$dir = dlt_fpm_dir('002');
file_put_contents("$dir/counter", '0');
const N = 36;
/* every request ends holding the lock (request shutdown releases it), so every
 * recycled worker held the lock in its last request */
dlt_fpm_start($port, ['pm.max_requests=3']);
$bodies = dlt_fpm_many($port, 'counter.php', N, 4, fn($i) => ['path' => $path, 'dir' => $dir]);
$pids = [];
foreach ($bodies as $i => $b) {
    if (preg_match('/^(\d+)$/', trim($b), $m)) {
        $pids[$m[1]] = ($pids[$m[1]] ?? 0) + 1;
    } else {
        echo "request $i: ", trim($b), "\n";
    }
}
echo "responses: ", array_sum($pids), "\n";
echo "counter: ", file_get_contents("$dir/counter"), "\n";
/* static pool of 2, at most 3 requests each: at least N/3 workers in turn */
echo "most requests of one worker: ", max($pids ?: [0]), "\n";
echo "workers: ", count($pids) >= N / 3 ? 'at least N/3' : count($pids), "\n";
echo "nodes: ", dlt_nodes($path), "\n";
$log = dlt_fpm_log($port);
echo "recycled: ", preg_match_all('/child \d+ exited with code 0/', $log) >= N / 3 - 2 ? 'yes' : "no\n$log", "\n";
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(2));
?>
--EXPECT--
responses: 36
counter: 36
most requests of one worker: 3
workers: at least N/3
nodes: 0
recycled: yes
