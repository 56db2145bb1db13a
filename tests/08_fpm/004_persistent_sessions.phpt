--TEST--
php-fpm: with dlock.persistent=1 the requests of one worker share one ZooKeeper session and the two workers never share one; with dlock.persistent=0 every request has its own
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(4);
$path = dlt_path('fpm-persistent');
/* the session ids are the server's own (its "cons" list, matched by the
 * worker's local port), not anything dlock reports about itself */
foreach (['1', '0'] as $persistent) {
    echo "-- dlock.persistent=$persistent\n";
    $dir = dlt_fpm_dir("004-$persistent");
    dlt_fpm_start($port, ["php_admin_value[dlock.persistent]=$persistent"]);
    $byPid = [];
    $all = [];
    for ($round = 0; $round < 3; $round++) {
        /* a pair of concurrent requests: one in each worker */
        $q = ['path' => $path, 'dir' => $dir, 'round' => "r$round"];
        $a = dlt_fpm_async($port, 'sessions.php', $q);
        $b = dlt_fpm_async($port, 'sessions.php', $q);
        foreach ([dlt_fpm_wait($a), dlt_fpm_wait($b)] as $line) {
            if (preg_match('/^(\d+) start=(\d+) sid=(0x[0-9a-f]+)$/', trim($line), $m)) {
                $byPid[$m[1]][] = ['start' => $m[2], 'sid' => $m[3]];
                $all[] = $m[3];
            } else {
                echo "round $round: ", trim($line), "\n";
            }
        }
    }
    echo "workers: ", count($byPid), ", requests: ", count($all), "\n";
    $perWorker = [];
    foreach ($byPid as $pid => $reqs) {
        $perWorker[] = count(array_unique(array_column($reqs, 'sid'))) . ' session(s), open at start: '
            . implode(',', array_column($reqs, 'start'));
    }
    sort($perWorker);
    echo implode("\n", $perWorker), "\n";
    $sets = array_map(fn($reqs) => array_unique(array_column($reqs, 'sid')), $byPid);
    echo "a session seen in two workers: ", count($byPid) === 2 && array_intersect(...array_values($sets)) ? 'yes' : 'no', "\n";
    echo "distinct sessions: ", count(array_unique($all)), "\n";
    dlt_fpm_stop($port);
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(4));
?>
--EXPECT--
-- dlock.persistent=1
workers: 2, requests: 6
1 session(s), open at start: 0,1,1
1 session(s), open at start: 0,1,1
a session seen in two workers: no
distinct sessions: 2
-- dlock.persistent=0
workers: 2, requests: 6
3 session(s), open at start: 0,0,0
3 session(s), open at start: 0,0,0
a session seen in two workers: no
distinct sessions: 6
