--TEST--
release() twice, release() or getFencingToken() without holding: DistributedLockException
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$l = new DistributedLock(dlt_path('basic-release-twice'), dlt_opts());
foreach (['release', 'getFencingToken'] as $m) {
    try {
        $l->$m();
    } catch (DistributedLockException $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
$l->acquire();
$l->release();
try {
    $l->release();
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
?>
--EXPECT--
DistributedLockException: lock /dlock-tests/basic-release-twice is not held by this object
DistributedLockException: lock /dlock-tests/basic-release-twice is not held: no fencing token
DistributedLockException: lock /dlock-tests/basic-release-twice is not held by this object
