--TEST--
Redis: every pair of kinds and formats on one name (lock, symfony and laravel formats, semaphore, read and write parts) excludes or waits across processes, never errors or overlaps
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* a lock object of kind $k on $name; participants() of that kind */
$lib = '
function mk(string $k, string $name) {
    switch ($k) {
        case "lock": return new DistributedLock($name, dlt_ropts());
        case "symfony": return new DistributedLock($name, dlt_ropts(["format" => "symfony"]));
        case "laravel": return new DistributedLock($name, dlt_ropts(["format" => "laravel"]));
        case "sem": return new DistributedSemaphore($name, 2, dlt_ropts());
        case "read": return (new DistributedReadWriteLock($name, dlt_ropts()))->readLock();
        case "write": return (new DistributedReadWriteLock($name, dlt_ropts()))->writeLock();
    }
}
function who(string $k, string $name): array {
    switch ($k) {
        case "sem": return DistributedSemaphore::participants($name, 2, dlt_ropts());
        case "read": case "write": return DistributedReadWriteLock::participants($name, dlt_ropts());
        default: return DistributedLock::participants($name, dlt_ropts(in_array($k, ["symfony", "laravel"]) ? ["format" => $k] : []));
    }
}
';
eval($lib);
/* the other process: "hold KIND NAME" takes and holds; "free" releases as
 * soon as somebody waits (participants() shows a waiter); "drop" at once */
$c = dlt_rspawn($lib . '
$held = null;
$warm = new DistributedLock(dlt_rkey("r044-warm"), dlt_ropts());
$warm->acquire(10);
$warm->release();
while (($line = fgets(STDIN)) !== false) {
    $w = explode(" ", trim($line));
    try {
        if ($w[0] === "hold") {
            $held = [$w[1], $w[2], mk($w[1], $w[2])];
            echo $held[2]->acquire(10) ? "held\n" : "not held\n";
        } elseif ($w[0] === "drop") {
            $held[2]->release();
            echo "released\n";
        } elseif ($w[0] === "free") {
            $ok = dlt_until(function () use ($held) {
                foreach (who($held[0], $held[1]) as $p) {
                    if (!$p["holder"]) { return true; }
                }
                return false;
            }, 30);
            $held[2]->release();
            echo $ok ? "released\n" : "released without a waiter\n";
        }
    } catch (Throwable $e) {
        echo get_class($e), ": ", str_replace("\n", " ", $e->getMessage()), "\n";
    }
}
');
/* connect and load the scripts first: tryAcquire() below has 0.5 s */
$warm = new DistributedLock(dlt_rkey('r044-warm'), dlt_ropts());
$warm->acquire(10);
$warm->release();
$kinds = ['lock', 'symfony', 'laravel', 'sem', 'read', 'write'];
$bad = 0;
$i = 0;
foreach ($kinds as $a) {
    foreach ($kinds as $b) {
        $name = dlt_rkey('r044-' . $i++);
        $shared = ($a === 'sem' && $b === 'sem') || ($a === 'read' && $b === 'read');
        dlt_send($c, "hold $a $name");
        $r = dlt_line($c);
        $got = [];
        try {
            $l = mk($b, $name);
            $t = $l->tryAcquire();
            $got[] = $t === $shared ? 'ok' : 'tryAcquire ' . var_export($t, true);
            if ($t) {
                $l->release();
            }
            who($b, $name);
            /* a waiter of kind b gets it once the holder of kind a lets go */
            dlt_send($c, $shared ? 'drop' : 'free');
            $t = $l->acquire(20);
            $got[] = $t ? 'ok' : 'acquire false';
            $f = dlt_line($c);
            $got[] = $f === 'released' ? 'ok' : $f;
            if ($t) {
                $l->release();
            }
        } catch (Throwable $e) {
            $got[] = get_class($e) . ': ' . $e->getMessage();
            dlt_send($c, 'drop');
            dlt_line($c);
        }
        if ($r !== 'held' || array_unique($got) !== ['ok']) {
            $bad++;
            echo "$a held, then $b: $r, ", implode(', ', $got), "\n";
        }
        if (dlt_redis_leftovers($name) !== []) {
            $bad++;
            echo "$a, $b: left ", implode(' ', dlt_redis_leftovers($name)), "\n";
        }
    }
}
echo "$i pairs, $bad bad\n";
echo "exit status ", dlt_finish($c), "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
for ($i = 0; $i < 36; $i++) {
    dlt_redis_clean(dlt_rkey('r044-' . $i));
}
dlt_redis_clean(dlt_rkey('r044-warm'));
?>
--EXPECT--
36 pairs, 0 bad
exit status 0
