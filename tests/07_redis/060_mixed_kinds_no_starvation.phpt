--TEST--
Redis: holders of one kind that overlap continuously from two processes (readers, semaphore holders) never starve a queued waiter they exclude (a mutex in any format, a semaphore, a writer): it gets in once the holders before it end
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$lib = '
function mk(string $k, string $name) {
    switch ($k) {
        case "lock": return new DistributedLock($name, dlt_ropts());
        case "laravel": return new DistributedLock($name, dlt_ropts(["format" => "laravel"]));
        case "sem": return new DistributedSemaphore($name, 2, dlt_ropts());
        case "sem3": return new DistributedSemaphore($name, 3, dlt_ropts());
        case "read": return (new DistributedReadWriteLock($name, dlt_ropts()))->readLock();
        case "write": return (new DistributedReadWriteLock($name, dlt_ropts()))->writeLock();
    }
}
';
/* a process that takes ("take KIND NAME SECS": a timed acquire), drops and
 * reports; the holders and the waiter are each one of these */
$child = $lib . '
$locks = [];
while (($line = fgets(STDIN)) !== false) {
    $w = explode(" ", trim($line));
    try {
        if ($w[0] === "take") {
            $l = $locks[$w[2]] ??= mk($w[1], $w[2]);
            $t = microtime(true);
            $ok = $l->acquire((float) $w[3]);
            printf("%s %.2f\n", $ok ? "held" : "not held", microtime(true) - $t);
        } elseif ($w[0] === "drop") {
            $locks[$w[1]]->release();
            echo "dropped\n";
        }
    } catch (Throwable $e) {
        echo get_class($e), ": ", str_replace("\n", " ", $e->getMessage()), "\n";
    }
}
';
$h = [dlt_rspawn($child), dlt_rspawn($child)];
$m = dlt_rspawn($child);
$i = 0;
foreach ([['read', 'lock'], ['read', 'laravel'], ['read', 'sem'], ['read', 'write'], ['sem3', 'lock']] as [$hk, $wk]) {
    $name = dlt_rkey('r060-' . $i++);
    dlt_redis('DEL', $name, 'dlock_queue:{' . $name . '}');
    $holding = [false, false];
    dlt_send($h[0], "take $hk $name 10");
    $holding[0] = str_starts_with(dlt_line($h[0]), 'held');
    /* the waiter queues behind the first holder */
    dlt_send($m, "take $wk $name 10");
    $queued = dlt_until(function () use ($name) {
        foreach (DistributedLock::participants($name, dlt_ropts()) as $p) {
            if (!$p['holder']) {
                return true;
            }
        }
        return false;
    }, 10);
    /* the holders overlap: the idle one takes (at most 1.5 s), then the
     * other drops, again and again, while the waiter waits */
    $got = null;
    $rounds = 0;
    $t0 = microtime(true);
    while ($got === null && microtime(true) - $t0 < 15) {
        $a = $holding[0] ? 1 : 0;
        dlt_send($h[$a], "take $hk $name 1.5");
        $holding[$a] = str_starts_with(dlt_line($h[$a]), 'held');
        if ($holding[1 - $a]) {
            dlt_send($h[1 - $a], "drop $name");
            dlt_line($h[1 - $a]);
            $holding[1 - $a] = false;
        }
        $rounds++;
        $line = dlt_line($m, 0.05);
        if (!str_starts_with($line, 'NO LINE')) {
            $got = $line;
        }
    }
    $got ??= dlt_line($m, 15);
    printf("%s holders, %s waiter: queued %s, %s\n", $hk, $wk, var_export($queued, true),
           str_starts_with($got, 'held') ? 'granted' : "NOT granted ($got)");
    if (str_starts_with($got, 'held')) {
        dlt_send($m, "drop $name");
        dlt_line($m);
    }
    foreach ([0, 1] as $j) {
        if ($holding[$j]) {
            dlt_send($h[$j], "drop $name");
            dlt_line($h[$j]);
        }
    }
}
/* a downgrade is a reader too: refused while a mutex waits behind our write */
$name = dlt_rkey('r060-5');
$rw = new DistributedReadWriteLock($name, dlt_ropts());
var_dump($rw->writeLock()->acquire(5));
dlt_send($m, "take lock $name 20");
var_dump(dlt_until(fn() => count(DistributedLock::participants($name, dlt_ropts())) === 2, 10));
try {
    $d = $rw->readLock()->acquire(1) ? 'granted' : 'not granted';
} catch (DistributedLockException $e) {
    $d = 'refused';
}
echo "downgrade beside a waiting mutex: $d\n";
$rw->writeLock()->release();
if ($rw->readLock()->isAcquired()) {
    $rw->readLock()->release();
}
echo 'mutex: ', strtok(dlt_line($m), ' '), "\n";
dlt_send($m, "drop $name");
dlt_line($m);
foreach ([$h[0], $h[1], $m] as $c) {
    dlt_finish($c);
}
echo "done\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
for ($i = 0; $i < 6; $i++) {
    dlt_redis_clean(dlt_rkey('r060-' . $i));
}
?>
--EXPECT--
read holders, lock waiter: queued true, granted
read holders, laravel waiter: queued true, granted
read holders, sem waiter: queued true, granted
read holders, write waiter: queued true, granted
sem3 holders, lock waiter: queued true, granted
bool(true)
bool(true)
downgrade beside a waiting mutex: refused
mutex: held
done
