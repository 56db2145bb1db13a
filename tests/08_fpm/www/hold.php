<?php
/* Takes the lock ?path= (?backend=redis/postgres/mysql: on that server) and ends the request as
 * ?how= says (none: returns, exit, exception) without calling release():
 * request shutdown must release it. Prints "held PID". */
require __DIR__ . '/lib.inc';
$l = w_lock($_GET['path']);
if (!$l->acquire(10)) {
    echo "not acquired ", getmypid(), "\n";
    return;
}
echo "held ", getmypid(), "\n";
switch ($_GET['how'] ?? 'none') {
    case 'exit':
        exit(0);
    case 'exception':
        throw new RuntimeException('boom');
}
