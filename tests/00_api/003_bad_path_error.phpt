--TEST--
Invalid lock paths are a ValueError naming the problem
--EXTENSIONS--
dlock
--FILE--
<?php
$bad = ['', 'locks/a', '/', '/a/', '//a', '/a//b', '/a/./b', '/a/..', "/a\0b", '/zookeeper',
        '/zookeeper/quota', "/a\x01", "/\xff\xfe", '/' . str_repeat('x', 100000)];
foreach ($bad as $p) {
    try {
        new DistributedLock($p);
        echo "accepted ", json_encode($p), "\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
try {
    DistributedLock::participants('/a/');
} catch (ValueError $e) {
    echo $e->getMessage(), "\n";
}
?>
--EXPECT--
DistributedLock::__construct(): Argument #1 ($path) must not be empty
DistributedLock::__construct(): Argument #1 ($path) must be absolute (start with "/")
DistributedLock::__construct(): Argument #1 ($path) must name a node below "/"
DistributedLock::__construct(): Argument #1 ($path) must not end with "/"
DistributedLock::__construct(): Argument #1 ($path) must not contain empty segments ("//")
DistributedLock::__construct(): Argument #1 ($path) must not contain empty segments ("//")
DistributedLock::__construct(): Argument #1 ($path) must not contain "." or ".." segments
DistributedLock::__construct(): Argument #1 ($path) must not contain "." or ".." segments
DistributedLock::__construct(): Argument #1 ($path) must not contain NUL bytes
DistributedLock::__construct(): Argument #1 ($path) must not be under /zookeeper (reserved)
DistributedLock::__construct(): Argument #1 ($path) must not be under /zookeeper (reserved)
DistributedLock::__construct(): Argument #1 ($path) must not contain control or reserved characters (U+0001)
DistributedLock::__construct(): Argument #1 ($path) must be valid UTF-8
DistributedLock::__construct(): Argument #1 ($path) must be at most 1024 bytes long, 100001 given
DistributedLock::participants(): Argument #1 ($path) must not end with "/"
