--TEST--
DSN TLS file parameters (postgres sslrootcert/sslcert/sslkey/sslcrl, mysql ssl-ca/ssl-cert/ssl-key/ssl-crl in either spelling and any case) must name a regular file and the directory ones (sslcrldir, ssl-capath, ssl-crlpath) a directory: a FIFO (the client library's open() blocked for ever during the TLS handshake, past connect_timeout), a directory or a device is a ValueError at construction naming the parameter, never its value (review 20 F4)
--EXTENSIONS--
dlock
posix
--FILE--
<?php
$dir = sys_get_temp_dir() . '/dlock-tlsfile-' . getmypid();
mkdir($dir);
posix_mkfifo("$dir/fifo-SECRETPATH", 0600);
file_put_contents("$dir/ca.pem", "x\n");
$fifo = "$dir/fifo-SECRETPATH";
$cases = [
    "postgres://u:p@127.0.0.1:1/db?sslrootcert=$fifo",
    "postgres://u:p@127.0.0.1:1/db?sslrootcert=$dir/ca.pem&sslcert=$fifo&sslkey=$dir/ca.pem",
    "postgres://u:p@127.0.0.1:1/db?sslrootcert=$dir/ca.pem&sslkey=/dev/zero",
    "postgres://u:p@127.0.0.1:1/db?sslrootcert=$dir/ca.pem&SSLCRL=$dir",
    "postgres://u:p@127.0.0.1:1/db?sslrootcert=$dir/ca.pem&sslcrldir=$fifo",
    "mysql://u:p@127.0.0.1:1/db?ssl-ca=$fifo",
    "mysql://u:p@127.0.0.1:1/db?SSL_CA=$fifo",
    "mysql://u:p@127.0.0.1:1/db?ssl-ca=$dir/ca.pem&ssl_crl=$fifo",
    "mysql://u:p@127.0.0.1:1/db?ssl-ca=$dir/ca.pem&ssl-cert=$dir&ssl-key=$dir/ca.pem",
    "mysql://u:p@127.0.0.1:1/db?ssl-capath=$fifo",
    "mysql://u:p@127.0.0.1:1/db?ssl-ca=$dir/ca.pem&ssl-crlpath=$dir/ca.pem",
];
foreach ($cases as $dsn) {
    $t = microtime(true);
    try {
        new DistributedLock('/x', ['dsn' => $dsn, 'connect_timeout' => 1]);
        echo "accepted\n";
    } catch (ValueError $e) {
        $m = $e->getMessage();
        echo preg_match('~DSN parameter "([a-z-]+)" must name an? (regular file|directory)~', $m, $g) ? "$g[1]: $g[2]" : $m,
            str_contains($m, 'SECRETPATH') || str_contains($m, $dir) ? ' (shows the path)' : '', "\n";
    }
    if (microtime(true) - $t > 2) {
        echo "slow\n";
    }
}
/* a regular file and a directory where they belong are accepted (nothing connects yet) */
new DistributedLock('/x', ['dsn' => "postgres://u:p@127.0.0.1:1/db?sslrootcert=$dir/ca.pem&sslcrldir=$dir", 'connect_timeout' => 1]);
new DistributedLock('/x', ['dsn' => "mysql://u:p@127.0.0.1:1/db?ssl-ca=$dir/ca.pem&ssl-capath=$dir", 'connect_timeout' => 1]);
echo "regular file and directory accepted\n";
unlink($fifo);
unlink("$dir/ca.pem");
rmdir($dir);
?>
--EXPECT--
sslrootcert: regular file
sslcert: regular file
sslkey: regular file
sslcrl: regular file
sslcrldir: directory
ssl-ca: regular file
ssl-ca: regular file
ssl-crl: regular file
ssl-cert: regular file
ssl-capath: directory
ssl-crlpath: directory
regular file and directory accepted
