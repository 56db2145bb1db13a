--TEST--
The self-deadlock guard sees one ZooKeeper in its spellings: "localhost", "127.1", upper case, reordered or repeated servers; an untimed acquire() of a name this process holds through another object spelled so throws at once instead of waiting for itself
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
ini_set('dlock.max_wait', '20'); /* before: the second acquire() waited for itself until this cap */
$path = dlt_path('safety-self-spellings');
[$host, $port] = explode(':', dlt_hosts());
$a = new DistributedLock($path, dlt_opts());
var_dump($a->acquire());
foreach (["localhost:$port", "127.1:$port", "LOCALHOST.:$port", "localhost:$port,$host:$port"] as $hosts) {
    $b = new DistributedLock($path, ['hosts' => $hosts, 'connect_timeout' => 5]);
    $t = microtime(true);
    try {
        var_dump($b->acquire());
    } catch (DistributedLockException $e) {
        echo "$hosts: ", str_contains($e->getMessage(), 'wait for itself') ? 'would wait for itself' : $e->getMessage(), "\n";
    }
    var_dump(microtime(true) - $t < 10, $b->isAcquired());
}
/* another ensemble spelling is still another client: a timed try is refused, not granted */
$c = new DistributedLock($path, ['hosts' => "localhost:$port", 'connect_timeout' => 5]);
var_dump($c->tryAcquire(), count(DistributedLock::participants($path, dlt_opts())));
$a->release();
var_dump($c->acquire(10)); /* once our release is through */
$c->release();
?>
--EXPECTF--
bool(true)
localhost:%d: would wait for itself
bool(true)
bool(false)
127.1:%d: would wait for itself
bool(true)
bool(false)
LOCALHOST.:%d: would wait for itself
bool(true)
bool(false)
localhost:%d,127.0.0.1:%d: would wait for itself
bool(true)
bool(false)
bool(false)
int(1)
bool(true)
