--TEST--
Slow-lock log, two processes: a wait past dlock.slow_wait_ms writes exactly one line to dlock.log_file naming the lock, the backend, the milliseconds and the holder that made us wait (its node's data); the holder's release past dlock.slow_hold_ms writes one slow-hold line at release
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$name = dlt_path('slow-wait-holder');
$wlog = tempnam(sys_get_temp_dir(), 'dlt-slow-w');
$hlog = tempnam(sys_get_temp_dir(), 'dlt-slow-h');
$holder = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["data" => "holder-proc-" . getmypid()]));
echo json_encode($l->acquire(5)), " ", getmypid(), "\n";
/* the waiter has queued its node: its acquire() is under way from here on */
echo json_encode(dlt_until(fn() => count(DistributedLock::participants($argv[1], dlt_opts())) === 2, 20)), "\n";
usleep(400000); /* a lower bound on the waiter\'s wait, not a synchronization */
$l->release();
echo "released\n";
', [$name], '-d dlock.slow_hold_ms=300 -d error_log=' . escapeshellarg($hlog));
[$ok, $hpid] = explode(' ', dlt_line($holder));
echo "holder acquired $ok\n";
$waiter = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
echo json_encode($l->acquire(20)), "\n";
$l->release();
', [$name], '-d dlock.slow_wait_ms=200 -d dlock.slow_hold_ms=5000 -d dlock.log_file=' . escapeshellarg($wlog));
echo "holder saw the waiter queued ", dlt_line($holder), "\n";
echo "holder ", dlt_line($holder), "\n";
echo "waiter acquired ", dlt_line($waiter), "\n";
echo "exits ", dlt_finish($holder), " ", dlt_finish($waiter), "\n";

$lines = array_values(array_filter(file($wlog, FILE_IGNORE_NEW_LINES), fn($l) => str_contains($l, 'dlock slow')));
echo "waiter's slow lines ", count($lines), "\n";
$ok = preg_match('/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z dlock slow wait: lock "' . preg_quote($name, '/')
    . '" backend zookeeper kind mutex waited (\d+) ms \(acquired\) holder "holder-proc-' . $hpid . '"$/', $lines[0] ?? '', $m);
echo "names the holder ", json_encode((bool) $ok), ", waited at least 400 ms ", json_encode($ok && $m[1] >= 400), "\n";
$hl = array_values(array_filter(file($hlog, FILE_IGNORE_NEW_LINES), fn($l) => str_contains($l, 'dlock slow')));
echo "holder's slow lines ", count($hl), "\n";
echo "slow hold at release ", json_encode((bool) preg_match('/dlock slow hold: lock "' . preg_quote($name, '/')
    . '" backend zookeeper kind mutex held (\d+) ms$/', $hl[0] ?? '')), "\n";
@unlink($wlog);
@unlink($hlog);
?>
--EXPECT--
holder acquired true
holder saw the waiter queued true
holder released
waiter acquired true
exits 0 0
waiter's slow lines 1
names the holder true, waited at least 400 ms true
holder's slow lines 1
slow hold at release true
