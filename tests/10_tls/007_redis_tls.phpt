--TEST--
TLS (redis): phpinfo() says whether this build has rediss:// and names the hiredis version, and rediss:// does what it says. Without hiredis_ssl: a ValueError naming that version. With it: every lock kind over verified TLS on a TLS-only Redis (a waiter woken, the lease renewed, a client certificate, SNI for an address), and a wrong CA, a wrong name, an expired certificate, a plain-text Redis and a server that never answers each a DistributedLockConnectionException within connect_timeout, never a lock
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
require_once __DIR__ . '/../inc/sql.inc'; /* dlt_check, dlt_throws */

ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
preg_match('/^TLS in this build => (.*)$/m', $info, $m);
$row = $m[1] ?? '';
$tls = str_contains($row, 'Redis: yes (rediss://');
preg_match('/hiredis (\d+)\.(\d+)\.(\d+)/', $row, $v);
$version = isset($v[0]) ? $v[0] : '';
/* a CI leg that must have TLS says so: a build that lost it must not pass the other branch */
$want = getenv('DLOCK_TEST_EXPECT_REDIS_TLS');

ob_start();
dlt_check($version !== '' && ($tls ? (int) $v[1] >= 1 : str_contains($row, "Redis: no ($version without hiredis_ssl)")),
    'phpinfo() says whether rediss:// works and names the hiredis version', $row);
dlt_check($want === false || $want === '' || (bool) (int) $want === $tls,
    'DLOCK_TEST_EXPECT_REDIS_TLS (when set) agrees with phpinfo()', [$want, $row]);
