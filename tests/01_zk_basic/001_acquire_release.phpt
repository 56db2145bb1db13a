--TEST--
acquire() then release(): the node exists exactly while held and carries the data
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('basic-acquire');
$l = new DistributedLock($path, dlt_opts(['data' => 'worker-7']));
var_dump($l->acquire());
var_dump($l->isAcquired());
$q = DistributedLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['data'], $q[0]['holder'], $q[0]['token'] === $l->getFencingToken());
var_dump((bool) preg_match('/^_c_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}-lock-\d{10}$/', $q[0]['node']));
$l->release();
var_dump($l->isAcquired(), dlt_nodes($path));
?>
--EXPECT--
bool(true)
bool(true)
int(1)
string(8) "worker-7"
bool(true)
bool(true)
bool(true)
bool(false)
int(0)
