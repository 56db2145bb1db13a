--TEST--
Invalid options: TypeError for wrong types, ValueError for bad values and unknown keys
--EXTENSIONS--
dlock
--FILE--
<?php
$cases = [
    ['nope' => 1],
    [0 => 'x'],
    ['hosts' => 2181],
    ['hosts' => ''],
    ['hosts' => 'localhost'],
    ['hosts' => 'a:1,'],
    ['hosts' => 'a:99999'],
    ['hosts' => "a:1\0"],
    ['hosts' => 'a:1/chroot/'],
    ['session_timeout' => '1000'],
    ['session_timeout' => 1.5],
    ['session_timeout' => 10],
    ['session_timeout' => PHP_INT_MAX],
    ['connect_timeout' => 'soon'],
    ['connect_timeout' => NAN],
    ['connect_timeout' => INF],
    ['connect_timeout' => -1],
    ['connect_timeout' => 0],
    ['data' => 42],
    ['data' => str_repeat('x', 2 * 1024 * 1024)],
];
foreach ($cases as $opts) {
    try {
        new DistributedLock('/dlock-tests/opts', $opts);
        echo "accepted\n";
    } catch (TypeError | ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
ValueError: DistributedLock::__construct(): Argument #2 ($options) contains unknown option "nope" (known: dsn, hosts, session_timeout, connect_timeout, lease, max_hold, wait_replicas, format, data, auth, password_file, reentrant, revocable)
ValueError: DistributedLock::__construct(): Argument #2 ($options) must be an array with string keys (option names)
TypeError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" must be of type string, int given
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" must not be empty
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" must be "host:port[,host:port...][/chroot]"; server 1 is malformed
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" has a trailing ","
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" server 1 has no valid port (1-65535)
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" must not contain NUL bytes
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "hosts" chroot must not end with "/"
TypeError: DistributedLock::__construct(): Argument #2 ($options) option "session_timeout" must be of type int, string given
TypeError: DistributedLock::__construct(): Argument #2 ($options) option "session_timeout" must be of type int, float given
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "session_timeout" must be between 100 and 3600000 (milliseconds)
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "session_timeout" must be between 100 and 3600000 (milliseconds)
TypeError: DistributedLock::__construct(): Argument #2 ($options) option "connect_timeout" must be of type int|float, string given
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "connect_timeout" must be a finite number of seconds greater than 0 and at most 3600
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "connect_timeout" must be a finite number of seconds greater than 0 and at most 3600
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "connect_timeout" must be a finite number of seconds greater than 0 and at most 3600
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "connect_timeout" must be a finite number of seconds greater than 0 and at most 3600
TypeError: DistributedLock::__construct(): Argument #2 ($options) option "data" must be of type string, int given
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "data" must be at most 1000000 bytes, 2097152 given
