--TEST--
An unreachable server: DistributedLockConnectionException within connect_timeout, saying that nothing listens there
--EXTENSIONS--
dlock
--FILE--
<?php
$l = new DistributedLock('/dlock-tests/unreachable', ['hosts' => '127.0.0.1:1', 'connect_timeout' => 0.5]);
$t = microtime(true);
try {
    $l->acquire();
} catch (DistributedLockConnectionException $e) {
    echo $e->getMessage(), "\n";
}
$dt = microtime(true) - $t;
var_dump($dt >= 0.4 && $dt < 3.0, $l->isAcquired());
try {
    (new DistributedLock('/x', ['hosts' => 'no-such-host.invalid:2181', 'connect_timeout' => 0.5]))->tryAcquire();
} catch (DistributedLockConnectionException $e) {
    echo get_class($e), "\n";
}
?>
--EXPECT--
/dlock-tests/unreachable: could not connect to ZooKeeper at "127.0.0.1:1" within 500 ms: nothing listens there
bool(true)
bool(false)
DistributedLockConnectionException
