<?php
/* Reports how many ZooKeeper sessions this server process has open (phpinfo), then takes a lock. */
ob_start();
phpinfo(INFO_MODULES);
preg_match('/Sessions open in this process\D*(\d+)/', strip_tags(ob_get_clean()), $m);
echo "sessions at start: ", $m[1] ?? '?', "\n";
$l = new DistributedLock($_GET['path'], ['hosts' => getenv('DLOCK_TEST_HOSTS')]);
echo $l->tryAcquire() ? "acquired\n" : "busy\n";
