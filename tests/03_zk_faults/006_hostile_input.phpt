--TEST--
Hostile input through the whole API: every case is a TypeError, ValueError or DistributedLockException; no crash, no hang, no node left
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$h = dlt_hosts();
$p = dlt_path('faults-hostile');
$cases = [
    'path NUL'            => fn() => new DistributedLock("/a\0b"),
    'path NUL end'        => fn() => new DistributedLock("/a\0"),
    'path 100 KB'         => fn() => new DistributedLock('/' . str_repeat('a', 100 * 1024)),
    'path 100 KB slashes' => fn() => new DistributedLock(str_repeat('/a', 50 * 1024)),
    'path //'             => fn() => new DistributedLock('//'),
    'path ////x'          => fn() => new DistributedLock('////x'),
    'path /x///y'         => fn() => new DistributedLock('/x///y'),
    'path /zookeeper'     => fn() => new DistributedLock('/zookeeper'),
    'path /zookeeper/q'   => fn() => new DistributedLock('/zookeeper/quota'),
    'path /zookeeper/config' => fn() => new DistributedLock('/zookeeper/config/x'),
    'path ..'             => fn() => new DistributedLock('/a/../b'),
    'path .'              => fn() => new DistributedLock('/./b'),
    'path surrogate'      => fn() => new DistributedLock("/\xed\xa0\x80"),
    'path overlong utf8'  => fn() => new DistributedLock("/\xc0\xaf"),
    'path U+FFFF'         => fn() => new DistributedLock("/\xef\xbf\xbf"),
    'path DEL'            => fn() => new DistributedLock("/a\x7f"),
    'path newline'        => fn() => new DistributedLock("/a\nb"),
    'path int'            => fn() => new DistributedLock(42),
    'path array'          => fn() => new DistributedLock([]),
    'path object'         => fn() => new DistributedLock(new stdClass()),
    'options not array'   => fn() => new DistributedLock('/x', 'hosts'),
    'option key int'      => fn() => new DistributedLock('/x', [1, 2]),
    'option key NUL'      => fn() => new DistributedLock('/x', ["hosts\0" => $h]),
    'option key huge'     => fn() => new DistributedLock('/x', [str_repeat('k', 100000) => 1]),
    'hosts array'         => fn() => new DistributedLock('/x', ['hosts' => [$h]]),
    'hosts null'          => fn() => new DistributedLock('/x', ['hosts' => null]),
    'hosts garbage'       => fn() => new DistributedLock('/x', ['hosts' => '!!!@@@']),
    'hosts spaces'        => fn() => new DistributedLock('/x', ['hosts' => ' 127.0.0.1:2181']),
    'hosts 100 KB'        => fn() => new DistributedLock('/x', ['hosts' => str_repeat('a', 100000) . ':1']),
    'hosts port 0'        => fn() => new DistributedLock('/x', ['hosts' => '127.0.0.1:0']),
    'hosts port huge'     => fn() => new DistributedLock('/x', ['hosts' => '127.0.0.1:99999999999']),
    'hosts unresolvable'  => fn() => (new DistributedLock($p, ['hosts' => 'nope.invalid:2181', 'connect_timeout' => 1]))->acquire(),
    'hosts closed port'   => fn() => (new DistributedLock($p, ['hosts' => '127.0.0.1:9', 'connect_timeout' => 0.5]))->acquire(),
    'session_timeout neg' => fn() => new DistributedLock('/x', ['session_timeout' => -1]),
    'session_timeout big' => fn() => new DistributedLock('/x', ['session_timeout' => PHP_INT_MAX]),
    'session_timeout NAN' => fn() => new DistributedLock('/x', ['session_timeout' => NAN]),
    'connect_timeout NAN' => fn() => new DistributedLock('/x', ['connect_timeout' => NAN]),
    'connect_timeout INF' => fn() => new DistributedLock('/x', ['connect_timeout' => INF]),
    'connect_timeout neg' => fn() => new DistributedLock('/x', ['connect_timeout' => -5]),
    'connect_timeout 1e308' => fn() => new DistributedLock('/x', ['connect_timeout' => 1e308]),
    'data 2 MB'           => fn() => new DistributedLock('/x', ['data' => str_repeat('d', 2 * 1024 * 1024)]),
    'data object'         => fn() => new DistributedLock('/x', ['data' => new stdClass()]),
    'auth no colon'       => fn() => new DistributedLock('/x', ['auth' => 'nocolon']),
    'auth empty user'     => fn() => new DistributedLock('/x', ['auth' => ':pw']),
    'auth NUL'            => fn() => new DistributedLock('/x', ['auth' => "u:p\0w"]),
    'reentrant string'    => fn() => new DistributedLock('/x', ['reentrant' => 'yes']),
    'timeout NAN'         => fn() => (new DistributedLock($p, dlt_opts()))->acquire(NAN),
    'timeout INF'         => fn() => (new DistributedLock($p, dlt_opts()))->acquire(INF),
    'timeout -INF'        => fn() => (new DistributedLock($p, dlt_opts()))->acquire(-INF),
    'timeout negative'    => fn() => (new DistributedLock($p, dlt_opts()))->acquire(-0.5),
    'timeout huge'        => fn() => (new DistributedLock($p, dlt_opts()))->acquire(1e300),
    'timeout string'      => fn() => (new DistributedLock($p, dlt_opts()))->acquire('soon'),
    'synchronized non-callable' => fn() => (new DistributedLock($p, dlt_opts()))->synchronized('no_such_function'),
    'release unheld'      => fn() => (new DistributedLock($p, dlt_opts()))->release(),
    'checkHeld unheld'    => fn() => (new DistributedLock($p, dlt_opts()))->checkHeld(),
    'token unheld'        => fn() => (new DistributedLock($p, dlt_opts()))->getFencingToken(),
    'participants NUL'    => fn() => DistributedLock::participants("/a\0"),
    'participants bad opt' => fn() => DistributedLock::participants('/a', ['hosts' => 1]),
    'semaphore 0'         => fn() => new DistributedSemaphore('/x', 0),
    'semaphore huge'      => fn() => new DistributedSemaphore('/x', PHP_INT_MAX),
    'semaphore string'    => fn() => new DistributedSemaphore('/x', 'two'),
    'rw bad path'         => fn() => new DistributedReadWriteLock('relative'),
    'multi empty'         => fn() => new DistributedMultiLock([]),
    'multi ints'          => fn() => new DistributedMultiLock([1, 2]),
    'multi nested'        => fn() => new DistributedMultiLock([new DistributedMultiLock([new DistributedLock('/m')])]),
];
$n = 0;
foreach ($cases as $name => $fn) {
    $n++;
    try {
        $fn();
        echo "$name: accepted\n";
    } catch (TypeError | ValueError | DistributedLockException $e) {
        $msg = $e->getMessage();
        if ($msg === '' || strlen($msg) > 600) {
            echo "$name: unclear message\n";
        }
    } catch (Throwable $e) {
        echo "$name: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
echo "$n hostile inputs\n";
var_dump(dlt_nodes($p));
?>
--EXPECT--
65 hostile inputs
int(0)
