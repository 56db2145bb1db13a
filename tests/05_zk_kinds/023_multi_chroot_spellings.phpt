--TEST--
Multi-lock: one znode spelled through a chroot and without one is one lock: a multi-lock over both spellings is refused, and two processes crossing the spellings take the names in one order (no deadlock)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$base = '/dlock-tests-chroot-multi';
$keep = new DistributedLock("$base/keep", dlt_opts()); /* a child keeps the chroot's container alive */
var_dump($keep->acquire(10));
$plain = dlt_opts();
$ch = ['hosts' => dlt_hosts() . $base, 'connect_timeout' => 5];
try {
    new DistributedMultiLock([new DistributedLock('/m1', $ch), new DistributedLock("$base/m1", $plain)]);
    echo "one znode in two spellings: accepted\n";
} catch (ValueError $e) {
    echo "one znode in two spellings: ", str_contains($e->getMessage(), 'same path') ? 'refused' : $e->getMessage(), "\n";
}
$c = dlt_spawn('
$plain = dlt_opts();
$ch = ["hosts" => dlt_hosts() . $argv[1], "connect_timeout" => 5];
$late = 0;
for ($i = 0; $i < 40; $i++) {
    $m = new DistributedMultiLock([new DistributedLock("$argv[1]/m1", $plain), new DistributedLock("/m2", $ch)]);
    if (!$m->acquire(8)) { $late++; continue; }
    usleep(2000);
    $m->release();
}
echo "child timeouts $late\n";
', [$base]);
$late = 0;
for ($i = 0; $i < 40; $i++) {
    $m = new DistributedMultiLock([new DistributedLock('/m1', $ch), new DistributedLock("$base/m2", $plain)]);
    if (!$m->acquire(8)) {
        $late++;
        continue;
    }
    usleep(2000);
    $m->release();
}
echo "parent timeouts $late\n";
echo dlt_line($c, 400), "\n";
dlt_finish($c);
$keep->release();
?>
--EXPECT--
bool(true)
one znode in two spellings: refused
parent timeouts 0
child timeouts 0
