<?php
/* Takes the lock ?path= (session_timeout 1000 ms), records "PID" in ?dir=/held
 * and then sleeps past the pool's request_terminate_timeout: the worker is
 * killed in its critical section, with no request shutdown. */
require __DIR__ . '/lib.inc';
$l = w_lock($_GET['path'], ['session_timeout' => 1000]);
if (!$l->acquire(10)) {
    echo "not acquired\n";
    return;
}
file_put_contents($_GET['dir'] . '/held.tmp', getmypid());
rename($_GET['dir'] . '/held.tmp', $_GET['dir'] . '/held');
sleep(30);
echo "not killed\n";
