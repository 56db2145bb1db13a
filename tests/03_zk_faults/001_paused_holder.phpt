--TEST--
Paused holder (SIGSTOP past its session timeout): another process takes the lock; the first learns it lost it, with a lower fencing token
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('faults-paused');
$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["session_timeout" => 1500]));
$l->acquire();
$token = $l->getFencingToken();
echo "held $token\n";
fgets(STDIN);                        /* read after SIGCONT */
try {
    $l->checkHeld();
    echo "checkHeld: still held?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: ", get_class($e), "\n";
}
var_export($l->isAcquired()); echo "\n";
try {
    $l->getFencingToken();
} catch (DistributedLockException $e) {
    echo "token: ", get_class($e), "\n";
}
try {
    $l->release();
    echo "release: ok?!\n";
} catch (DistributedLockLostException $e) {
    echo "release: ", get_class($e), "\n";
}
echo "try again: ", var_export($l->tryAcquire(), true), "\n";   /* a new session, transparently */
fgets(STDIN);
echo "acquire: ", var_export($l->acquire(10), true), " ", $l->getFencingToken() > $token ? "newer token" : "OLD TOKEN", "\n";
$l->release();
', [$path]);
$line = dlt_line($c);
$old = (int) substr($line, 5);
echo preg_match('/^held \d+$/', $line) ? "child holds\n" : "unexpected: $line\n";
dlt_signal($c, 19);                          /* SIGSTOP */
$l = new DistributedLock($path, dlt_opts());
$t = microtime(true);
var_dump($l->acquire(20));
$waited = microtime(true) - $t;
var_dump($waited > 1.0, $l->getFencingToken() > $old);
dlt_signal($c, 18);                          /* SIGCONT */
dlt_send($c, 'check');
for ($i = 0; $i < 5; $i++) {
    echo dlt_line($c), "\n";
}
$l->release();
dlt_send($c, 'go');
echo dlt_line($c), "\n";
var_dump(dlt_finish($c));
?>
--EXPECT--
child holds
bool(true)
bool(true)
bool(true)
checkHeld: DistributedLockLostException
false
token: DistributedLockException
release: DistributedLockLostException
try again: false
acquire: true newer token
int(0)
