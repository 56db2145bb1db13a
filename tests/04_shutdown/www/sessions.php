<?php
/* Reports how many ZooKeeper sessions this server process has open (phpinfo), then takes a lock. */
ob_start();
phpinfo(INFO_MODULES);
preg_match('/Sessions open in this process\D*(\d+)/', strip_tags(ob_get_clean()), $m);
echo "sessions at start: ", $m[1] ?? '?', "\n";
$l = new DistributedLock($_GET['path'], ['hosts' => getenv('DLOCK_TEST_HOSTS')]);
/* the previous request's lock may still be on its way out (its release does not
 * wait for the reply, and with dlock.persistent=0 it was on another session) */
echo $l->acquire(5) ? "acquired\n" : "busy\n";
