--TEST--
Contract, every backend: a lock a process still holds when its script ends (no release(), or an uncaught exception) is released at request shutdown: the next process takes it at once, not after a session or lease timeout (ZooKeeper's session_timeout and Redis's lease default to 10 s and 30 s; the bound is 5 s)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
foreach (dlt_backends() as $b => $o) {
    foreach (['end' => '', 'exception' => 'throw new RuntimeException("boom");'] as $how => $tail) {
        $name = dlt_cname("request-end-$how", $b);
        $c = dlt_cspawn('
$l = new DistributedLock($argv[2], $opts);
echo json_encode($l->acquire(10)), "\n";
' . $tail, $o, [$name]);
        $held = dlt_line($c);
        dlt_finish($c);
        $t = microtime(true);
        $l = new DistributedLock($name, $o);
        echo "$b $how: child held $held, next took it ", json_encode([$l->acquire(10), microtime(true) - $t < 5]), "\n";
        $l->release();
    }
}
?>
--EXPECT--
zookeeper end: child held true, next took it [true,true]
zookeeper exception: child held true, next took it [true,true]
redis end: child held true, next took it [true,true]
redis exception: child held true, next took it [true,true]
postgres end: child held true, next took it [true,true]
postgres exception: child held true, next took it [true,true]
mysql end: child held true, next took it [true,true]
mysql exception: child held true, next took it [true,true]
