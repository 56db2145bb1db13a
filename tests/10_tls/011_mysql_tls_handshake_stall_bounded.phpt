--TEST--
TLS (mysql): a server that sends its greeting (offering TLS) and then never answers the TLS handshake gives DistributedLockConnectionException within connect_timeout, never a hang (review 20 F6: the handshake ran on the blocking socket with no timeout; the same DSN without TLS was bounded)
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
$port = (string) dlt_sql_own_port($b, 74);
$dsn = dlt_sql_sh($b, 'start-tls', $port);
/* the impostor: replays the real server's greeting to every client, then reads and never answers */
$c = dlt_spawn(<<<'PHP'
    $real = stream_socket_client("tcp://127.0.0.1:$argv[1]", $no, $str, 5);
    $head = fread($real, 4);
    $greeting = $head . stream_get_contents($real, unpack('V', substr($head, 0, 3) . "\0")[1]);
    $srv = stream_socket_server('tcp://127.0.0.1:0');
    echo substr(strrchr(stream_socket_get_name($srv, false), ':'), 1), "\n";
    $clients = [];
    $end = microtime(true) + 60;
    while (microtime(true) < $end) {
        $r = array_merge([$srv, STDIN], $clients);
        $w = $e = null;
        if (stream_select($r, $w, $e, 1) > 0) {
            foreach ($r as $s) {
                if ($s === $srv) {
                    $clients[] = $cl = stream_socket_accept($srv);
                    fwrite($cl, $greeting);
                } elseif ($s === STDIN) {
                    if (fgets(STDIN) === false) {
                        exit(0);
                    }
                } elseif (fread($s, 65536) === '') {
                    $clients = array_filter($clients, fn($x) => $x !== $s);
                }
            }
        }
    }
    PHP, [$port]);
$fake = (int) dlt_line($c);
dlt_check($fake > 0, 'the impostor listens');
$stalled = preg_replace('~@localhost:\d+/~', "@localhost:$fake/", $dsn);
$t = microtime(true);
$msg = '';
[$cls, $dt] = dlt_throws(function () use ($stalled) {
    (new DistributedLock(dlt_skey('t11', 'mysql'), ['dsn' => $stalled, 'connect_timeout' => 2]))->tryAcquire();
}, $msg);
dlt_check($cls === 'DistributedLockConnectionException', 'a handshake that gets no answer: DistributedLockConnectionException', [$cls, $msg]);
dlt_check($dt >= 1.5 && $dt < 2 + 1.5, 'within connect_timeout (2 s) + 1.5 s slack', $dt);
$l = new DistributedLock(dlt_skey('t11', 'mysql'), ['dsn' => $dsn, 'connect_timeout' => 10]);
dlt_check($l->tryAcquire(), 'the real server over TLS still takes the lock');
$l->release();
proc_terminate($c['proc']);
proc_close($c['proc']);
dlt_sql_sh($b, 'stop', $port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('mysql', 74);
?>
--EXPECT--
the impostor listens
a handshake that gets no answer: DistributedLockConnectionException
within connect_timeout (2 s) + 1.5 s slack
the real server over TLS still takes the lock
