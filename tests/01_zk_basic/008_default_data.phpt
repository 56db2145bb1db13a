--TEST--
Default node data is "hostname:pid", so operators can see who holds a lock
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('basic-data');
$l = new DistributedLock($path, dlt_opts());
$l->acquire();
$q = DistributedLock::participants($path, dlt_opts());
var_dump($q[0]['data'] === gethostname() . ':' . getmypid());
$l->release();
?>
--EXPECT--
bool(true)
