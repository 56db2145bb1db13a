--TEST--
A connect string whose chroot does not exist on the server (one level or deeper): every acquire throws a DistributedLockException that names the chroot and says to create it; the chroot is never created behind the user's back
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$base = '/dlock-tests-missing-chroot-' . getmypid();
foreach ([$base, "$base/deeper"] as $chroot) {
    $opts = ['hosts' => dlt_hosts() . $chroot, 'connect_timeout' => 5];
    foreach ([fn() => (new DistributedLock('/orders/42', $opts))->acquire(10),
              fn() => (new DistributedSemaphore('/top', 2, $opts))->tryAcquire(),
              fn() => (new DistributedReadWriteLock('/a/b/c', $opts))->writeLock()->acquire(),
              fn() => (new DistributedLock('/orders/42', $opts))->tryAcquire()] as $f) {
        try {
            var_dump($f());
        } catch (DistributedLockException $e) {
            echo get_class($e), ': ', str_replace($base, '<BASE>', $e->getMessage()), "\n";
        }
    }
}
?>
--EXPECT--
DistributedLockException: /orders/42: cannot create /orders: the chroot "<BASE>" of the connect string does not exist on the server (create it first)
DistributedLockException: /top: cannot create /top: the chroot "<BASE>" of the connect string does not exist on the server (create it first)
DistributedLockException: /a/b/c: cannot create /a: the chroot "<BASE>" of the connect string does not exist on the server (create it first)
DistributedLockException: /orders/42: cannot create /orders: the chroot "<BASE>" of the connect string does not exist on the server (create it first)
DistributedLockException: /orders/42: cannot create /orders: the chroot "<BASE>/deeper" of the connect string does not exist on the server (create it first)
DistributedLockException: /top: cannot create /top: the chroot "<BASE>/deeper" of the connect string does not exist on the server (create it first)
DistributedLockException: /a/b/c: cannot create /a: the chroot "<BASE>/deeper" of the connect string does not exist on the server (create it first)
DistributedLockException: /orders/42: cannot create /orders: the chroot "<BASE>/deeper" of the connect string does not exist on the server (create it first)
