--TEST--
Semaphore: 8 processes x 15 cycles never exceed maxLeases (3) holders at once
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-semaphore');
$file = tempnam(sys_get_temp_dir(), 'dlt-sem');
file_put_contents($file, "0 0");
$kids = [];
for ($i = 0; $i < 8; $i++) {
    $kids[] = dlt_spawn('
$s = new DistributedSemaphore($argv[1], 3, dlt_opts());
/* "current max" in a file; flock makes each update atomic */
function bump(string $f, int $d): void {
    $h = fopen($f, "r+"); flock($h, LOCK_EX);
    [$cur, $max] = array_map("intval", explode(" ", trim(fread($h, 100))));
    $cur += $d; $max = max($max, $cur);
    ftruncate($h, 0); rewind($h); fwrite($h, "$cur $max"); fflush($h);
    flock($h, LOCK_UN); fclose($h);
}
for ($n = 0; $n < 15; $n++) {
    $s->acquire();
    bump($argv[2], 1);
    usleep(3000);
    bump($argv[2], -1);
    $s->release();
}
echo "done\n";
', [$path, $file]);
}
$ok = 0;
foreach ($kids as $k => $c) {
    $ok += dlt_line($kids[$k], 120) === 'done';
    dlt_finish($kids[$k]);
}
[$cur, $max] = array_map('intval', explode(' ', file_get_contents($file)));
var_dump($ok, $cur, $max <= 3, $max >= 2);
var_dump(count(DistributedSemaphore::participants($path, 3, dlt_opts())));
unlink($file);
?>
--EXPECT--
int(8)
int(0)
bool(true)
bool(true)
int(0)
