--TEST--
Request end releases a held lock: timeout (php -S keeps the process and its session alive)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('shutdown-timeout');
$srv = dlt_server(__DIR__ . '/www');
$pid = trim(dlt_get($srv['url'] . '/pid.php'));
$body = dlt_get($srv['url'] . '/hold.php?how=timeout&path=' . urlencode($path));
echo preg_match('/^held \d+/', $body) ? "request held the lock\n" : "unexpected: $body\n";
/* same server process, same session: only RSHUTDOWN can have freed the lock */
var_dump(trim(dlt_get($srv['url'] . '/pid.php')) === $pid);
$l = new DistributedLock($path, dlt_opts());
var_dump($l->tryAcquire());
$l->release();
dlt_signal($srv, 15);
dlt_finish($srv);
?>
--EXPECT--
request held the lock
bool(true)
bool(true)
