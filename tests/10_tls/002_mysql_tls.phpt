--TEST--
TLS (mysql): a lock over verified TLS (ssl-mode=VERIFY_IDENTITY, ssl-ca; a client certificate too) on a TLS-only MariaDB; a wrong CA, a certificate for another name, an expired certificate, TLS named by tls-version alone (verified against the system store), a plain-text server behind ssl-mode=REQUIRED (Connector/C alone would go on in clear text) or behind ssl-ca, and a server that never answers each give DistributedLockConnectionException within connect_timeout, never a lock
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$b = 'mysql';
$name = dlt_skey('t02-tls', $b);
$port = dlt_sql_own_port($b, 71);
$dsn = dlt_sql_sh($b, 'start-tls', (string) $port);
$dir = dirname(explode('ssl-ca=', $dsn)[1] ?? '');
dlt_check(str_contains($dsn, 'ssl-mode=VERIFY_IDENTITY') && is_file("$dir/ca.pem") && is_file("$dir/other-ca.pem"),
    'mysql.sh start-tls prints a VERIFY_IDENTITY DSN and leaves a test CA and a wrong CA', $dsn);
$root = new PDO("mysql:host=127.0.0.1;port=$port", 'root', '', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION,
    dlt_pdo_mysql_attr('SSL_CA') => "$dir/ca.pem", dlt_pdo_mysql_attr('SSL_VERIFY_SERVER_CERT') => false]);
$tlsAccepts = fn() => (int) $root->query("SHOW GLOBAL STATUS LIKE 'Ssl_finished_accepts'")->fetch(PDO::FETCH_NUM)[1];
dlt_check($root->query("SELECT @@require_secure_transport")->fetchColumn() == 1, 'the server refuses TCP sessions without TLS (require_secure_transport)');

/* verified TLS: the lock works */
$before = $tlsAccepts();
$l = new DistributedLock($name, ['dsn' => $dsn, 'connect_timeout' => 30]);
dlt_check($l->tryAcquire() && $l->getFencingToken() > 0, 'tryAcquire over VERIFY_IDENTITY TLS: held, with a token');
dlt_check($tlsAccepts() > $before, 'the server counted a new TLS session (Ssl_finished_accepts)', [$before, $tlsAccepts()]);
$c = dlt_sspawn('$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 30]); echo $l->tryAcquire() ? "free" : "held", "\n";', [$name, $dsn]);
dlt_check(dlt_line($c) === 'held', 'another process over TLS finds it held');
$l->release();
$m = new DistributedLock($name, ['dsn' => "$dsn&ssl_cert=$dir/client.pem&ssl_key=$dir/client.key", 'connect_timeout' => 30]);
dlt_check($m->tryAcquire(), 'with a client certificate (ssl_cert, ssl_key: "_" spelling): held after the release');
$m->release();

/* failures: each a connection exception within connect_timeout, never held */
$silent = stream_socket_server('tcp://127.0.0.1:0');
$silentPort = (int) substr(strrchr(stream_socket_get_name($silent, false), ':'), 1);
$plain = dlt_sql_parse(dlt_sql_dsn($b))[1];
/* Connector/C 3.4+ against MariaDB 11.4+ ("zero-configuration TLS"): a certificate whose chain or
 * name does not check is still taken when the server proves, after the login, that it knows the
 * password's hash; and a server started without TLS settings has a self-signed certificate of its
 * own, so there is no plain-text server to test against */
