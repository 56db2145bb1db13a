--TEST--
Semaphore: maxLeases below 1 is a ValueError; each object holds at most one lease; getMaxLeases()
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
foreach ([0, -1, PHP_INT_MIN, PHP_INT_MAX] as $n) {
    try {
        new DistributedSemaphore('/dlock-tests/kinds-sem-error', $n);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    DistributedSemaphore::participants('/dlock-tests/kinds-sem-error', 0);
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
$s = new DistributedSemaphore(dlt_path('kinds-sem-one'), 2, dlt_opts());
var_dump($s->getMaxLeases(), $s->acquire(), $s->acquire(), count(DistributedSemaphore::participants(dlt_path('kinds-sem-one'), 2, dlt_opts())));
$s->release();
$s->release();
var_dump($s->isAcquired());
?>
--EXPECT--
DistributedSemaphore::__construct(): Argument #2 ($maxLeases) must be between 1 and 2147483647
DistributedSemaphore::__construct(): Argument #2 ($maxLeases) must be between 1 and 2147483647
DistributedSemaphore::__construct(): Argument #2 ($maxLeases) must be between 1 and 2147483647
DistributedSemaphore::__construct(): Argument #2 ($maxLeases) must be between 1 and 2147483647
DistributedSemaphore::participants(): Argument #2 ($maxLeases) must be between 1 and 2147483647
int(2)
bool(true)
bool(true)
int(1)
bool(false)
