--TEST--
participants(): holder first, then waiters in order, each with its data and fencing token
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-participants');
$holder = new DistributedLock($path, dlt_opts(['data' => 'worker-A']));
$holder->acquire();
$kids = [];
foreach (['worker-B', 'worker-C'] as $i => $name) {
    $kids[$i] = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["data" => $argv[2]]));
echo "waiting\n";
$l->acquire(30);
', [$path, $name]);
    echo dlt_line($kids[$i]), "\n";
    $deadline = microtime(true) + 20;
    while (dlt_nodes($path) < $i + 2 && microtime(true) < $deadline);
}
$q = DistributedLock::participants($path, dlt_opts());
foreach ($q as $e) {
    printf("%s holder=%s\n", $e['data'], var_export($e['holder'], true));
}
var_dump($q[0]['token'] === $holder->getFencingToken(), $q[0]['token'] < $q[1]['token'] && $q[1]['token'] < $q[2]['token']);
foreach ($kids as $i => $c) {
    dlt_signal($kids[$i], 9);
    dlt_finish($kids[$i]);
}
$holder->release();
var_dump(DistributedLock::participants(dlt_path('kinds-participants-none'), dlt_opts()));
?>
--EXPECT--
waiting
waiting
worker-A holder=true
worker-B holder=false
worker-C holder=false
bool(true)
bool(true)
array(0) {
}
