--TEST--
Contract, every backend: fencing tokens strictly increase across successive holders in this and other processes
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
foreach (dlt_backends() as $b => $o) {
    $name = dlt_cname('fencing', $b);
    $tokens = [];
    $l = new DistributedLock($name, $o);
    for ($i = 0; $i < 3; $i++) {
        $l->acquire(10);
        $tokens[] = $l->getFencingToken();
        $l->release();
        $c = dlt_cspawn('
$l = new DistributedLock($argv[2], $opts);
$l->acquire(10);
echo $l->getFencingToken(), "\n";
$l->release();
', $o, [$name]);
        $tokens[] = (int) dlt_line($c);
        dlt_finish($c);
    }
    $sorted = array_unique($tokens);
    sort($sorted);
    echo "$b: ", json_encode([count($tokens), $sorted === $tokens, min($tokens) > 0]), "\n";
    if ($sorted !== $tokens) {
        echo "$b: tokens ", implode(' ', $tokens), "\n";
    }
}
?>
--EXPECT--
zookeeper: [6,true,true]
redis: [6,true,true]
postgres: [6,true,true]
mysql: [6,true,true]
