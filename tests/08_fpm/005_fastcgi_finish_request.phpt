--TEST--
php-fpm: after fastcgi_finish_request() the script keeps working under the lock: the client has its response while the lock is still held, and request end releases it
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/fpm.inc'; dlt_fpm_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/fpm.inc';
$port = dlt_fpm_port(5);
$path = dlt_path('fpm-finish-request');
$dir = dlt_fpm_dir('005');
dlt_fpm_start($port);
/* returns as soon as the response is complete: fastcgi_finish_request() ended it */
$body = dlt_fpm_get($port, 'finish.php', ['path' => $path, 'dir' => $dir], $rc);
echo "response (rc $rc):\n", trim($body), "\n";
$holder = preg_match('/^held (\d+)$/m', $body, $m) ? $m[1] : '?';
echo "script still running: ", is_file("$dir/done") ? 'no' : 'yes', "\n";
echo "held after the finish: ", dlt_until(fn() => is_file("$dir/finished"), 10) ? file_get_contents("$dir/finished") : 'no record', "\n";
$parts = DistributedLock::participants($path, dlt_opts());
echo "holder node is the worker's: ", count($parts) === 1 && $parts[0]['holder'] && str_ends_with($parts[0]['data'], ":$holder") ? 'yes' : json_encode($parts), "\n";
$me = new DistributedLock($path, dlt_opts());
var_dump($me->tryAcquire());
echo "another request: ", preg_replace('/^\d+ /', '', trim(dlt_fpm_get($port, 'tryacq.php', ['path' => $path]))), "\n";
echo "script still running: ", is_file("$dir/done") ? 'no' : 'yes', "\n";
/* let the script end; request shutdown releases the lock */
touch("$dir/go");
echo "released at request end: ", dlt_until(fn() => dlt_nodes($path) === 0, 15) ? 'yes' : 'no', "\n";
echo "script's last record: ", is_file("$dir/done") ? file_get_contents("$dir/done") : 'none', "\n";
var_dump($me->tryAcquire());
$me->release();
echo "another request: ", preg_replace('/^\d+ /', '', trim(dlt_fpm_get($port, 'tryacq.php', ['path' => $path]))), "\n";
echo "nodes: ", dlt_nodes($path), "\n";
dlt_fpm_stop($port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/fpm.inc';
dlt_fpm_stop(dlt_fpm_port(5));
?>
--EXPECTF--
response (rc 0):
held %d
script still running: yes
held after the finish: held
holder node is the worker's: yes
bool(false)
another request: busy
script still running: yes
released at request end: yes
script's last record: go held
bool(true)
another request: held
nodes: 0
