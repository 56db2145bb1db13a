<?php
/* Read-increment-write of ?dir=/counter under the lock ?path=, never
 * released by the script: request shutdown releases it (with pm.max_requests,
 * also in the last request of a worker that is then recycled). A second
 * request inside the critical section at the same time is reported as OVERLAP
 * (the marker file is created exclusively). Prints "PID". */
require __DIR__ . '/lib.inc';
$dir = $_GET['dir'];
$l = w_lock($_GET['path']);
if (!$l->acquire(30)) {
    echo getmypid(), " not acquired\n";
    return;
}
$inside = @fopen("$dir/inside", 'x');
if (!$inside) {
    echo "OVERLAP ";
}
$n = (int) file_get_contents("$dir/counter");
usleep(2000); /* widens the read-modify-write window a lost exclusion would show in */
file_put_contents("$dir/counter", $n + 1);
if ($inside) {
    fclose($inside);
    unlink("$dir/inside");
}
echo getmypid(), "\n";
