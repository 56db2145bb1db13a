--TEST--
Revocation: bad input is a ValueError or TypeError before any network traffic; a free lock's request asks nobody; an unheld object is not revoked; the fork child of a revoked holder does not see its parent's revocation
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('revoke-error');
foreach ([
    fn() => DistributedLock::requestRevocation('no-slash', dlt_opts()),
    fn() => DistributedLock::requestRevocation('', dlt_opts()),
    fn() => DistributedLock::requestRevocation($path, ['bogus' => 1] + dlt_opts()),
    fn() => DistributedLock::requestRevocation($path, ['revocable' => 'yes'] + dlt_opts()),
    fn() => DistributedLock::requestRevocation([]),
    fn() => new DistributedLock($path, dlt_opts(['revocable' => 1])),
    fn() => (new DistributedLock($path, dlt_opts()))->onRevocation('no_such_function'),
    fn() => (new DistributedLock($path, dlt_opts()))->onRevocation(),
] as $f) {
    try {
        $f();
        echo "no error\n";
    } catch (Throwable $e) {
        echo get_class($e), "\n";
    }
}
/* a free lock (the path does not even exist): nobody to ask */
var_dump(DistributedLock::requestRevocation($path . '/none', dlt_opts()));
$l = new DistributedLock($path, dlt_opts());
var_dump($l->isRevocationRequested());
$l->onRevocation(function () { echo "listener\n"; });
$l->onRevocation(null); /* removed: revocable still, no listener */
var_dump($l->acquire(10), DistributedLock::requestRevocation($path, dlt_opts()));
/* a request from this very process reaches the hold too (bounded wait) */
$deadline = microtime(true) + 30;
while (!$l->isRevocationRequested() && microtime(true) < $deadline);
var_dump($l->isRevocationRequested());
$pid = pcntl_fork();
if ($pid === 0) {
    /* the child forgot the parent's hold and its revocation */
    echo "child: ", var_export($l->isRevocationRequested(), true), "\n";
    exit(0);
}
pcntl_waitpid($pid, $st);
var_dump($l->isAcquired());
$l->release();
?>
--EXPECT--
ValueError
ValueError
ValueError
TypeError
TypeError
TypeError
TypeError
ArgumentCountError
int(0)
bool(false)
bool(true)
int(1)
bool(true)
child: false
bool(true)
