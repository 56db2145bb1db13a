<?php
// php -d extension=modules/dlock.so examples/first_lock.php [DSN]
$lock = new DistributedLock('/locks/orders', ['dsn' => $argv[1] ?? 'zookeeper://127.0.0.1:2181']);
$lock->acquire();                       // blocks until this process holds the lock
try {
    echo "held, fencing token ", $lock->getFencingToken(), "\n";
} finally {
    $lock->release();
}
echo $lock->synchronized(fn() => "held again, inside synchronized()\n");
