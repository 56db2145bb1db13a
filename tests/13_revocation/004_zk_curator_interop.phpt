--TEST--
Revocation interop (ZooKeeper): Curator's Revoker.attemptRevoke() reaches a revocable DistributedLock holder, and DistributedLock::requestRevocation() reaches a revocable Curator InterProcessMutex (Java)
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
$path = dlt_path('revoke-curator');

echo "-- Curator revokes a dlock holder\n";
$l = new DistributedLock($path, dlt_opts());
$l->onRevocation(function (DistributedLock $lock) {
    echo "listener: releasing\n";
    $lock->release();
});
var_dump($l->acquire(10));
$java = dlt_java('CuratorRevoke', ['revoke', dlt_hosts(), $path]);
/* busy in PHP (no dlock call) until the listener released, bounded */
$deadline = microtime(true) + 60;
while ($l->isAcquired() && microtime(true) < $deadline) {
    $x = str_repeat('x', 10);
}
var_dump($l->isAcquired());
echo 'java: ', dlt_line($java, 60), "\n";
echo 'java: ', dlt_line($java, 60), "\n";
echo 'java: ', dlt_line($java, 60), "\n";
dlt_finish($java);

echo "-- dlock revokes a Curator holder\n";
$java = dlt_java('CuratorRevoke', ['hold', dlt_hosts(), $path]);
echo 'java: ', dlt_line($java, 60), "\n";
$q = DistributedLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['holder']);
var_dump(DistributedLock::requestRevocation($path, dlt_opts()));
echo 'java: ', dlt_line($java, 60), "\n";
echo 'java: ', dlt_line($java, 60), "\n";
dlt_finish($java);
var_dump($l->acquire(10));
$l->release();
?>
--EXPECT--
-- Curator revokes a dlock holder
bool(true)
listener: releasing
bool(false)
java: revoked
java: acquired
java: done
-- dlock revokes a Curator holder
java: held
int(1)
bool(true)
int(1)
java: revocation requested
java: released
bool(true)
