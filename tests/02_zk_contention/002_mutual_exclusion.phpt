--TEST--
Mutual exclusion: 8 processes x 50 read-modify-write cycles of a shared counter end exact
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('contention-counter');
$file = tempnam(sys_get_temp_dir(), 'dlt-counter');
file_put_contents($file, '0');
$kids = [];
for ($i = 0; $i < 8; $i++) {
    $kids[] = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
$inside = $argv[2] . ".inside";
for ($n = 0; $n < 50; $n++) {
    $l->acquire();
    if (!@mkdir($inside)) { echo "overlap\n"; }
    $v = (int) file_get_contents($argv[2]);
    usleep(100); /* widen the race window: a broken lock loses updates */
    file_put_contents($argv[2], (string) ($v + 1));
    rmdir($inside);
    $l->release();
}
echo "done\n";
', [$path, $file]);
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
var_dump($ok, (int) file_get_contents($file), dlt_nodes($path));
unlink($file);
?>
--EXPECT--
int(8)
int(400)
int(0)
