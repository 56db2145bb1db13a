--TEST--
A stalled server (connection up, no answers): tryAcquire() and acquire($t) return within their timeout plus the stated bound, on an existing and on a new path
--EXTENSIONS--
dlock
posix
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$port = (string) dlt_zk_port(42);
$hosts = dlt_zk('start', $port);
$state = getenv('DLOCK_ZK_STATE') ?: '/tmp/dlock-zk';
$java = (int) file_get_contents("$state/$port/pid");
register_shutdown_function(fn() => posix_kill($java, SIGCONT));
$opts = ['hosts' => $hosts, 'session_timeout' => 10000];
$old = new DistributedLock(dlt_path('safety-stall/existing'), $opts);
var_dump($old->tryAcquire());
$old->release();
$new = new DistributedLock(dlt_path('safety-stall/new/' . getmypid()), $opts);
var_dump(dlt_stop_process($java)); /* every thread: one still running could answer */
foreach (['tryAcquire existing' => [$old, null], 'acquire(0.5) existing' => [$old, 0.5],
          'tryAcquire new path' => [$new, null], 'acquire(0.5) new path' => [$new, 0.5]] as $what => [$l, $t]) {
    $t0 = hrtime(true);
    try {
        $r = var_export($t === null ? $l->tryAcquire() : $l->acquire($t), true);
    } catch (DistributedLockException $e) {
        $r = 'exception';
    }
    $took = (hrtime(true) - $t0) / 1e9;
    /* the bound: timeout + 1 s (README "Timeouts"); generous here for slow runs */
    echo "$what: $r, ", $took <= ($t ?? 0) + 2.5 ? 'in time' : sprintf('TOO SLOW (%.2f s)', $took), "\n";
}
posix_kill($java, SIGCONT);
var_dump($old->acquire(20));
$old->release();
dlt_zk('stop', $port);
?>
--EXPECT--
bool(true)
bool(true)
tryAcquire existing: false, in time
acquire(0.5) existing: false, in time
tryAcquire new path: false, in time
acquire(0.5) new path: false, in time
bool(true)