preg_match('/Connector\/C (\d+)\.(\d+)/', (function () { ob_start(); phpinfo(INFO_MODULES); return ob_get_clean(); })(), $lib);
$serverVersion = $root->query('SELECT VERSION()')->fetchColumn();
$zeroConf = isset($lib[1]) && [(int) $lib[1], (int) $lib[2]] >= [3, 4] && version_compare($serverVersion, '11.4', '>=');
$plainPdo = new PDO("mysql:host=127.0.0.1;port=$plain", 'dlock', 'dlock', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$plainHasTls = $plainPdo->query("SHOW GLOBAL VARIABLES LIKE 'have_ssl'")->fetch(PDO::FETCH_NUM)[1] === 'YES';
$bad = [
    'a CA that did not sign the certificate' => [str_replace('/ca.pem', '/other-ca.pem', $dsn), 'certificate'],
    'a CA that did not sign the certificate, ssl-mode=REQUIRED (warns: no name check)' => ["mysql://dlock:dlock@localhost:$port/dlock?ssl-mode=REQUIRED&ssl-ca=$dir/other-ca.pem", 'certificate'],
    'tls-version alone: VERIFY_IDENTITY against the system store, which does not know the test CA' => ["mysql://dlock:dlock@localhost:$port/dlock?tls-version=TLSv1.2,TLSv1.3", $zeroConf ? null : 'certificate'],
    'a certificate for another name (127.0.0.1, certificate for localhost)' => [str_replace('@localhost:', '@127.0.0.1:', $dsn), $zeroConf ? null : 'Validation of SSL server certificate failed'],
    'a plain-text server behind ssl-mode=REQUIRED' => ["mysql://dlock:dlock@127.0.0.1:$plain/dlock?ssl-mode=REQUIRED", $plainHasTls ? null : 'does not offer TLS'],
    'a plain-text server behind ssl-ca (VERIFY_IDENTITY)' => ["mysql://dlock:dlock@localhost:$plain/dlock?ssl-ca=$dir/ca.pem", $plainHasTls ? 'self-signed certificate' : 'server does not support it'],
    'a server that never answers' => ["mysql://dlock:dlock@localhost:$silentPort/dlock?ssl-ca=$dir/ca.pem", 'no answer in'],
];
foreach ($bad as $what => [$d, $why]) {
    /* a refusal comes with its reason, not as a timeout (a generous bound: valgrind slows
     * the handshake down); the silent server is bounded by connect_timeout */
    $ct = str_contains($what, 'never answers') ? 2 : 20;
    $x = new DistributedLock($name, ['dsn' => $d, 'connect_timeout' => $ct]);
    [$cls, $dt] = dlt_throws(fn() => $x->acquire(10), $msg);
    if ($why === null) {
        /* zero-configuration TLS or a server with TLS of its own (above): held, over TLS */
        dlt_check($cls === 'none' && $x->isAcquired(), "$what: " . ($zeroConf ? 'taken on the password proof (Connector/C 3.4+, MariaDB 11.4+)' : 'the server has TLS after all'), [$cls, $msg]);
        $x->release();
        continue;
    }
    dlt_check($cls === 'DistributedLockConnectionException' && str_contains($msg, $why) && $dt < $ct + 1.5 && !$x->isAcquired(),
        "$what: DistributedLockConnectionException within connect_timeout", [$cls, $msg, $dt, $why]);
}
$x = new DistributedLock($name, ['dsn' => "mysql://dlock:dlock@127.0.0.1:$port/dlock?ssl-mode=DISABLED", 'connect_timeout' => 2]);
[$cls, $dt] = dlt_throws(fn() => $x->acquire(10), $msg);
dlt_check(str_starts_with($cls, 'DistributedLock') && $dt < 3.5 && !$x->isAcquired(), 'ssl-mode=DISABLED against the TLS-only server: refused by the server, never held', [$cls, $msg]);
fclose($silent);

/* an expired certificate: MariaDB re-reads its files on FLUSH SSL */
$swap = function (string $from) use ($dir, $root, $port) {
    copy("$dir/$from.pem", "$dir/server.pem");
    copy("$dir/$from.key", "$dir/server.key");
    $root->query('FLUSH SSL');
};
copy("$dir/server.pem", "$dir/good.pem");
copy("$dir/server.key", "$dir/good.key");
$swap('expired');
/* a new process: this one's sessions were made before the swap and are kept */
$try = 'try { $x = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 20]); $t = microtime(true);
$x->acquire(10); echo "held\n"; } catch (Throwable $e) { printf("%s %.2f %s\n", get_class($e), microtime(true) - $t, strtr($e->getMessage(), "\n", " ")); }';
$c = dlt_sspawn($try, [$name, $dsn]);
$got = dlt_line($c);
[$cls, $dt] = explode(' ', $got) + ['', ''];
dlt_check($cls === 'DistributedLockConnectionException' && str_contains($got, 'certificate') && (float) $dt < 21.5,
    'an expired certificate: DistributedLockConnectionException within connect_timeout', $got);
$swap('good');
$c = dlt_sspawn($try, [$name, $dsn]);
dlt_check(dlt_line($c) === 'held', 'the good certificate back: a new process holds it');
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('mysql', 71);
dlt_sql_clean(dlt_skey('t02-tls', 'mysql'));
?>
--EXPECTF--
mysql.sh start-tls prints a VERIFY_IDENTITY DSN and leaves a test CA and a wrong CA
the server refuses TCP sessions without TLS (require_secure_transport)
tryAcquire over VERIFY_IDENTITY TLS: held, with a token
the server counted a new TLS session (Ssl_finished_accepts)
another process over TLS finds it held
with a client certificate (ssl_cert, ssl_key: "_" spelling): held after the release
a CA that did not sign the certificate: DistributedLockConnectionException within connect_timeout

Warning: DistributedLock::__construct(): mysql DSN ssl-mode=REQUIRED: TLS without checking the server's certificate and name, so anyone on the path can pose as the server; use ssl-mode=VERIFY_IDENTITY with ssl-ca (docs/security.md; said once per process) in %s on line %d
a CA that did not sign the certificate, ssl-mode=REQUIRED (warns: no name check): DistributedLockConnectionException within connect_timeout
tls-version alone: VERIFY_IDENTITY against the system store, which does not know the test CA: %s
a certificate for another name (127.0.0.1, certificate for localhost): %s
a plain-text server behind ssl-mode=REQUIRED: %s
a plain-text server behind ssl-ca (VERIFY_IDENTITY): DistributedLockConnectionException within connect_timeout
a server that never answers: DistributedLockConnectionException within connect_timeout
ssl-mode=DISABLED against the TLS-only server: refused by the server, never held
an expired certificate: DistributedLockConnectionException within connect_timeout
the good certificate back: a new process holds it
