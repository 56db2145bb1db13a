--TEST--
Redis: mutual exclusion, 6 processes x 30 read-modify-write cycles of a shared file counter end exact
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r06-counter');
$file = tempnam(sys_get_temp_dir(), 'dlt-rcounter');
file_put_contents($file, '0');
$kids = [];
for ($i = 0; $i < 6; $i++) {
    $kids[] = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
$inside = $argv[2] . ".inside";
$last = 0;
for ($n = 0; $n < 30; $n++) {
    if (!$l->acquire(60)) { echo "timeout\n"; exit(1); }
    $t = $l->getFencingToken();
    if ($t <= $last) { echo "token did not increase\n"; }
    $last = $t;
    if (!@mkdir($inside)) { echo "overlap\n"; }
    $v = (int) file_get_contents($argv[2]);
    usleep(200); /* widen the race window: a broken lock loses updates */
    file_put_contents($argv[2], (string) ($v + 1));
    rmdir($inside);
    $l->release();
}
echo "done\n";
', [$name, $file]);
}
$ok = 0;
foreach ($kids as $k => $c) {
    $line = dlt_line($kids[$k], 120);
    if ($line === 'done') {
        $ok++;
    } else {
        echo "child $k: $line\n";
    }
    dlt_finish($kids[$k]);
}
var_dump($ok, (int) file_get_contents($file), dlt_redis_leftovers($name));
unlink($file);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r06-counter'));
?>
--EXPECT--
int(6)
int(180)
array(0) {
}
