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
$jars = ['curator-client', 'curator-framework', 'curator-recipes', 'zookeeper', 'zookeeper-jute',
         'guava', 'slf4j-api', 'slf4j-nop', 'netty-handler', 'netty-common', 'netty-transport',
         'netty-buffer', 'netty-resolver', 'netty-codec', 'netty-transport-native-epoll',
         'netty-transport-native-unix-common'];
$cp = implode(':', array_map(fn($j) => "/usr/share/java/$j.jar", $jars));
$classes = sys_get_temp_dir() . '/dlt-curator-' . getmypid();
@mkdir($classes);
exec('javac -d ' . escapeshellarg($classes) . ' -cp ' . escapeshellarg($cp) . ' '
    . escapeshellarg(__DIR__ . '/../interop/CuratorContender.java') . ' 2>&1', $out, $rc);
echo $rc === 0 ? "compiled\n" : "javac failed: " . implode("\n", $out) . "\n";

$file = tempnam(sys_get_temp_dir(), 'dlt-interop');
file_put_contents($file, '0');
/* a PHP holder first: the Java contenders must queue behind it */
$first = new DistributedLock($path, dlt_opts());
$first->acquire();
$java = [];
for ($i = 0; $i < 2; $i++) {
    $cmd = 'exec java -cp ' . escapeshellarg("$classes:$cp") . ' CuratorContender '
        . escapeshellarg(dlt_hosts()) . ' ' . escapeshellarg($path) . ' ' . escapeshellarg($file) . ' 30';
    $p = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes);
    stream_set_blocking($pipes[1], false);
    stream_set_blocking($pipes[2], false);
    $java[] = ['proc' => $p, 'in' => $pipes[0], 'out' => $pipes[1], 'err' => $pipes[2], 'file' => '',
               'buf' => '', 'errbuf' => ''];
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
exec('rm -rf ' . escapeshellarg($classes));
?>
--EXPECT--
compiled
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
