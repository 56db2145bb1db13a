<?php
/* One acquire/release cycle of ?path=, then this worker's lock numbers:
 * "PID ok released held" (dlock_stats() is per process: a worker's own,
 * across its requests). */
require __DIR__ . '/lib.inc';
$l = w_lock($_GET['path']);
$l->acquire(5);
$l->release();
$m = dlock_stats()['zookeeper']['mutex'];
echo getmypid(), ' ', $m['acquire']['ok'], ' ', $m['released'], ' ', $m['held'], "\n";
