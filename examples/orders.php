<?php
/*
 * The classic order-number generator. N worker processes each take K order
 * numbers from a shared counter (read, +1, write). Run once without a lock and
 * once with DistributedLock: without it workers read the same value and issue
 * duplicate order numbers; with it every number is unique.
 *
 *   php -d extension=modules/dlock.so examples/orders.php [workers] [orders-each]
 *   (DLOCK_HOSTS selects the ZooKeeper server, default 127.0.0.1:2181; or DLOCK_DSN
 *   another backend, e.g. redis://127.0.0.1:6379)
 */
if (($argv[1] ?? '') === '--worker') {
    [, , $mode, $counter, $count] = $argv;
    $lock = new DistributedLock('/demo/orders', (getenv('DLOCK_DSN') ? ['dsn' => getenv('DLOCK_DSN')] : ['hosts' => getenv('DLOCK_HOSTS') ?: '127.0.0.1:2181']));
    for ($i = 0; $i < (int) $count; $i++) {
        if ($mode === 'locked') {
            $lock->acquire();
        }
        $next = (int) file_get_contents($counter) + 1;   // read
        usleep(200);                                    // some work between read and write
        file_put_contents($counter, (string) $next);     // write
        if ($mode === 'locked') {
            $lock->release();
        }
        echo "ORD-", str_pad((string) $next, 6, '0', STR_PAD_LEFT), "\n";
    }
    exit(0);
}

require __DIR__ . '/demo_driver.php';

dlock_demo_run(__FILE__, $argv, function ($mode, $workers, $each, $numbers, $end, $seconds) {
    $unique = count(array_unique($numbers));
    printf("%-9s %d workers x %d orders: %d numbers issued, %d unique, %d duplicates, counter ends at %d (%.2f s)\n",
        $mode, $workers, $each, count($numbers), $unique, count($numbers) - $unique, $end, $seconds);
    return $mode === 'unlocked' || $unique === count($numbers);   // duplicates under the lock: a failure
});
