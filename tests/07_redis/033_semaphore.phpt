--TEST--
Redis DistributedSemaphore: 8 processes never exceed 3 holders, every holder has a new fencing token, each lease is renewed by the watchdog on its own (a dead holder's lease ends while the others keep theirs), nothing is left behind
--EXTENSIONS--
dlock
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r33-semaphore');
$file = tempnam(sys_get_temp_dir(), 'dlt-rsem');
file_put_contents($file, "0 0");
$kids = [];
for ($i = 0; $i < 8; $i++) {
    $kids[] = dlt_rspawn('
$s = new DistributedSemaphore($argv[1], 3, dlt_ropts());
function bump(string $f, int $d): void {
    $h = fopen($f, "r+"); flock($h, LOCK_EX);
    [$cur, $max] = array_map("intval", explode(" ", trim(fread($h, 100))));
    $cur += $d; $max = max($max, $cur);
    ftruncate($h, 0); rewind($h); fwrite($h, "$cur $max"); fflush($h);
    flock($h, LOCK_UN); fclose($h);
}
$last = 0;
for ($n = 0; $n < 15; $n++) {
    $s->acquire();
    $t = $s->getFencingToken();
    if ($t <= $last) { echo "token went back\n"; }
    $last = $t;
    bump($argv[2], 1);
    usleep(3000);
    bump($argv[2], -1);
    $s->release();
}
echo "done\n";
', [$name, $file]);
}
$ok = 0;
foreach ($kids as $k => $c) {
    $ok += dlt_line($kids[$k], 120) === 'done';
    dlt_finish($kids[$k]);
}
[$cur, $max] = array_map('intval', explode(' ', file_get_contents($file)));
var_dump($ok, $cur, $max <= 3, $max >= 2);
unlink($file);

/* leases are per holder: a killed holder's lease ends (lease 1 s) while
 * this process keeps renewing its own two */
$opts = dlt_ropts(['lease' => 1.0]);
$a = new DistributedSemaphore($name, 3, $opts);
$b = new DistributedSemaphore($name, 3, $opts);
var_dump($a->acquire(5), $b->acquire(5));
$c = dlt_rspawn('
$s = new DistributedSemaphore($argv[1], 3, dlt_ropts(["lease" => 1.0]));
echo $s->tryAcquire() ? "holds\n" : "full\n";
fgets(STDIN);
', [$name]);
echo dlt_line($c), "\n";
$d = new DistributedSemaphore($name, 3, $opts);
var_dump($d->tryAcquire());
posix_kill($c['pid'], SIGKILL);
dlt_finish($c);
$t = microtime(true);
var_dump(dlt_until(fn() => $d->tryAcquire(), 5), microtime(true) - $t < 2.5);
var_dump($a->isAcquired(), $b->isAcquired(), $d->isAcquired());
$a->checkHeld();
$b->checkHeld();
var_dump(count(DistributedSemaphore::participants($name, 3, $opts)));
$a->release();
$b->release();
$d->release();
var_dump(DistributedSemaphore::participants($name, 3, $opts), dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r33-semaphore'));
?>
--EXPECT--
int(8)
int(0)
bool(true)
bool(true)
bool(true)
bool(true)
holds
bool(false)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(3)
array(0) {
}
array(0) {
}
