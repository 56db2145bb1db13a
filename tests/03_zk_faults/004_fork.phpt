--TEST--
fork(): the child never uses the parent's session nor releases its locks; inherited lock objects report not held
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('faults-fork');
$l = new DistributedLock($path, dlt_opts());
$l->acquire();
$token = $l->getFencingToken();
$out = tempnam(sys_get_temp_dir(), 'dlt-fork');
$pid = pcntl_fork();
if ($pid === 0) {
    $r = [];
    $r[] = 'child isAcquired: ' . var_export($l->isAcquired(), true);
    try {
        $l->release();
        $r[] = 'child release: ok?!';
    } catch (DistributedLockException $e) {
        $r[] = 'child release: ' . get_class($e) . ': ' . $e->getMessage();
    }
    /* a new lock in the child opens the child's own session */
    $mine = new DistributedLock($path, dlt_opts());
    $r[] = 'child tryAcquire: ' . var_export($mine->tryAcquire(), true);
    $r[] = 'child sees ' . count(DistributedLock::participants($path, dlt_opts())) . ' node(s)';
    file_put_contents($out, implode("\n", $r) . "\n");
    exit(0);
}
pcntl_waitpid($pid, $status);
echo file_get_contents($out);
unlink($out);
var_dump(pcntl_wexitstatus($status));
/* the parent still holds, on its untouched session */
var_dump($l->isAcquired(), $l->getFencingToken() === $token, dlt_nodes($path));
$l->checkHeld();
$l->release();
var_dump(dlt_nodes($path));
?>
--EXPECTF--
child isAcquired: false
child release: DistributedLockException: lock /dlock-tests/faults-fork is held by the parent process (before fork()); the child forgot it and leaves it to the parent
child tryAcquire: false
child sees 1 node(s)
int(0)
bool(true)
bool(true)
int(1)
int(0)
