<?php
/*
 * The order-number generator of examples/orders.php through Laravel's cache
 * locks: N worker processes each take K order numbers from a shared counter,
 * once without a lock and once inside Cache::lock('orders')->block(10, ...) on
 * a Dlock\Bridge\Laravel\DlockStore. block() waits in dlock (a ZooKeeper
 * watch, not Laravel's retry every 250 ms), and every number is unique.
 *
 *   php -d extension=modules/dlock.so examples/laravel.php [workers] [orders-each]
 *   (DLOCK_HOSTS selects the ZooKeeper server, default 127.0.0.1:2181; or DLOCK_DSN
 *   another backend, e.g. redis://127.0.0.1:6379)
 *
 * In a Laravel application the same store comes from config/cache.php with the
 * "dlock" driver of Dlock\Bridge\Laravel\DlockServiceProvider (bridges/laravel/README.md).
 */
require __DIR__ . '/bridges_autoload.php';

use Dlock\Bridge\Laravel\DlockStore;
use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Repository;

if (($argv[1] ?? '') === '--worker') {
    [, , $mode, $counter, $count] = $argv;
    // cached values would live in the inner store (Redis, database...); locks live in ZooKeeper
    $cache = new Repository(new DlockStore(new ArrayStore(), (getenv('DLOCK_DSN') ? ['dsn' => getenv('DLOCK_DSN')] : ['hosts' => getenv('DLOCK_HOSTS') ?: '127.0.0.1:2181'])));
    $take = function () use ($counter): int {
        $next = (int) file_get_contents($counter) + 1;   // read
        usleep(200);                                     // some work between read and write
        file_put_contents($counter, (string) $next);     // write
        return $next;
    };
    for ($i = 0; $i < (int) $count; $i++) {
        $next = $mode === 'locked'
            ? $cache->lock('orders')->block(10, $take)   // ZooKeeper path /dlock/laravel/orders
            : $take();
        echo "ORD-", str_pad((string) $next, 6, '0', STR_PAD_LEFT), "\n";
    }
    exit(0);
}

require __DIR__ . '/demo_driver.php';

dlock_demo_run(__FILE__, $argv, function ($mode, $workers, $each, $numbers, $end, $seconds) {
    $unique = count(array_unique($numbers));
    printf("laravel %-9s %d workers x %d orders: %d numbers issued, %d unique, %d duplicates, counter ends at %d (%.2f s)\n",
        $mode, $workers, $each, count($numbers), $unique, count($numbers) - $unique, $end, $seconds);
    return $mode === 'unlocked' || $unique === count($numbers);   // duplicates under the lock: a failure
});
