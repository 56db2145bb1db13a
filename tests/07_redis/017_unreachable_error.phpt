--TEST--
Redis: a closed port or a server that never answers: DistributedLockConnectionException within connect_timeout (+ slack), never a hang
--EXTENSIONS--
dlock
--FILE--
<?php
/* a port nobody listens on: bind one, then close it */
$s = stream_socket_server('tcp://127.0.0.1:0');
$closed = stream_socket_get_name($s, false);
fclose($s);
/* a "server" that accepts connections (the kernel's backlog) but never answers */
$mute = stream_socket_server('tcp://127.0.0.1:0');
$silent = stream_socket_get_name($mute, false);

foreach (['closed port' => $closed, 'silent server' => $silent] as $what => $addr) {
    foreach (['acquire' => fn($l) => $l->acquire(), 'tryAcquire' => fn($l) => $l->tryAcquire(),
              'acquire(10)' => fn($l) => $l->acquire(10.0)] as $call => $f) {
        $l = new DistributedLock('dlock-tests:r17-unreachable', ['dsn' => "redis://$addr", 'connect_timeout' => 0.5]);
        $t = microtime(true);
        try {
            $f($l);
            echo "$what, $call: returned?!\n";
        } catch (DistributedLockConnectionException $e) {
            $dt = microtime(true) - $t;
            echo "$what, $call: ", get_class($e), $dt < 1.5 ? '' : " after $dt s", "\n";
        } catch (Throwable $e) {
            echo "$what, $call: ", get_class($e), ': ', $e->getMessage(), "\n";
        }
        var_dump($l->isAcquired());
    }
    $t = microtime(true);
    try {
        DistributedLock::participants('dlock-tests:r17-unreachable', ['dsn' => "redis://$addr", 'connect_timeout' => 0.5]);
        echo "$what, participants: returned?!\n";
    } catch (DistributedLockConnectionException $e) {
        $dt = microtime(true) - $t;
        echo "$what, participants: ", get_class($e), $dt < 1.5 ? '' : " after $dt s", "\n";
    }
}
fclose($mute);
?>
--EXPECT--
closed port, acquire: DistributedLockConnectionException
bool(false)
closed port, tryAcquire: DistributedLockConnectionException
bool(false)
closed port, acquire(10): DistributedLockConnectionException
bool(false)
closed port, participants: DistributedLockConnectionException
silent server, acquire: DistributedLockConnectionException
bool(false)
silent server, tryAcquire: DistributedLockConnectionException
bool(false)
silent server, acquire(10): DistributedLockConnectionException
bool(false)
silent server, participants: DistributedLockConnectionException
