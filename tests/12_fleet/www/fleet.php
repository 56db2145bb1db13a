<?php
/* One request of a php-fpm fleet (tests/12_fleet, bench/fleet.sh): takes the
 * lock "/dlock-fleet/k<KEY>" on ?dsn= (KEY = ?i= modulo ?keys=, default 1),
 * read-increments-writes the counter file ?dir=/k<KEY> under it and releases.
 * A second request inside the same key's critical section at once is
 * reported (the marker file is created exclusively). With ?token=1 it also
 * checks the hold's fencing token against the last one of that key
 * (?dir=/k<KEY>.token, written under the lock): it must be greater. Prints
 * "ok PID", or "OVERLAP PID", or "TOKEN PID <last> then <token>", or
 * "ERR PID <exception class>: <message> (after S s)", and the ZooKeeper
 * connections this process had open at the start and at the end (phpinfo)
 * when ?info=1. */
$t0 = microtime(true);
$key = (int) ($_GET['i'] ?? 0) % max(1, (int) ($_GET['keys'] ?? 1));
$dir = $_GET['dir'];
$info = function (): string {
    ob_start();
    phpinfo(INFO_MODULES);
    $i = strip_tags(ob_get_clean());
    return preg_match('/ZooKeeper connections open in this process\D*(\d+)/', $i, $m) ? $m[1] : '?';
};
$at_start = empty($_GET['info']) ? '' : ' sessions at start ' . $info();
try {
    $l = new DistributedLock("/dlock-fleet/k$key", ['dsn' => $_GET['dsn'], 'connect_timeout' => (float) ($_GET['ct'] ?? 5)]);
    if (!$l->acquire((float) ($_GET['wait'] ?? 60))) {
        echo 'ERR ', getmypid(), ' not acquired within ', $_GET['wait'] ?? 60, " s\n";
        return;
    }
    $inside = @fopen("$dir/k$key.inside", 'x');
    $n = (int) @file_get_contents("$dir/k$key");
    $token = '';
    if (!empty($_GET['token'])) {
        $t = $l->getFencingToken();
        $last = (int) @file_get_contents("$dir/k$key.token");
        $token = $t > $last ? '' : "$last then $t";
        file_put_contents("$dir/k$key.token", (string) max($t, $last));
    }
    usleep((int) ($_GET['work_us'] ?? 0));
    file_put_contents("$dir/k$key", $n + 1);
    if ($inside) {
        fclose($inside);
        unlink("$dir/k$key.inside");
    }
    $l->release();
    echo $inside ? ($token === '' ? 'ok ' : 'TOKEN ') : 'OVERLAP ', getmypid(), $token === '' ? '' : " $token", $at_start, empty($_GET['info']) ? '' : ', at end ' . $info(), "\n";
} catch (Throwable $e) {
    printf("ERR %d %s: %s (after %.2f s)\n", getmypid(), get_class($e), $e->getMessage(), microtime(true) - $t0);
}
