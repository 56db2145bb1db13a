--TEST--
php-fpm: request_terminate_timeout kills a worker in its critical section; nobody gets the lock while its session lives, its node goes within session_timeout + slack, then the lock is free
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(3);
$path = dlt_path('fpm-terminate');
$dir = dlt_fpm_dir('003');
dlt_fpm_start($port, ['request_terminate_timeout=2s']);
/* the victim takes the lock with 'session_timeout' => 1000 and sleeps 30 s */
$victim = dlt_fpm_async($port, 'sleep.php', ['path' => $path, 'dir' => $dir]);
if (!dlt_until(fn() => (int) @file_get_contents("$dir/held") > 0, 15)) { /* the pid, not only the file */
    echo "victim never held: ", dlt_fpm_wait($victim, 5), "\n";
}
$vpid = (int) file_get_contents("$dir/held");
$victim_node = function () use ($path, $vpid): bool {
    foreach (DistributedLock::participants($path, dlt_opts()) as $p) {
        if (str_ends_with($p['data'], ':' . $vpid)) {
            return true;
        }
    }
    return false;
};
echo "victim's node: ", $victim_node() ? 'holds' : 'missing', "\n";
$me = new DistributedLock($path, dlt_opts());
$probes = ['alive' => 0, 'dead' => 0];
$violations = [];
/* one probe: a request on another worker and a tryAcquire() here, both must
 * fail while the victim's node is there (a node cannot come back once gone) */
$probe = function (string $phase) use ($port, $path, $me, $victim_node, &$probes, &$violations): bool {
    $body = trim(dlt_fpm_get($port, 'tryacq.php', ['path' => $path]));
    $mine = $me->tryAcquire();
    if ($mine) {
        $me->release();
    }
    $there = $victim_node();
    if ($there) {
        $probes[$phase]++;
        if (!preg_match('/^\d+ busy$/', $body)) {
            $violations[] = "$phase: request got '$body' while the victim's node was there";
        }
        if ($mine) {
            $violations[] = "$phase: tryAcquire() true while the victim's node was there";
        }
    }
    return $there;
};
/* while the victim sleeps in its critical section, until the pool kills it */
$deadline = microtime(true) + 20;
while (!dlt_fpm_poll($victim) && microtime(true) < $deadline) {
    $probe('alive');
}
echo "victim's request: ", dlt_fpm_poll($victim) ? ($victim['rc'] !== 0 && trim($victim['body']) === '' ? 'killed' : "ended rc={$victim['rc']} {$victim['body']}") : 'still running', "\n";
$killed = $victim['ended'] ?? microtime(true);
echo "pool log: ", preg_match('/child ' . $vpid . ', script .* execution timed out/', dlt_fpm_log($port)) ? 'execution timed out' : dlt_fpm_log($port), "\n";
/* after the kill, until the killed worker's session expires (1 s) + 4 s slack */
$gone = false;
while (microtime(true) < $killed + 5.0) {
    if (!$probe('dead')) {
        $gone = true;
        break;
    }
}
$after = microtime(true) - $killed;
echo "victim's node gone within session_timeout + slack: ", $gone ? 'yes' : sprintf('no (%.2f s)', $after), "\n";
echo "probes while it held and was alive: ", $probes['alive'] > 0 ? 'some' : 'none', "\n";
echo "violations: ", $violations ? implode("\n", $violations) : 'none', "\n";
$body = trim(dlt_fpm_get($port, 'tryacq.php', ['path' => $path]));
echo "then a request gets it: ", preg_match('/^\d+ held$/', $body) ? 'yes' : "no: $body", "\n";
var_dump($me->tryAcquire());
$me->release();
echo "nodes: ", dlt_nodes($path), "\n";
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(3));
?>
--EXPECT--
victim's node: holds
victim's request: killed
pool log: execution timed out
victim's node gone within session_timeout + slack: yes
probes while it held and was alive: some
violations: none
then a request gets it: yes
bool(true)
nodes: 0
