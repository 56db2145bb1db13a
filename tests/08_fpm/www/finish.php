<?php
/* Takes the lock ?path=, answers "held PID", calls fastcgi_finish_request()
 * and keeps working under the lock until the test creates ?dir=/go; records
 * isAcquired() after the finish in ?dir=/finished and writes ?dir=/done last.
 * The script never releases: request shutdown does, after ?dir=/done. */
require __DIR__ . '/lib.inc';
$dir = $_GET['dir'];
$l = w_lock($_GET['path']);
if (!$l->acquire(10)) {
    echo "not acquired\n";
    return;
}
echo "held ", getmypid(), "\n";
var_dump(fastcgi_finish_request());
file_put_contents("$dir/finished", $l->isAcquired() ? 'held' : 'not held');
$go = w_until(fn() => is_file("$dir/go"), 30.0);
file_put_contents("$dir/done", ($go ? 'go' : 'no go') . ' ' . ($l->isAcquired() ? 'held' : 'not held'));
