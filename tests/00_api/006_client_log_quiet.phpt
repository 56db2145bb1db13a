--TEST--
The ZooKeeper client's own log lines never reach the script's stdout or stderr (and go to dlock.log_file when set)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$code = '
$l = new DistributedLock("/dlock-tests/quiet", dlt_opts());
$l->acquire();
$l->release();
try { (new DistributedLock("/x", ["hosts" => "127.0.0.1:1", "connect_timeout" => 0.3]))->acquire(); } catch (Exception $e) {}
echo "done\n";
';
$c = dlt_spawn($code);
echo dlt_line($c), "\n";
dlt_finish($c);
var_dump($c['buf'], $c['errbuf']);
$log = tempnam(sys_get_temp_dir(), 'dlt-zklog');
$c = dlt_spawn($code, [], '-d dlock.log_file=' . escapeshellarg($log));
echo dlt_line($c), "\n";
dlt_finish($c);
var_dump($c['errbuf'], str_contains(file_get_contents($log), 'ZOO_INFO'));
unlink($log);
?>
--EXPECT--
done
string(0) ""
string(0) ""
done
string(0) ""
bool(true)
