--TEST--
Contract, every backend: bad arguments are a ValueError before anything reaches the server (empty name, negative or too long timeout, zero leases, an out-of-range option), and leave nothing behind
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
foreach (dlt_backends() as $b => $o) {
    $name = dlt_cname('bad-input', $b);
    $cases = [
        'empty name' => fn() => new DistributedLock('', $o),
        'negative timeout' => fn() => (new DistributedLock($name, $o))->acquire(-1),
        'timeout past a year' => fn() => (new DistributedLock($name, $o))->acquire(31536001),
        'zero leases' => fn() => new DistributedSemaphore($name, 0, $o),
        'connect_timeout 0' => fn() => new DistributedLock($name, ['connect_timeout' => 0] + $o),
        'unknown option' => fn() => new DistributedLock($name, ['no_such_option' => 1] + $o),
    ];
    foreach ($cases as $what => $f) {
        try {
            $f();
            echo "$b: $what: accepted\n";
        } catch (ValueError | TypeError $e) {
            echo "$b: $what: ", get_class($e), "\n";
        }
    }
    echo "$b: nothing left ", json_encode(DistributedLock::participants($name, $o)), "\n";
}
?>
--EXPECT--
zookeeper: empty name: ValueError
zookeeper: negative timeout: ValueError
zookeeper: timeout past a year: ValueError
zookeeper: zero leases: ValueError
zookeeper: connect_timeout 0: ValueError
zookeeper: unknown option: ValueError
zookeeper: nothing left []
redis: empty name: ValueError
redis: negative timeout: ValueError
redis: timeout past a year: ValueError
redis: zero leases: ValueError
redis: connect_timeout 0: ValueError
redis: unknown option: ValueError
redis: nothing left []
postgres: empty name: ValueError
postgres: negative timeout: ValueError
postgres: timeout past a year: ValueError
postgres: zero leases: ValueError
postgres: connect_timeout 0: ValueError
postgres: unknown option: ValueError
postgres: nothing left []
mysql: empty name: ValueError
mysql: negative timeout: ValueError
mysql: timeout past a year: ValueError
mysql: zero leases: ValueError
mysql: connect_timeout 0: ValueError
mysql: unknown option: ValueError
mysql: nothing left []
