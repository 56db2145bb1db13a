--TEST--
A DSN that names a CA, CRL or client certificate and turns TLS off (postgres sslmode=disable, mysql ssl-mode=DISABLED; keys and values in any case, "_" or "-") is a ValueError at construction naming both parameters: it connected in clear text without a word (review 20 F5); either alone is accepted
--EXTENSIONS--
dlock
--FILE--
<?php
$ca = __FILE__; /* any regular file: nothing connects */
$refused = [
    "postgres://u:p@127.0.0.1:1/db?sslmode=disable&sslrootcert=$ca",
    "postgres://u:p@127.0.0.1:1/db?sslrootcert=$ca&SSLMODE=Disable",
    "postgres://u:p@127.0.0.1:1/db?sslmode=disable&sslcert=$ca&sslkey=$ca",
    "mysql://u:p@127.0.0.1:1/db?ssl-mode=DISABLED&ssl-ca=$ca",
    "mysql://u:p@127.0.0.1:1/db?SSL_MODE=disabled&ssl_ca=$ca",
    "mysql://u:p@127.0.0.1:1/db?ssl-crl=$ca&ssl-mode=Disabled",
];
foreach ($refused as $dsn) {
    try {
        new DistributedLock('/x', ['dsn' => $dsn]);
        echo "accepted\n";
    } catch (ValueError $e) {
        echo preg_match('~both asks for TLS \(parameter "([a-z-]+)"\) and turns it off \("([a-z-]+)"\)~', $e->getMessage(), $m)
            ? "refused: $m[1] with $m[2]" : $e->getMessage(), str_contains($e->getMessage(), ':p@') ? ' (shows the password)' : '', "\n";
    }
}
foreach (["postgres://u:p@127.0.0.1:1/db?sslmode=disable", "mysql://u:p@127.0.0.1:1/db?ssl-mode=DISABLED",
          "postgres://u:p@127.0.0.1:1/db?sslrootcert=$ca", "mysql://u:p@127.0.0.1:1/db?ssl-ca=$ca"] as $dsn) {
    new DistributedLock('/x', ['dsn' => $dsn]);
}
echo "either alone accepted\n";
?>
--EXPECT--
refused: sslrootcert with sslmode
refused: sslrootcert with sslmode
refused: sslkey with sslmode
refused: ssl-ca with ssl-mode
refused: ssl-ca with ssl-mode
refused: ssl-crl with ssl-mode
either alone accepted
