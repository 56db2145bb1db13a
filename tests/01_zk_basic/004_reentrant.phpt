--TEST--
Reentrancy: acquire() on a holding object counts; the node goes at the last release()
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('basic-reentrant');
$l = new DistributedLock($path, dlt_opts());
var_dump($l->acquire(), $l->tryAcquire(), $l->acquire(1.0));
$token = $l->getFencingToken();
var_dump(dlt_nodes($path));
$l->release();
$l->release();
var_dump($l->isAcquired(), $l->getFencingToken() === $token, dlt_nodes($path));
$l->release();
var_dump($l->isAcquired(), dlt_nodes($path));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
int(1)
bool(true)
bool(true)
int(1)
bool(false)
int(0)
