--TEST--
acquire(): negative, NaN, infinite or absurd timeouts are a ValueError (checked before any I/O)
--EXTENSIONS--
dlock
--FILE--
<?php
$l = new DistributedLock('/dlock-tests/timeouts', ['hosts' => '127.0.0.1:1']);
foreach ([-1, -0.001, NAN, INF, -INF, 1e12] as $t) {
    try {
        $l->acquire($t);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    $l->acquire('soon');
} catch (TypeError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
DistributedLock::acquire(): Argument #1 ($timeout) must be between 0 and 31536000 seconds, or null
DistributedLock::acquire(): Argument #1 ($timeout) must be between 0 and 31536000 seconds, or null
DistributedLock::acquire(): Argument #1 ($timeout) must be a finite number of seconds or null
DistributedLock::acquire(): Argument #1 ($timeout) must be a finite number of seconds or null
DistributedLock::acquire(): Argument #1 ($timeout) must be a finite number of seconds or null
DistributedLock::acquire(): Argument #1 ($timeout) must be between 0 and 31536000 seconds, or null
DistributedLock::acquire(): Argument #1 ($timeout) must be of type ?float, string given
