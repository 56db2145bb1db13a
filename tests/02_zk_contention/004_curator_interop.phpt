--TEST--
Interop: Apache Curator InterProcessMutex (Java) and DistributedLock (PHP) exclude each other on one path
--EXTENSIONS--
dlock
--SKIPIF--
<?php
require __DIR__ . '/../inc/skipif.inc';
if (!is_file('/usr/share/java/curator-recipes.jar')) die('skip needs libcurator-recipes-java');
if (!trim((string) shell_exec('command -v javac'))) die('skip needs javac (default-jdk-headless)');
?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('interop-curator');
$file = tempnam(sys_get_temp_dir(), 'dlt-interop');
file_put_contents($file, '0');
/* a PHP holder first: the Java contenders must queue behind it */
$first = new DistributedLock($path, dlt_opts());
$first->acquire();
$java = [];
for ($i = 0; $i < 2; $i++) {
    $java[] = dlt_java('CuratorContender', [dlt_hosts(), $path, $file, 30]);
}
/* both Java contenders queue behind the PHP holder (Curator-named nodes) */
$deadline = microtime(true) + 60;
while (dlt_nodes($path) < 3 && microtime(true) < $deadline);
$q = DistributedLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['token'] === $first->getFencingToken());
var_dump(file_get_contents($file));
$first->release();

$php = [];
for ($i = 0; $i < 4; $i++) {
    $php[] = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
$inside = $argv[2] . ".inside";
for ($n = 0; $n < 30; $n++) {
    $l->acquire();
    if (!@mkdir($inside)) { echo "overlap\n"; }
    $v = (int) file_get_contents($argv[2]);
    usleep(100);
    file_put_contents($argv[2], (string) ($v + 1));
    rmdir($inside);
    $l->release();
}
echo "done\n";
', [$path, $file]);
}
foreach ($java as $k => $c) {
    $l1 = dlt_line($java[$k], 120);
    echo preg_match('/^node \[.*_c_[0-9a-f-]{36}-lock-\d{10}/', $l1) ? "java saw lock nodes\n" : "java: $l1\n";
    echo 'java: ', dlt_line($java[$k], 120), "\n";
    dlt_finish($java[$k]);
}
foreach ($php as $k => $c) {
    echo 'php: ', dlt_line($php[$k], 120), "\n";
    dlt_finish($php[$k]);
}
var_dump((int) file_get_contents($file), dlt_nodes($path));
unlink($file);
?>
--EXPECT--
int(3)
bool(true)
string(1) "0"
java saw lock nodes
java: done
java saw lock nodes
java: done
php: done
php: done
php: done
php: done
int(180)
int(0)
