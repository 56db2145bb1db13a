<?php
/* Takes the lock ?path= on Redis as a revocable holder (a listener counts
 * the requests), writes its pid to ?dir=/held.?round=, keeps the lock until
 * a revocation request reached it or the test creates ?dir=/go.?round=,
 * releases and answers "held PID, listener calls N". */
require __DIR__ . '/lib.inc';
$dir = $_GET['dir'];
$round = $_GET['round'];
$calls = 0;
$l = w_lock($_GET['path']);
$l->onRevocation(function () use (&$calls) { $calls++; });
if (!$l->acquire(10)) {
    echo "not acquired\n";
    return;
}
file_put_contents("$dir/held.$round", (string) getmypid());
w_until(fn() => $calls > 0 || is_file("$dir/go.$round"), 30.0);
$l->release();
echo "held ", getmypid(), ", listener calls $calls\n";
