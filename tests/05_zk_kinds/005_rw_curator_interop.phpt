--TEST--
Interop: Curator InterProcessReadWriteLock (Java) and DistributedReadWriteLock (PHP) share one lock
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
$path = dlt_path('interop-curator-rw');
$java = dlt_java('CuratorRw', [dlt_hosts(), $path]);
echo dlt_line($java, 60), "\n";
$rw = new DistributedReadWriteLock($path, dlt_opts());

dlt_send($java, 'write');                     /* Java writer holds */
echo dlt_line($java), "\n";
var_dump($rw->readLock()->tryAcquire(), $rw->writeLock()->tryAcquire());
dlt_send($java, 'release');
echo dlt_line($java), "\n";
var_dump($rw->readLock()->acquire(5));        /* PHP reader ... */
dlt_send($java, 'read');                      /* ... shares with a Java reader */
echo dlt_line($java), "\n";
var_dump(count(DistributedReadWriteLock::participants($path, dlt_opts())));
dlt_send($java, 'release');
echo dlt_line($java), "\n";
$rw->readLock()->release();
var_dump($rw->writeLock()->acquire(5));       /* PHP writer excludes Java */
dlt_send($java, 'read');
echo dlt_line($java), "\n";
dlt_send($java, 'write');
echo dlt_line($java), "\n";
$rw->writeLock()->release();
dlt_send($java, 'quit');
var_dump(dlt_finish($java));
?>
--EXPECT--
ready
write: got
bool(false)
bool(false)
released
bool(true)
read: got
int(2)
released
bool(true)
read: busy
write: busy
int(0)
