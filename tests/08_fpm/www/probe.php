<?php
/* One of a pair of concurrent requests (?dir= &round=): both arrive first, so
 * they run in the two different workers; then one after the other (the first
 * to arrive first) each tries the lock ?path= once and releases it, waiting for
 * the release's reply. Prints "PID free" or "PID busy". */
require __DIR__ . '/lib.inc';
$dir = $_GET['dir'];
$round = $_GET['round'];
if (!w_pair($dir, $round)) {
    echo getmypid(), " no partner\n";
    return;
}
$first = (bool) @fopen("$dir/$round.first", 'x');
if (!$first && !w_until(fn() => is_file("$dir/$round.first-done"), 10.0)) {
    echo getmypid(), " first did not finish\n";
    return;
}
ini_set('dlock.async_release', '0');
$l = w_lock($_GET['path']);
$free = $l->tryAcquire();
if ($free) {
    $l->release();
}
if ($first) {
    touch("$dir/$round.first-done");
}
echo getmypid(), $free ? " free\n" : " busy\n";
