--TEST--
A mutex, a read-write lock and a semaphore on one ZooKeeper path never hold at once: a contender that finds another kind's node in the queue deletes its own and throws (other process and same process)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$make = '
function make(string $kind, string $path) {
    return match ($kind) {
        "mutex" => new DistributedLock($path, dlt_opts()),
        "sem" => new DistributedSemaphore($path, 1, dlt_opts()),
        "write" => (new DistributedReadWriteLock($path, dlt_opts()))->writeLock(),
        "read" => (new DistributedReadWriteLock($path, dlt_opts()))->readLock(),
    };
}
function all_nodes(string $path): int {
    return count(DistributedLock::participants($path, dlt_opts()))
        + count(DistributedSemaphore::participants($path, 1, dlt_opts()))
        + count(DistributedReadWriteLock::participants($path, dlt_opts()));
}
';
eval($make);
function attempt(callable $f): string {
    try {
        return var_export($f(), true);
    } catch (DistributedLockException $e) {
        $m = $e->getMessage();
        return get_class($e) . (str_contains($m, 'another kind') ? ' (another kind)'
            : (str_contains($m, 'wait for itself') ? ' (self-wait)' : ': ' . $m));
    }
}
$i = 0;
foreach ([['mutex', 'sem'], ['mutex', 'write'], ['sem', 'mutex'], ['read', 'mutex']] as [$held, $other]) {
    $path = dlt_path('safety-kinds-' . $i++);
    /* another process holds $held */
    $h = dlt_spawn($make . '
$l = make($argv[1], $argv[2]);
var_export($l->acquire(20)); echo "\n";
echo trim((string) fgets(STDIN)), "\n";
$l->release();
', [$held, $path]);
    $got = dlt_line($h);
    $c = make($other, $path);
    $r1 = attempt(fn() => $c->tryAcquire());
    $r2 = attempt(fn() => $c->acquire(1.0));
    printf("%s held elsewhere (%s), %s: try=%s timed=%s acquired=%s nodes=%d\n", $held, $got, $other,
        $r1, $r2, var_export($c->isAcquired(), true), all_nodes($path));
    dlt_send($h, 'release');
    dlt_line($h);
    dlt_finish($h);
    /* this process holds $held: an untimed acquire of $other neither holds nor waits */
    $a = make($held, $path);
    $a->acquire(10);
    $c = make($other, $path);
    $t = microtime(true);
    $r3 = attempt(fn() => $c->acquire());
    printf("  same process untimed: %s acquired=%s quick=%s\n", $r3, var_export($c->isAcquired(), true),
        var_export(microtime(true) - $t < 5, true));
    $a->release();
    var_dump(dlt_until(fn() => all_nodes($path) === 0, 10));
}
?>
--EXPECT--
mutex held elsewhere (true), sem: try=DistributedLockException (another kind) timed=DistributedLockException (another kind) acquired=false nodes=1
  same process untimed: DistributedLockException (self-wait) acquired=false quick=true
bool(true)
mutex held elsewhere (true), write: try=DistributedLockException (another kind) timed=DistributedLockException (another kind) acquired=false nodes=1
  same process untimed: DistributedLockException (self-wait) acquired=false quick=true
bool(true)
sem held elsewhere (true), mutex: try=DistributedLockException (another kind) timed=DistributedLockException (another kind) acquired=false nodes=1
  same process untimed: DistributedLockException (self-wait) acquired=false quick=true
bool(true)
read held elsewhere (true), mutex: try=DistributedLockException (another kind) timed=DistributedLockException (another kind) acquired=false nodes=1
  same process untimed: DistributedLockException (self-wait) acquired=false quick=true
bool(true)