if (!$tls) {
    foreach (['rediss://127.0.0.1:6380', 'rediss://:pw@127.0.0.1:6380/2?cacert=/ca.pem', 'REDISS://h:1?verify=off'] as $dsn) {
        [$cls] = dlt_throws(fn() => new DistributedLock('dlock-tests:t07', ['dsn' => $dsn]), $msg);
        dlt_check($cls === 'ValueError' && str_contains($msg, "built with $version, without TLS") && str_contains($msg, 'docs/security.md'),
            "without hiredis_ssl, $dsn: ValueError naming $version and docs/security.md", [$cls, $msg]);
    }
    $secret = 'Zq9-' . bin2hex(random_bytes(6));
    [$cls] = dlt_throws(fn() => new DistributedLock('dlock-tests:t07', ['dsn' => "rediss://u:$secret@127.0.0.1:6380"]), $msg);
    dlt_check($cls === 'ValueError' && !str_contains($msg, $secret), 'without hiredis_ssl, the ValueError does not show the password', $msg);
    [$cls] = dlt_throws(fn() => new DistributedLock('dlock-tests:t07', ['dsn' => 'redis://127.0.0.1:6379?cacert=/ca.pem']), $msg);
    dlt_check($cls === 'ValueError', 'redis:// with TLS knobs: a ValueError (never a silent clear-text connection)', [$cls, $msg]);
    $expect = 7;
} else {
    $name = dlt_rkey('t07-tls');
    $port = dlt_redis_own_port(80);
    $dsn = dlt_redis_sh('start-tls', (string) $port);
    $dir = dirname(explode('cacert=', $dsn)[1]);
    $o = ['dsn' => $dsn, 'connect_timeout' => 10];
    [$cls] = dlt_throws(fn() => dlt_redis_at("127.0.0.1:$port", 'PING'));
    dlt_check(str_starts_with($dsn, "rediss://localhost:$port?cacert=") && $cls !== 'none',
        'redis.sh start-tls: a TLS-only Redis (a clear-text PING fails) and its verified DSN', [$dsn, $cls]);

    $l = new DistributedLock($name, $o);
    dlt_check($l->tryAcquire() && $l->getFencingToken() > 0, 'tryAcquire over verified TLS: held, with a token');
    $c = dlt_rspawn('$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 10]); echo $l->tryAcquire() ? "free" : "held", "\n";', [$name, $dsn]);
    dlt_check(dlt_line($c) === 'held', 'another process over TLS finds it held');
    /* a waiter over TLS is woken by the release */
    $c = dlt_rspawn('$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 10]); echo "waiting\n";
$t = microtime(true); $ok = $l->acquire(20); printf("%s %.1f\n", $ok ? "got" : "timeout", microtime(true) - $t); $l->release();', [$name, $dsn]);
    dlt_check(dlt_line($c) === 'waiting', 'a waiter over TLS starts');
    usleep(300000);
    $l->release();
    $got = dlt_line($c);
    dlt_check(str_starts_with($got, 'got ') && (float) substr($got, 4) < 10, 'the waiter over TLS gets the lock after the release', $got);
    /* the watchdog renews over its own TLS connection */
    $w = new DistributedLock("$name-lease", $o + ['lease' => 1.0]);
    dlt_check($w->tryAcquire(), 'a lock with a 1 s lease held over TLS');
    usleep(2500000);
    $c = dlt_rspawn('$l = new DistributedLock($argv[1], ["dsn" => $argv[2], "connect_timeout" => 10]); echo $l->tryAcquire() ? "free" : "held", "\n";', ["$name-lease", $dsn]);
    dlt_check(dlt_line($c) === 'held' && $w->isAcquired(), 'after 2.5 s (2.5 leases) still held: renewed over TLS');
    $w->release();
    $m2 = new DistributedLock($name, ['dsn' => "$dsn&cert=$dir/client.pem&key=$dir/client.key", 'connect_timeout' => 10]);
    dlt_check($m2->tryAcquire(), 'with a client certificate (cert, key)');
    $m2->release();
    $s = new DistributedLock($name, ['dsn' => str_replace('localhost:', '127.0.0.1:', $dsn) . '&sni=localhost', 'connect_timeout' => 10]);
    dlt_check($s->tryAcquire(), 'by address with sni=localhost: the name checked is the SNI name');
    $s->release();
    $rw = new DistributedReadWriteLock("$name-rw", $o);
    dlt_check($rw->readLock()->tryAcquire(), 'read-write lock over TLS: a read lock held');
    $c = dlt_rspawn('$o = ["dsn" => $argv[2], "connect_timeout" => 10];
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
    $expired = dlt_redis_sh('start-tls', (string) dlt_redis_own_port(81), '--expired');
    $silent = stream_socket_server('tcp://127.0.0.1:0');
    $silentPort = (int) substr(strrchr(stream_socket_get_name($silent, false), ':'), 1);
    $plainPort = explode(':', dlt_redis_addr())[1];
    $bad = [
        'a CA that did not sign the certificate' => [str_replace('/ca.pem', '/other-ca.pem', $dsn), "the server's certificate was refused"],
        'a certificate for another name (127.0.0.1, certificate for localhost)' => [str_replace('localhost:', '127.0.0.1:', $dsn), 'IP address mismatch'],
        'a certificate for another name (sni=other.example)' => ["$dsn&sni=other.example", 'hostname mismatch'],
        'an expired certificate' => [$expired, 'certificate has expired'],
        'no cacert: the system store does not know the test CA' => ["rediss://localhost:$port", "the server's certificate was refused"],
        /* an older redis-server closes on the ClientHello at once, a newer one waits for more:
         * either way a connection exception within connect_timeout, never clear text */
        'a plain-text Redis behind rediss://' => ["rediss://localhost:$plainPort?cacert=$dir/ca.pem", ['TLS handshake failed', 'no TLS handshake within connect_timeout']],
        'a server that never answers the TLS handshake' => ["rediss://localhost:$silentPort?cacert=$dir/ca.pem", 'no TLS handshake within connect_timeout'],
        'a cacert file that does not exist' => ["rediss://localhost:$port?cacert=$dir/nope.pem", "cannot load cacert $dir/nope.pem"],
    ];
    foreach ($bad as $what => [$d, $why]) {
        /* a refused connect is tried again until connect_timeout is spent (the Redis backend's
         * rule for every connect failure): the reason of the last try is what is thrown */
        $ct = 3;
        $x = new DistributedLock($name, ['dsn' => $d, 'connect_timeout' => $ct]);
        [$cls, $dt] = dlt_throws(fn() => $x->acquire(10), $msg);
        $whys = (array) $why;
        dlt_check($cls === 'DistributedLockConnectionException' && array_filter($whys, fn($w) => str_contains($msg, $w)) && $dt < $ct + 1.5 && !$x->isAcquired(),
            "$what: DistributedLockConnectionException (" . implode(' or ', $whys) . ") within connect_timeout", [$cls, $msg, $dt]);
    }
    fclose($silent);
    /* verify=off: connects to the wrong CA's server, with a warning once per process */
    $x = new DistributedLock($name, ['dsn' => str_replace('/ca.pem', '/other-ca.pem', $dsn) . '&verify=off', 'connect_timeout' => 10]);
    $y = new DistributedLock($name, ['dsn' => "$dsn&verify=off", 'connect_timeout' => 10]);
    dlt_check($x->tryAcquire(), 'verify=off: connected without checking (the warning above, once)');
    $x->release();

    /* secrets: a password (AUTH refused: this server has none) and a key file's contents never
     * show; the key's path may */
    $secret = 'Zq9-' . bin2hex(random_bytes(6));
    $keyFile = "$dir/secret.key";
    file_put_contents($keyFile, "-----BEGIN PRIVATE KEY-----\n$secret\n-----END PRIVATE KEY-----\n");
    $seen = '';
    $classes = [];
    foreach (["rediss://u:$secret@localhost:$port?cacert=$dir/ca.pem&cert=$dir/client.pem&key=$keyFile",
              "rediss://u:$secret@localhost:$port?cacert=$dir/ca.pem"] as $d) {
        $x = new DistributedLock($name, ['dsn' => $d, 'connect_timeout' => 3]);
        [$cls] = dlt_throws(function () use ($x, &$seen) {
            try {
                $x->tryAcquire();
            } catch (Throwable $e) {
                $seen .= $e->getMessage() . $e->getTraceAsString() . print_r($e->getTrace(), true);
                throw $e;
            }
        }, $msg);
        ob_start();
        var_dump($x);
        print_r($x);
        var_export($x);
        echo json_encode($x);
        $seen .= ob_get_clean();
        $classes[] = $cls;
    }
    ini_set('dlock.dsn', "rediss://u:$secret@localhost:$port?cacert=$dir/ca.pem");
    ob_start();
    phpinfo(INFO_MODULES);
    $seen .= ob_get_clean();
    dlt_check(str_contains($seen, "cannot load key $keyFile") && str_contains($seen, "rediss://u:***@localhost:$port")
        && $classes[0] === 'DistributedLockConnectionException' && str_starts_with($classes[1], 'DistributedLock'),
        'a bad key file (a connection exception naming it) and a refused AUTH over TLS; phpinfo() masks the password', $classes);
    dlt_check(!str_contains($seen, $secret), 'the password and the key file\'s contents appear nowhere in messages, traces, dumps or phpinfo()');
    $expect = 26;
}
$out = ob_get_clean();
/* the check lines, and the warnings PHP printed between them */
$lines = array_values(array_filter(explode("\n", $out), fn($l) => $l !== '' && !str_starts_with($l, 'Warning: ')));
$warnings = substr_count($out, 'Warning: ');
$verifyOff = substr_count($out, 'rediss DSN verify=off: TLS without checking');
$failed = count(array_filter($lines, fn($l) => str_starts_with($l, 'FAILED')));
$ok = count($lines) === $expect && $failed === 0 && $warnings === ($tls ? 1 : 0) && $verifyOff === $warnings;
printf("rediss:// in this build: %s; %d checks, %s\n", $tls ? 'yes' : 'no', count($lines), $ok ? 'all passed' : 'FAILED');
if (!$ok) {
    echo $out;
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
foreach ([80, 81] as $n) {
    try { dlt_redis_sh('stop', (string) dlt_redis_own_port($n)); } catch (Throwable $e) { }
}
?>
--EXPECTF--
rediss:// in this build: %s; %d checks, all passed
