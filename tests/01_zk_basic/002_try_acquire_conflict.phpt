--TEST--
tryAcquire() is false while another object or another process holds the lock, true once free
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('basic-try');
$a = new DistributedLock($path, dlt_opts());
$b = new DistributedLock($path, dlt_opts());
var_dump($a->tryAcquire(), $b->tryAcquire(), $b->isAcquired());

$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
echo $l->tryAcquire() ? "got\n" : "busy\n";
fgets(STDIN);
echo $l->tryAcquire() ? "got\n" : "busy\n";
', [$path]);
echo dlt_line($c), "\n";
$a->release();
/* release() does not wait for the delete's reply; any later call on the same
 * session is ordered after it, so this listing is a release barrier */
var_dump(dlt_nodes($path));
dlt_send($c, 'go');
echo dlt_line($c), "\n";
var_dump(dlt_finish($c));
var_dump(dlt_nodes($path), $b->tryAcquire());
$b->release();
?>
--EXPECT--
bool(true)
bool(false)
bool(false)
busy
int(0)
got
int(0)
int(0)
bool(true)
