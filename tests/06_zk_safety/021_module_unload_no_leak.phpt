--TEST--
Module shutdown frees the lock paths the ZooKeeper backend remembered as existing: a process that took a lock and unloads the module leaks nothing (valgrind, module really unloaded)
--EXTENSIONS--
dlock
--SKIPIF--
<?php
require __DIR__ . '/../inc/skipif.inc';
if (getenv('USE_ZEND_ALLOC') === '0') die('skip runs its own valgrind');
exec('command -v valgrind', $o, $rc);
if ($rc !== 0) die('skip valgrind not installed');
?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$script = tempnam(sys_get_temp_dir(), 'dlt-unload') . '.php';
file_put_contents($script, '<?php
$l = new DistributedLock($argv[1], ["hosts" => $argv[2]]);
var_dump($l->acquire(30));
$l->release();
');
/* the module is unloaded at exit (no ZEND_DONT_UNLOAD_MODULES): a string
 * still owned by its static tables is then definitely lost */
$cmd = 'env -u ZEND_DONT_UNLOAD_MODULES USE_ZEND_ALLOC=0 valgrind --leak-check=full '
    . '--keep-debuginfo=yes --show-leak-kinds=definite ' . dlt_php_cmd() . ' '
    . escapeshellarg($script) . ' ' . escapeshellarg(dlt_path('safety-unload/' . getmypid())) . ' '
    . escapeshellarg(dlt_hosts()) . ' 2>&1';
exec($cmd, $out, $rc);
$out = implode("\n", $out);
echo str_contains($out, 'bool(true)') ? "acquired\n" : "no acquire: $out\n";
var_dump(preg_match('/definitely lost: 0 bytes/', $out) === 1 || !str_contains($out, 'definitely lost'));
var_dump(str_contains($out, 'dlock_create'));
@unlink($script);
?>
--EXPECT--
acquired
bool(true)
bool(false)
