<?php
/* Tries the lock ?path= once; holds it until the request ends. Prints "PID held" or "PID busy". */
require __DIR__ . '/lib.inc';
$l = w_lock($_GET['path']);
echo getmypid(), $l->tryAcquire() ? " held\n" : " busy\n";
