--TEST--
A path with a character outside the Basic Multilingual Plane (which ZooKeeper refuses) is a ValueError in the constructor saying why, before any network traffic; so is such a chroot; characters inside the plane work
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$emoji = "\u{1F512}";
foreach ([fn() => new DistributedLock(dlt_path("bmp-$emoji"), dlt_opts()),
          fn() => new DistributedSemaphore(dlt_path("bmp/x\u{10000}"), 2, dlt_opts()),
          fn() => new DistributedReadWriteLock(dlt_path("bmp/\u{10FFFF}"), dlt_opts()),
          fn() => DistributedLock::participants(dlt_path("bmp-$emoji"), dlt_opts()),
          /* a chroot: an unreachable server shows nothing was sent */
          fn() => new DistributedLock('/a', ['hosts' => "127.0.0.1:1/root$emoji"])] as $f) {
    try {
        $f();
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
/* the last character of the plane ZooKeeper allows, and ordinary non-ASCII ones */
$l = new DistributedLock(dlt_path("bmp-\u{FFEF}-\u{4E2D}-\u{E9}"), dlt_opts());
var_dump($l->acquire(10), $l->isAcquired());
$l->release();
?>
--EXPECT--
DistributedLock::__construct(): Argument #1 ($path) must not contain characters outside the Basic Multilingual Plane (U+1F512): ZooKeeper refuses them in paths
DistributedSemaphore::__construct(): Argument #1 ($path) must not contain characters outside the Basic Multilingual Plane (U+10000): ZooKeeper refuses them in paths
DistributedReadWriteLock::__construct(): Argument #1 ($path) must not contain characters outside the Basic Multilingual Plane (U+10FFFF): ZooKeeper refuses them in paths
DistributedLock::participants(): Argument #1 ($path) must not contain characters outside the Basic Multilingual Plane (U+1F512): ZooKeeper refuses them in paths
DistributedLock::__construct(): Argument #2 ($options) option "hosts" chroot must not contain characters outside the Basic Multilingual Plane (U+1F512): ZooKeeper refuses them in paths
bool(true)
bool(true)
