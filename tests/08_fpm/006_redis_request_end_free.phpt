--TEST--
php-fpm, Redis: a lock left held by a request (no release, exit, uncaught exception) is free for the next request on the same worker and on the other worker, with no key left
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(true); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
require __DIR__ . '/../inc/redis.inc';
$port = dlt_fpm_port(6);
$name = dlt_rkey('fpm-request-end');
dlt_redis_clean($name);
$dir = dlt_fpm_dir('006');
dlt_fpm_start($port); /* pm = static, 2 workers, persistent connections (the default) */
foreach (['none', 'exit', 'exception'] as $round => $how) {
    echo "-- the request ends by: $how\n";
    $body = dlt_fpm_get($port, 'hold.php', ['path' => $name, 'how' => $how, 'backend' => 'redis'], $rc);
    $holder = preg_match('/^held (\d+)$/m', $body, $m) ? (int) $m[1] : 0;
    echo $holder ? "request held the lock\n" : "unexpected (rc $rc): $body\n";
    if ($how === 'exception') {
        echo str_contains($body, 'Uncaught RuntimeException: boom') ? "uncaught exception\n" : "no exception: $body\n";
    }
    /* the worker's connection stays open (persistent): only request shutdown can have deleted the hold */
    echo "keys right after the request: ", json_encode(dlt_redis_leftovers($name)), "\n";
    echo "participants: ", count(DistributedLock::participants($name, dlt_ropts())), "\n";
    /* two probes at once occupy both workers: one is the holder's, one the other */
    $q = ['path' => $name, 'dir' => $dir, 'round' => "r$round", 'backend' => 'redis'];
    $a = dlt_fpm_async($port, 'probe.php', $q);
    $b = dlt_fpm_async($port, 'probe.php', $q);
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
echo "keys at the end: ", json_encode(dlt_redis_leftovers($name)), "\n";
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
require __DIR__ . '/../inc/redis.inc';
dlt_fpm_stop(dlt_fpm_port(6));
dlt_redis_clean(dlt_rkey('fpm-request-end'));
?>
--EXPECT--
-- the request ends by: none
request held the lock
keys right after the request: []
participants: 0
same worker: free
other worker: free
-- the request ends by: exit
request held the lock
keys right after the request: []
participants: 0
same worker: free
other worker: free
-- the request ends by: exception
request held the lock
uncaught exception
keys right after the request: []
participants: 0
same worker: free
other worker: free
keys at the end: []
