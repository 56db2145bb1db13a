<?php
/* Reports how many ZooKeeper sessions this server process has open (phpinfo), then takes a lock. */
ob_start();
phpinfo(INFO_MODULES);
preg_match('/ZooKeeper connections open in this process\D*(\d+)/', strip_tags(ob_get_clean()), $m);
echo "sessions at start: ", $m[1] ?? '?', "\n";
$l = new DistributedLock($_GET['path'], ['hosts' => getenv('DLOCK_TEST_HOSTS')]);
/* waits for an event, not a time: the previous request's lock is released at
 * its end (the delete waited for), so this normally holds at once; a blocking
 * acquire() keeps a slow run (valgrind) from failing on a deadline */
echo $l->acquire() ? "acquired\n" : "busy\n";
