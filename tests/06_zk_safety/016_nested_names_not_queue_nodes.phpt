--TEST--
Children of a lock path that merely contain a recipe marker (a nested lock's container such as clock-0, deadlock-0, lease-0, x__WRIT__0, x__READ__0) are not queue nodes: the parent lock is free and participants() ignores them
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$cases = [
    ['mutex', 'clock-0'], ['mutex', 'deadlock-0'], ['sem', 'lease-0'],
    ['write', 'x__WRIT__0'], ['read', 'x__WRIT__0'], ['write', 'x__READ__0'],
];
foreach ($cases as $i => [$kind, $child]) {
    $path = dlt_path("safety-nested-$i");
    $nested = new DistributedLock("$path/$child", dlt_opts());
    $nested->acquire(10);
    $parent = match ($kind) {
        'mutex' => new DistributedLock($path, dlt_opts()),
        'sem' => new DistributedSemaphore($path, 1, dlt_opts()),
        'write' => (new DistributedReadWriteLock($path, dlt_opts()))->writeLock(),
        'read' => (new DistributedReadWriteLock($path, dlt_opts()))->readLock(),
    };
    $before = count(match ($kind) {
        'mutex' => DistributedLock::participants($path, dlt_opts()),
        'sem' => DistributedSemaphore::participants($path, 1, dlt_opts()),
        default => DistributedReadWriteLock::participants($path, dlt_opts()),
    });
    $t = microtime(true);
    $got = $parent->acquire(2.0);
    printf("%s %s: free=%s quick=%s seen=%d\n", $kind, $child, var_export($got, true),
        var_export(microtime(true) - $t < 1.5, true), $before);
    if ($got) {
        $parent->release();
    }
    $nested->release();
}
?>
--EXPECT--
mutex clock-0: free=true quick=true seen=0
mutex deadlock-0: free=true quick=true seen=0
sem lease-0: free=true quick=true seen=0
write x__WRIT__0: free=true quick=true seen=0
read x__WRIT__0: free=true quick=true seen=0
write x__READ__0: free=true quick=true seen=0
