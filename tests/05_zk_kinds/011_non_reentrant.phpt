--TEST--
'reentrant' => false: a second acquire() on a holding object throws instead of counting
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$l = new DistributedLock(dlt_path('kinds-non-reentrant'), dlt_opts(['reentrant' => false]));
var_dump($l->acquire());
foreach (['acquire', 'tryAcquire'] as $m) {
    try {
        $l->$m();
    } catch (DistributedLockException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$l->release();
var_dump($l->isAcquired(), $l->acquire(1));
$l->release();
try {
    new DistributedLock('/x', ['reentrant' => 1]);
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
bool(true)
DistributedLockException: /dlock-tests/kinds-non-reentrant: already held by this object, which is not reentrant
DistributedLockException: /dlock-tests/kinds-non-reentrant: already held by this object, which is not reentrant
bool(false)
bool(true)
DistributedLock::__construct(): Argument #2 ($options) option "reentrant" must be of type bool, int given
