--TEST--
Contract, every backend: a held lock is refused to another process (try and timed), a timed wait ends near its timeout and leaves nothing queued, a release lets the other take it
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
foreach (dlt_backends() as $b => $o) {
    $name = dlt_cname('exclusion', $b);
    $a = new DistributedLock($name, $o);
    echo "$b: holds ", json_encode([$a->tryAcquire(), $a->isAcquired()]), "\n";
    $c = dlt_cspawn('
$l = new DistributedLock($argv[2], $opts);
$try = $l->tryAcquire();
$t = microtime(true);
$timed = $l->acquire(0.5);
$dt = microtime(true) - $t;
echo json_encode([$try, $timed, $dt >= 0.45 && $dt < 5, $l->isAcquired()]), "\n";
echo count(DistributedLock::participants($argv[2], $opts)), "\n";
echo trim((string) fgets(STDIN)), "\n";
$t = microtime(true);
echo json_encode([$l->acquire(10), $l->getFencingToken() > 0, microtime(true) - $t < 10]), "\n";
$l->release();
', $o, [$name]);
    echo "$b: other ", dlt_line($c), "\n";
    echo "$b: queued after the timeout ", dlt_line($c), "\n";
    $a->release();
    dlt_send($c, 'released');
    dlt_line($c);
    echo "$b: other after release ", dlt_line($c), "\n";
    echo "$b: exit ", dlt_finish($c), "\n";
    echo "$b: nothing left ", json_encode(dlt_until(fn() => DistributedLock::participants($name, $o) === [], 10)), "\n";
}
?>
--EXPECT--
zookeeper: holds [true,true]
zookeeper: other [false,false,true,false]
zookeeper: queued after the timeout 1
zookeeper: other after release [true,true,true]
zookeeper: exit 0
zookeeper: nothing left true
redis: holds [true,true]
redis: other [false,false,true,false]
redis: queued after the timeout 1
redis: other after release [true,true,true]
redis: exit 0
redis: nothing left true
postgres: holds [true,true]
postgres: other [false,false,true,false]
postgres: queued after the timeout 1
postgres: other after release [true,true,true]
postgres: exit 0
postgres: nothing left true
mysql: holds [true,true]
mysql: other [false,false,true,false]
mysql: queued after the timeout 1
mysql: other after release [true,true,true]
mysql: exit 0
mysql: nothing left true
