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
 *   (DLOCK_HOSTS selects the ZooKeeper server, default 127.0.0.1:2181)
 */
require __DIR__ . '/bridges_autoload.php';

use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

if (($argv[1] ?? '') === '--worker') {
    [, , $mode, $counter, $count] = $argv;
    $store = new DlockStore(['hosts' => getenv('DLOCK_HOSTS') ?: '127.0.0.1:2181']);
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

$workers = (int) ($argv[1] ?? 8);
$each = (int) ($argv[2] ?? 25);
foreach (['unlocked', 'locked'] as $mode) {
    $counter = tempnam(sys_get_temp_dir(), 'orders');
    file_put_contents($counter, '0');
    $t = microtime(true);
    $procs = $outs = [];
    for ($w = 0; $w < $workers; $w++) {
        $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . (getenv('DLOCK_SO') ?: 'dlock'), __FILE__, '--worker', $mode, $counter, (string) $each];
        $procs[] = proc_open($cmd, [1 => ['pipe', 'w']], $pipes);
        $outs[] = $pipes[1];
    }
    $numbers = $fences = [];
    foreach ($outs as $o) {
        foreach (explode("\n", trim(stream_get_contents($o))) as $line) {
            if ($line !== '') {
                [$n, $fence] = explode(' ', $line);
                $numbers[] = $n;
                $fences[$n] = (int) $fence;
            }
        }
    }
    ksort($fences);
    $growing = true;
    $last = -1;
    foreach ($fences as $f) {
        $growing = $growing && $f > $last;
        $last = $f;
    }
    foreach ($procs as $p) {
        proc_close($p);
    }
    $unique = count(array_unique($numbers));
    printf("symfony %-9s %d workers x %d orders: %d numbers issued, %d unique, %d duplicates, counter ends at %d%s (%.2f s)\n",
        $mode, $workers, $each, count($numbers), $unique, count($numbers) - $unique,
        (int) file_get_contents($counter), $mode === 'locked' ? ($growing ? ', fencing tokens grow' : ', FENCING TOKENS OUT OF ORDER') : '',
        microtime(true) - $t);
    unlink($counter);
}
