--TEST--
Options of another backend: a ValueError naming the option and the backend, before any network traffic
--EXTENSIONS--
dlock
--FILE--
<?php
$cases = [
    ['dsn' => 'redis://127.0.0.1:1', 'session_timeout' => 1000],
    ['dsn' => 'postgres://u@127.0.0.1:1/db', 'auth' => 'a:b'],
    ['hosts' => '127.0.0.1:1', 'lease' => 5],
    ['max_hold' => 1, 'dsn' => 'mysql://u@127.0.0.1:1/db'],
    ['wait_replicas' => 1, 'dsn' => 'postgres://u@127.0.0.1:1/db'],
    ['format' => 'symfony'],
    ['password_file' => '/nonexistent/dlock-password'],
    ['hosts' => '127.0.0.1:1', 'dsn' => 'redis://127.0.0.1:1'],
    ['dsn' => 'redis://127.0.0.1:1', 'hosts' => '127.0.0.1:1'],
    ['dsn' => 'redis://127.0.0.1:1', 'lease' => 5, 'max_hold' => 0, 'wait_replicas' => 0,
     'format' => 'redisson', 'connect_timeout' => 1, 'data' => 'x', 'reentrant' => false],
    ['hosts' => '127.0.0.1:1', 'session_timeout' => 1000, 'auth' => 'a:b', 'connect_timeout' => 1],
];
foreach ($cases as $opts) {
    try {
        new DistributedLock('/dlock-tests/opts-scope', $opts);
        echo "accepted\n";
    } catch (TypeError | ValueError $e) {
        echo get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "session_timeout" applies to ZooKeeper only, not to Redis
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "auth" applies to ZooKeeper only, not to PostgreSQL
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "lease" applies to Redis only (on ZooKeeper a hold lasts as long as the session)
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "max_hold" applies to Redis only (on MySQL/MariaDB a hold lasts as long as the session)
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "wait_replicas" applies to Redis only, not to PostgreSQL
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "format" applies to Redis only, not to ZooKeeper
ValueError: DistributedLock::__construct(): Argument #2 ($options) option "password_file" applies to Redis, PostgreSQL and MySQL/MariaDB (ZooKeeper's digest credentials are option "auth")
ValueError: DistributedLock::__construct(): Argument #2 ($options) must not have both options "hosts" and "dsn"
ValueError: DistributedLock::__construct(): Argument #2 ($options) must not have both options "hosts" and "dsn"
accepted
accepted
