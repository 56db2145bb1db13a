<?php
/* One of a pair of concurrent requests (?dir= &round=, so the pair runs in two
 * workers): reports this worker's pid, how many ZooKeeper sessions were open
 * in the process when the request began (phpinfo) and, after taking the lock
 * ?path=/PID, the id of the server's session this process is connected with.
 * Prints "PID start=N sid=0x...". */
require __DIR__ . '/lib.inc';
$start = w_sessions_open();
if (!w_pair($_GET['dir'], $_GET['round'])) {
    echo getmypid(), " no partner\n";
    return;
}
$l = w_lock($_GET['path'] . '/' . getmypid());
if (!$l->acquire(10)) {
    echo getmypid(), " not acquired\n";
    return;
}
echo getmypid(), " start=$start sid=", w_zk_sids(), "\n";
$l->release();
