--TEST--
A DSN user or password with %00 or a "%" not followed by two hex digits is a ValueError at construction (before any network traffic), whose message does not echo the secret; valid escapes are still decoded
--EXTENSIONS--
dlock
--FILE--
<?php
/* port 1 on loopback: nothing listens there, and construction must not connect anyway */
$bad = [
    'redis://:S3CRET%00x@127.0.0.1:1',
    'redis://:S3CRET%zz@127.0.0.1:1',
    'redis://:S3CRET%4@127.0.0.1:1',
    'redis://:S3CRET%@127.0.0.1:1',
    'redis://us%00er:S3CRET@127.0.0.1:1',
    'redis-sentinel://:S3CRET%00@127.0.0.1:1/m',
    'postgres://app:S3CRET%00WRONG@127.0.0.1:1/db',
    'postgresql://app:S3CRET%g1@127.0.0.1:1/db',
    'mysql://app%00junk:S3CRET@127.0.0.1:1/db',
    'mariadb://app:S3CRET%0@127.0.0.1:1/db',
];
foreach ($bad as $dsn) {
    try {
        new DistributedLock('x', ['dsn' => $dsn, 'connect_timeout' => 1]);
        echo "accepted: $dsn\n";
    } catch (ValueError $e) {
        echo get_class($e), ': ', str_replace('DistributedLock::__construct(): Argument #2 ($options) option "dsn": ', '', $e->getMessage()), str_contains($e->getMessage(), 'S3CRET') ? ' (ECHOES THE SECRET)' : '', "\n";
    }
}
/* a valid escape (%25 is "%", %40 is "@") is decoded, not refused */
foreach (['redis://:pa%25ss%40@127.0.0.1:1', 'postgres://a%40b:p%2F@127.0.0.1:1/db'] as $dsn) {
    new DistributedLock('x', ['dsn' => $dsn, 'connect_timeout' => 1]);
    echo "constructed\n";
}
?>
--EXPECT--
ValueError: redis DSN password must not contain "%00" (a NUL byte)
ValueError: redis DSN password has a "%" that is not followed by two hex digits (write "%25" for a "%")
ValueError: redis DSN password has a "%" that is not followed by two hex digits (write "%25" for a "%")
ValueError: redis DSN password has a "%" that is not followed by two hex digits (write "%25" for a "%")
ValueError: redis DSN user must not contain "%00" (a NUL byte)
ValueError: redis DSN password must not contain "%00" (a NUL byte)
ValueError: postgres DSN password must not contain "%00" (a NUL byte)
ValueError: postgresql DSN password has a "%" that is not followed by two hex digits (write "%25" for a "%")
ValueError: mysql DSN user must not contain "%00" (a NUL byte)
ValueError: mariadb DSN password has a "%" that is not followed by two hex digits (write "%25" for a "%")
constructed
constructed
