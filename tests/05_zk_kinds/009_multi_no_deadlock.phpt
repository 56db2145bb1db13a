--TEST--
Multi-lock: two processes over the same locks in opposite order finish without deadlock
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$a = dlt_path('kinds-deadlock-a');
$b = dlt_path('kinds-deadlock-b');
$code = '
$m = new DistributedMultiLock([new DistributedLock($argv[1], dlt_opts()), new DistributedLock($argv[2], dlt_opts())]);
for ($i = 0; $i < 30; $i++) {
    if (!$m->acquire(20)) { echo "timed out: deadlock?\n"; exit(1); }
    $m->release();
}
echo "done\n";
';
$x = dlt_spawn($code, [$a, $b]);
$y = dlt_spawn($code, [$b, $a]);
echo dlt_line($x, 90), "\n", dlt_line($y, 90), "\n";
var_dump(dlt_finish($x), dlt_finish($y), dlt_nodes($a) + dlt_nodes($b));
?>
--EXPECT--
done
done
int(0)
int(0)
int(0)
