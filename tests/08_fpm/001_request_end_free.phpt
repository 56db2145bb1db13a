--TEST--
php-fpm: a lock left held by a request (no release, exit, uncaught exception) is free for the next request on the same worker and on the other worker, with no node left
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(1);
$path = dlt_path('fpm-request-end');
$dir = dlt_fpm_dir('001');
dlt_fpm_start($port); /* pm = static, 2 workers, persistent sessions (the default) */
foreach (['none', 'exit', 'exception'] as $round => $how) {
    echo "-- the request ends by: $how\n";
    $body = dlt_fpm_get($port, 'hold.php', ['path' => $path, 'how' => $how], $rc);
    $holder = preg_match('/^held (\d+)$/m', $body, $m) ? (int) $m[1] : 0;
    echo $holder ? "request held the lock\n" : "unexpected (rc $rc): $body\n";
    if ($how === 'exception') {
        echo str_contains($body, 'Uncaught RuntimeException: boom') ? "uncaught exception\n" : "no exception: $body\n";
    }
    /* the worker's session is still open (persistent): only request shutdown can have deleted the node */
    echo "nodes right after the request: ", dlt_nodes($path), "\n";
    /* two probes at once occupy both workers: one is the holder's, one the other */
    $a = dlt_fpm_async($port, 'probe.php', ['path' => $path, 'dir' => $dir, 'round' => "r$round"]);
    $b = dlt_fpm_async($port, 'probe.php', ['path' => $path, 'dir' => $dir, 'round' => "r$round"]);
    $seen = [];
    foreach ([dlt_fpm_wait($a), dlt_fpm_wait($b)] as $line) {
        if (preg_match('/^(\d+) (free|busy)$/', trim($line), $p)) {
            $seen[(int) $p[1]] = $p[2];
        } else {
            echo "probe: ", trim($line), "\n";
        }
    }
    echo "same worker: ", $seen[$holder] ?? 'not reached (' . json_encode($seen) . ')', "\n";
    unset($seen[$holder]);
    echo "other worker: ", count($seen) === 1 ? reset($seen) : 'not reached (' . json_encode($seen) . ')', "\n";
}
echo "nodes at the end: ", dlt_nodes($path), "\n";
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(1));
?>
--EXPECT--
-- the request ends by: none
request held the lock
nodes right after the request: 0
same worker: free
other worker: free
-- the request ends by: exit
request held the lock
nodes right after the request: 0
same worker: free
other worker: free
-- the request ends by: exception
request held the lock
uncaught exception
nodes right after the request: 0
same worker: free
other worker: free
nodes at the end: 0
