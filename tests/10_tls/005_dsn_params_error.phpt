--TEST--
DSN query strings: the TLS and socket parameters each backend takes are accepted (lock objects made, nothing connected; a mode that leaves the certificate unchecked warns once per process and backend); unknown, repeated, empty or out-of-range parameters, a host next to a socket, a relative socket path and ZooKeeper over TLS are ValueErrors that name the parameter, never its value or the password (rediss:// is 007's: it depends on the build)
--EXTENSIONS--
dlock
--FILE--
<?php
$ok = [
    'postgres://u:pw@db1:5432/shop?sslmode=verify-full&sslrootcert=/etc/ssl/ca.pem',
    'postgresql://u@db1/shop?sslmode=require&sslcert=/c.pem&sslkey=/k.pem&sslcrl=/crl.pem&sslsni=1',
    'postgres://u@db1/shop?ssl_min_protocol_version=TLSv1.2&ssl_max_protocol_version=TLSv1.3&channel_binding=require',
    'postgres://u@db1/shop?SSLMODE=VERIFY-CA&sslrootcert=%2Fpath%20with%20space%2Fca.pem',
    'postgres://u@db1/shop?sslmode=prefer',
    'postgres://u@db1/shop?sslrootcert=/ca.pem',
    'postgres://u@/shop?host=/run/postgresql',
    'postgres://u@:5433/shop?host=/run/postgresql',
    'postgres://u@/shop?host=/run/postgresql&port=5433',
    'mysql://u:pw@db1/shop?ssl-mode=VERIFY_IDENTITY&ssl-ca=/ca.pem',
    'mariadb://u:pw@db1/shop?ssl_mode=required&ssl_cert=/c.pem&ssl_key=/k.pem&ssl-capath=/certs&tls_version=TLSv1.3',
    'mysql://u:pw@/shop?socket=/run/mysqld/mysqld.sock',
    'mysql://u:pw@db1/shop?ssl-mode=PREFERRED',
    'mysql://u:pw@db1/shop?tls-version=TLSv1.3',
    'redis:///run/redis/redis.sock',
    'redis://:pw@/run/redis/redis.sock',
    'redis://user:pw@/run/redis/redis.sock?db=3',
    'unix:///run/redis/redis.sock?db=2',
];
foreach ($ok as $dsn) {
    try {
        new DistributedLock('dlock-tests:t05', ['dsn' => $dsn]);
        echo "ok\n";
    } catch (Throwable $e) {
        echo 'FAILED ', $dsn, ': ', $e->getMessage(), "\n";
    }
}
$bad = [
    'postgres://u:s3cr3t@db1/shop?password=s3cr3t',
    'postgres://u:s3cr3t@db1/shop?sslmode=s3cr3t',
    'postgres://u:s3cr3t@db1/shop?sslmode=require&sslmode=disable',
    'postgres://u:s3cr3t@db1/shop?sslrootcert=',
    'postgres://u:s3cr3t@db1/shop?sslmode',
    'postgres://u:s3cr3t@db1/shop?connect_timeout=3',
    'postgres://u:s3cr3t@db1/shop?host=/run/postgresql',
    'postgres://u:s3cr3t@/shop?host=run/postgresql',
    'postgres://u:s3cr3t@/shop?host=/run/postgresql&port=0',
    'postgres://u:s3cr3t@/shop',
    'postgres://u:s3cr3t@db1/shop?sslrootcert=%0Ax',
    'postgres://u:s3cr3t@db1/shop#frag',
    'mysql://u:s3cr3t@db1/shop?ssl-mode=VERIFY',
    'mysql://u:s3cr3t@db1/shop?sslmode=require',
    'mysql://u:s3cr3t@db1/shop?tls-version=bogus',
    'mysql://u:s3cr3t@db1/shop?socket=/x.sock',
    'redis://:s3cr3t@db1:6379?ssl=1',
    'redis://:s3cr3t@/run/redis.sock?db=x',
    'unix://:s3cr3t@host/x',
    'zookeeper+tls://h1:2281,h2:2281/app',
    'zookeepers://h1:2281',
    'zookeeper://h1:2281/app?secure=true',
    'zk+ssl://h1:2281',
];
foreach ($bad as $dsn) {
    try {
        new DistributedLock('dlock-tests:t05', ['dsn' => $dsn]);
        echo "accepted: $dsn\n";
    } catch (ValueError $e) {
        $m = $e->getMessage();
        echo str_contains($m, 's3cr3t') ? 'LEAK ' : '', substr($m, strlen('DistributedLock::__construct(): Argument #2 ($options) option "dsn": ')), "\n";
    }
}
?>
--EXPECTF--
ok

Warning: DistributedLock::__construct(): postgres DSN sslmode=require: TLS without checking the server's certificate and name, so anyone on the path can pose as the server; use sslmode=verify-full with sslrootcert (docs/security.md; said once per process) in %s on line %d
ok
ok
ok
ok
ok
ok
ok
ok
ok

Warning: DistributedLock::__construct(): mysql DSN ssl-mode=required: TLS without checking the server's certificate and name, so anyone on the path can pose as the server; use ssl-mode=VERIFY_IDENTITY with ssl-ca (docs/security.md; said once per process) in %s on line %d
ok
ok
ok
ok
ok
ok
ok
ok
postgres DSN parameter "password" is not supported (see docs/security.md for the parameters a postgres DSN takes)
postgres DSN parameter "sslmode" must be one of disable|allow|prefer|require|verify-ca|verify-full
postgres DSN parameter "sslmode" is given twice
postgres DSN parameter "sslrootcert" has no value
postgres DSN query must be key=value pairs joined by "&"
postgres DSN parameter "connect_timeout" is not taken from the DSN: use the connect_timeout option
postgres DSN names both a host and a Unix socket ("host" parameter): leave the host out, e.g. postgres://user@/db?host=/run/postgresql
postgres DSN parameter "host" must be given once, as an absolute path (the socket's directory); a host name goes before the "/"
postgres DSN parameter "port" must be a number from 1 to 65535
postgres DSN has no host
postgres DSN parameter "sslrootcert" must not contain control characters
postgres DSN must not have a fragment ("#")
mysql DSN parameter "ssl-mode" must be one of DISABLED|PREFERRED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY
mysql DSN parameter "sslmode" is not supported (see docs/security.md for the parameters a mysql DSN takes)
mysql DSN parameter "tls-version" must be one of TLSv1.2|TLSv1.3|TLSv1.2,TLSv1.3|TLSv1.3,TLSv1.2
mysql DSN names both a host and a Unix socket ("socket" parameter): leave the host out, e.g. mysql://user@/db?socket=/run/mysqld/mysqld.sock
redis DSN must not have a query or fragment ("?", "#")
redis socket DSN takes one parameter, db=N (0 to 1000000): redis:///path/to.sock?db=2
unix DSN must be unix://[[user]:password@]/path/to.sock
ZooKeeper over TLS is not supported (dlock's ZooKeeper client has no TLS): use a private network, or a local TLS proxy (stunnel) to the secureClientPort and a zookeeper:// DSN naming it: docs/security.md
ZooKeeper over TLS is not supported (dlock's ZooKeeper client has no TLS): use a private network, or a local TLS proxy (stunnel) to the secureClientPort and a zookeeper:// DSN naming it: docs/security.md
ZooKeeper over TLS is not supported (dlock's ZooKeeper client has no TLS): use a private network, or a local TLS proxy (stunnel) to the secureClientPort and a zookeeper:// DSN naming it: docs/security.md
ZooKeeper over TLS is not supported (dlock's ZooKeeper client has no TLS): use a private network, or a local TLS proxy (stunnel) to the secureClientPort and a zookeeper:// DSN naming it: docs/security.md
