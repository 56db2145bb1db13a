<?php
/*
 * The order-number generator of examples/orders.php through symfony/lock: N
 * worker processes each take K order numbers from a shared counter, once
 * without a lock and once with a LockFactory on Dlock\Bridge\Symfony\DlockStore.
 * acquire(true) blocks in dlock (a ZooKeeper watch, not Symfony's 100 ms retry
 * loop). With the lock every number is unique, and the fencing tokens of the
 * holds grow with the order numbers.
 *
 *   php -d extension=modules/dlock.so examples/symfony.php [workers] [orders-each]
 *   (DLOCK_HOSTS selects the ZooKeeper server, default 127.0.0.1:2181; or DLOCK_DSN
 *   another backend, e.g. redis://127.0.0.1:6379)
 */
require __DIR__ . '/bridges_autoload.php';

use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

if (($argv[1] ?? '') === '--worker') {
    [, , $mode, $counter, $count] = $argv;
    $store = new DlockStore((getenv('DLOCK_DSN') ? ['dsn' => getenv('DLOCK_DSN')] : ['hosts' => getenv('DLOCK_HOSTS') ?: '127.0.0.1:2181']));
    $factory = new LockFactory($store);
    for ($i = 0; $i < (int) $count; $i++) {
        $key = new Key('orders');                        // ZooKeeper path /dlock/symfony/orders
        $lock = $factory->createLockFromKey($key);
        $fence = 0;
        if ($mode === 'locked') {
            $lock->acquire(true);                        // waits its turn, no polling
            $fence = DlockStore::fencingToken($key);     // give it to storage that can refuse old ones
        }
        $next = (int) file_get_contents($counter) + 1;   // read
        usleep(200);                                     // some work between read and write
        file_put_contents($counter, (string) $next);     // write
        if ($mode === 'locked') {
            $lock->release();
        }
        echo "ORD-", str_pad((string) $next, 6, '0', STR_PAD_LEFT), " $fence\n";
    }
    exit(0);
}

require __DIR__ . '/demo_driver.php';

dlock_demo_run(__FILE__, $argv, function ($mode, $workers, $each, $lines, $end, $seconds) {
    $numbers = $fences = [];
    foreach ($lines as $line) {
        [$n, $fence] = explode(' ', $line);
        $numbers[] = $n;
        $fences[$n] = (int) $fence;
    }
    ksort($fences);
    $growing = true;
    $last = -1;
    foreach ($fences as $f) {
        $growing = $growing && $f > $last;
        $last = $f;
    }
    $unique = count(array_unique($numbers));
    printf("symfony %-9s %d workers x %d orders: %d numbers issued, %d unique, %d duplicates, counter ends at %d%s (%.2f s)\n",
        $mode, $workers, $each, count($numbers), $unique, count($numbers) - $unique, $end,
        $mode === 'locked' ? ($growing ? ', fencing tokens grow' : ', FENCING TOKENS OUT OF ORDER') : '', $seconds);
    return $mode === 'unlocked' || ($growing && $unique === count($numbers));   // else a failure
});
