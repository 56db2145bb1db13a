--TEST--
TLS (postgres): every lock kind over verified TLS (sslmode=verify-full, the session encrypted in pg_stat_ssl, a client certificate too); TLS parameters without sslmode verify the name, verify-full without sslrootcert uses the system store; a wrong CA, a certificate for another name, an expired certificate, a plain-text server behind sslmode=require/verify-full and a server that never answers the handshake each give DistributedLockConnectionException within connect_timeout, never a lock
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
$b = 'postgres';
$name = dlt_skey('t01-tls', $b);
$port = dlt_sql_own_port($b, 70);
$dsn = dlt_sql_sh($b, 'start-tls', (string) $port);
$dir = dirname(explode("sslrootcert=", $dsn)[1] ?? "");
dlt_check(str_contains($dsn, 'sslmode=verify-full') && is_file("$dir/ca.pem") && is_file("$dir/other-ca.pem"),
    'pg.sh start-tls prints a verify-full DSN and leaves a test CA and a wrong CA', $dsn);

/* verified TLS: the lock works, and the server sees only encrypted dlock sessions */
$l = new DistributedLock($name, ['dsn' => $dsn, 'connect_timeout' => 30]);
dlt_check($l->tryAcquire() && $l->getFencingToken() > 0, 'tryAcquire over verify-full TLS: held, with a token');
$pdo = new PDO("pgsql:host=127.0.0.1;port=$port;dbname=dlock;sslmode=require", 'dlock', 'dlock', [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$rows = $pdo->query("SELECT s.ssl, s.version FROM pg_stat_ssl s JOIN pg_stat_activity a USING (pid) WHERE a.application_name = 'dlock'")->fetchAll(PDO::FETCH_ASSOC);
dlt_check($rows !== [] && array_filter($rows, fn($r) => $r['ssl'] !== true) === [] && str_starts_with($rows[0]['version'], 'TLSv1.'),
    "every dlock session on the server is TLS (pg_stat_ssl)", $rows);
$c = dlt_sspawn('$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 30]); echo $l->tryAcquire() ? "free" : "held", "\n";', [$name, $dsn]);
dlt_check(dlt_line($c) === 'held', 'another process over TLS finds it held');
$l->release();
$cert = "$dsn&sslcert=$dir/client.pem&sslkey=$dir/client.key";
$m = new DistributedLock($name, ['dsn' => $cert, 'connect_timeout' => 30]);
dlt_check($m->tryAcquire(), 'with a client certificate (sslcert, sslkey): held after the release');
$m->release();

/* every lock kind over TLS */
$o = ['dsn' => $dsn, 'connect_timeout' => 30];
$rw = new DistributedReadWriteLock("$name-rw", $o);
dlt_check($rw->readLock()->tryAcquire(), 'read-write lock over TLS: a read lock held');
$c = dlt_sspawn('$o = ["dsn" => $argv[2], "connect_timeout" => 30];
$w = new DistributedReadWriteLock($argv[1], $o); echo $w->writeLock()->tryAcquire() ? "w" : "-";
$r = new DistributedReadWriteLock($argv[1], $o); echo $r->readLock()->tryAcquire() ? "r" : "-", "\n";', ["$name-rw", $dsn]);
dlt_check(dlt_line($c) === '-r', 'another process over TLS: the write lock refused, a second read lock held');
$rw->readLock()->release();
$sem = [new DistributedSemaphore("$name-sem", 2, $o), new DistributedSemaphore("$name-sem", 2, $o), new DistributedSemaphore("$name-sem", 2, $o)];
dlt_check($sem[0]->tryAcquire() && $sem[1]->tryAcquire() && !$sem[2]->tryAcquire(), 'semaphore of 2 over TLS: two leases, the third refused');
$sem[0]->release();
$sem[1]->release();
$multi = new DistributedMultiLock([new DistributedLock("$name-m1", $o), new DistributedLock("$name-m2", $o)]);
dlt_check($multi->tryAcquire() && count(DistributedLock::participants("$name-m1", $o)) === 1, 'multi-lock over TLS held, participants() over TLS sees its holder');
$multi->release();

/* failures: each a connection exception within connect_timeout, never held */
$silent = stream_socket_server('tcp://127.0.0.1:0');
$silentPort = (int) substr(strrchr(stream_socket_get_name($silent, false), ':'), 1);
$plain = dlt_sql_parse(dlt_sql_dsn($b));
$bad = [
    'a CA that did not sign the certificate' => [str_replace('/ca.pem', '/other-ca.pem', $dsn), 'certificate verify failed'],
    'a certificate for another name (127.0.0.1, certificate for localhost)' => [str_replace('@localhost:', '@127.0.0.1:', $dsn), 'does not match host name'],
    'TLS parameters without sslmode (sslrootcert alone): verify-full, so a wrong name is refused' => ["postgres://dlock:dlock@127.0.0.1:$port/dlock?sslrootcert=$dir/ca.pem", 'does not match host name'],
    'sslmode=verify-full without sslrootcert: the system store, which does not know the test CA' => ["postgres://dlock:dlock@localhost:$port/dlock?sslmode=verify-full", 'certificate verify failed'],
    'a plain-text server behind sslmode=require (warns: no certificate check)' => ["postgres://dlock:dlock@127.0.0.1:$plain[1]/dlock?sslmode=require", 'does not support SSL'],
    'a plain-text server behind sslmode=verify-full' => ["postgres://dlock:dlock@localhost:$plain[1]/dlock?sslmode=verify-full&sslrootcert=$dir/ca.pem", 'does not support SSL'],
    'the TLS-only server behind sslmode=disable (the server refuses clear text)' => ["postgres://dlock:dlock@127.0.0.1:$port/dlock?sslmode=disable", 'no encryption'],
    'a server that never answers the TLS handshake' => ["postgres://dlock:dlock@localhost:$silentPort/dlock?sslmode=verify-full&sslrootcert=$dir/ca.pem", 'connect_timeout'],
];
foreach ($bad as $what => [$d, $why]) {
    /* a refusal comes with its reason, not as a timeout (a generous bound: valgrind slows
     * the handshake down); the silent server is bounded by connect_timeout */
    $ct = str_contains($what, 'never answers') ? 2 : 20;
    $x = new DistributedLock($name, ['dsn' => $d, 'connect_timeout' => $ct]);
    [$cls, $dt] = dlt_throws(fn() => $x->acquire(10), $msg);
    dlt_check($cls === 'DistributedLockConnectionException' && str_contains($msg, $why) && $dt < $ct + 1.5 && !$x->isAcquired(),
        "$what: DistributedLockConnectionException ($why) within connect_timeout", [$cls, $msg, $dt]);
}
fclose($silent);

/* an expired certificate: the server reloads its files (SIGHUP re-reads them since PostgreSQL 10) */
$su = new PDO("pgsql:host=$dir;port=$port;dbname=postgres", 'postgres', null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
$swap = function (string $from) use ($dir, $su, $port) {
    copy("$dir/$from.pem", "$dir/server.pem");
    copy("$dir/$from.key", "$dir/server.key");
    $su->query('SELECT pg_reload_conf()');
    /* the postmaster reloads when it gets to the signal: wait until a verified login sees it */
    for ($end = microtime(true) + 10; microtime(true) < $end; usleep(20000)) {
        try {
            new PDO("pgsql:host=localhost;port=$port;dbname=dlock;sslmode=verify-full;sslrootcert=$dir/ca.pem", 'dlock', 'dlock');
            $ok = true;
        } catch (PDOException $e) {
            $ok = false;
        }
        if ($ok === ($from === 'good')) {
            return;
        }
    }
    echo "the server did not take $from.pem within 10 s\n";
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
dlt_check($cls === 'DistributedLockConnectionException' && str_contains($got, 'certificate verify failed') && (float) $dt < 21.5,
    'an expired certificate: DistributedLockConnectionException (certificate verify failed: libpq gives no detail) within connect_timeout', $got);
$swap('good');
$c = dlt_sspawn($try, [$name, $dsn]);
dlt_check(dlt_line($c) === 'held', 'the good certificate back: a new process holds it');
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('postgres', 70);
$n = dlt_skey('t01-tls', 'postgres');
dlt_sql_clean($n, "$n-rw", "$n-sem", "$n-m1", "$n-m2");
?>
--EXPECTF--
pg.sh start-tls prints a verify-full DSN and leaves a test CA and a wrong CA
tryAcquire over verify-full TLS: held, with a token
every dlock session on the server is TLS (pg_stat_ssl)
another process over TLS finds it held
with a client certificate (sslcert, sslkey): held after the release
read-write lock over TLS: a read lock held
another process over TLS: the write lock refused, a second read lock held
semaphore of 2 over TLS: two leases, the third refused
multi-lock over TLS held, participants() over TLS sees its holder
a CA that did not sign the certificate: DistributedLockConnectionException (certificate verify failed) within connect_timeout
a certificate for another name (127.0.0.1, certificate for localhost): DistributedLockConnectionException (does not match host name) within connect_timeout
TLS parameters without sslmode (sslrootcert alone): verify-full, so a wrong name is refused: DistributedLockConnectionException (does not match host name) within connect_timeout
sslmode=verify-full without sslrootcert: the system store, which does not know the test CA: DistributedLockConnectionException (certificate verify failed) within connect_timeout

Warning: DistributedLock::__construct(): postgres DSN sslmode=require: TLS without checking the server's certificate and name, so anyone on the path can pose as the server; use sslmode=verify-full with sslrootcert (docs/security.md; said once per process) in %s on line %d
a plain-text server behind sslmode=require (warns: no certificate check): DistributedLockConnectionException (does not support SSL) within connect_timeout
a plain-text server behind sslmode=verify-full: DistributedLockConnectionException (does not support SSL) within connect_timeout
the TLS-only server behind sslmode=disable (the server refuses clear text): DistributedLockConnectionException (no encryption) within connect_timeout
a server that never answers the TLS handshake: DistributedLockConnectionException (connect_timeout) within connect_timeout
an expired certificate: DistributedLockConnectionException (certificate verify failed: libpq gives no detail) within connect_timeout
the good certificate back: a new process holds it
