--TEST--
Self-deadlock guard: a blocking acquire() without timeout of a path this process holds through another object throws
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-self-deadlock');
$a = new DistributedLock($path, dlt_opts());
$b = new DistributedLock($path, dlt_opts());
$a->acquire();
try {
    $b->acquire();
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
var_dump($b->acquire(0.1), dlt_nodes($path));   /* with a timeout it is allowed, and just fails */
$a->release();
var_dump($b->acquire());
$b->release();

$rw1 = new DistributedReadWriteLock(dlt_path('kinds-self-rw'), dlt_opts());
$rw2 = new DistributedReadWriteLock(dlt_path('kinds-self-rw'), dlt_opts());
$rw1->readLock()->acquire();
var_dump($rw2->readLock()->acquire());          /* readers share: no guard */
$rw2->readLock()->release();
try {
    $rw2->writeLock()->acquire();               /* would wait for $rw1's read lock */
} catch (DistributedLockException $e) {
    echo $e->getMessage(), "\n";
}
$rw1->readLock()->release();
$s1 = new DistributedSemaphore(dlt_path('kinds-self-sem'), 1, dlt_opts());
$s2 = new DistributedSemaphore(dlt_path('kinds-self-sem'), 1, dlt_opts());
$s1->acquire();
try {
    $s2->acquire();
} catch (DistributedLockException $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
DistributedLockException: /dlock-tests/kinds-self-deadlock: this process already holds it through another object; waiting without a timeout would wait for itself
bool(false)
int(1)
bool(true)
bool(true)
/dlock-tests/kinds-self-rw: this process already holds it through another object; waiting without a timeout would wait for itself
/dlock-tests/kinds-self-sem: this process already holds it through another object; waiting without a timeout would wait for itself
