--TEST--
Redis: hostile input (bad DSNs, lease/max_hold values, names, hosts+dsn, ZooKeeper-only options): ValueError/TypeError naming the problem, before any network traffic, no crash
--EXTENSIONS--
dlock
--FILE--
<?php
/* each case: [name, options, what the message must mention (regex)] */
$ok = 'redis://127.0.0.1:1';
$cases = [
    ['dlock-tests:x', ['dsn' => 'memcached://127.0.0.1:11211'], '/scheme|memcached/i'],
    ['dlock-tests:x', ['dsn' => 'http://127.0.0.1:6379'], '/scheme|http/i'],
    ['dlock-tests:x', ['dsn' => '127.0.0.1:6379'], '/scheme|dsn/i'],
    ['dlock-tests:x', ['dsn' => 'redis://'], '/host/i'],
    ['dlock-tests:x', ['dsn' => 'redis://:6379'], '/host/i'],
    ['dlock-tests:x', ['dsn' => 'redis://user:pw@:6379'], '/host/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:0'], '/port/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:65536'], '/port/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:99999999999999999999'], '/port/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:abc'], '/port/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:-1'], '/port/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:6379/x'], '/db|database/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:6379/1x'], '/db|database|trailing/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:6379/0/extra'], '/db|database|trailing/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:6379?timeout=1'], '/port|trailing|\?/i'],
    ['dlock-tests:x', ['dsn' => 'redis://127.0.0.1:6379 '], '/port|trailing/i'],
    ['dlock-tests:x', ['dsn' => "redis://127.0.0.1:6379\0"], '/NUL|port|trailing/i'],
    ['dlock-tests:x', ['dsn' => 'zookeeper://'], '/host|empty/i'],
    ['dlock-tests:x', ['dsn' => 'zookeeper://127.0.0.1:99999'], '/port/i'],
    ['dlock-tests:x', ['dsn' => 6379], '/dsn/'],
    ['dlock-tests:x', ['dsn' => $ok, 'hosts' => '127.0.0.1:2181'], '/hosts.*dsn|dsn.*hosts/i'],
    ['dlock-tests:x', ['dsn' => $ok, 'session_timeout' => 5000], '/session_timeout/'],
    ['dlock-tests:x', ['dsn' => $ok, 'auth' => 'user:pw'], '/auth/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => 0.05], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => 0], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => -1], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => 86400.5], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => NAN], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => INF], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'lease' => 'long'], '/lease/'],
    ['dlock-tests:x', ['dsn' => $ok, 'max_hold' => -1], '/max_hold/'],
    ['dlock-tests:x', ['dsn' => $ok, 'max_hold' => NAN], '/max_hold/'],
    ['dlock-tests:x', ['dsn' => $ok, 'max_hold' => INF], '/max_hold/'],
    ['dlock-tests:x', ['dsn' => $ok, 'max_hold' => 'soon'], '/max_hold/'],
    ['', ['dsn' => $ok], '/empty|name|path/i'],
    [str_repeat('n', 1025), ['dsn' => $ok], '/1024/'],
    ["dlock-tests:a\0b", ['dsn' => $ok], '/NUL/i'],
];
foreach ($cases as $i => [$name, $opts, $mention]) {
    try {
        new DistributedLock($name, $opts);
        echo "$i: accepted\n";
    } catch (TypeError | ValueError $e) {
        $m = $e->getMessage();
        echo "$i: ", get_class($e), preg_match($mention, $m) ? '' : " (message does not say $mention: $m)", "\n";
    } catch (Throwable $e) {
        echo "$i: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
/* participants() validates the same way, before any network traffic */
foreach ([['', ['dsn' => $ok]], ['x', ['dsn' => 'redis://']], ['x', ['dsn' => $ok, 'lease' => 0]]] as $i => [$name, $opts]) {
    try {
        DistributedLock::participants($name, $opts);
        echo "participants $i: accepted\n";
    } catch (TypeError | ValueError $e) {
        echo "participants $i: ", get_class($e), "\n";
    }
}
/* the edges are accepted (construction does not connect) */
foreach ([[str_repeat('n', 1024), []], ['/locks/orders', []], ['a{b}c', []], ['x', ['lease' => 0.1]],
          ['x', ['lease' => 86400]], ['x', ['max_hold' => 0]], ['x', ['max_hold' => 2.5, 'lease' => 1]],
          ['x', ['data' => 'ignored on Redis']], ['x', ['reentrant' => false]],
          ['x', ['connect_timeout' => 0.2]]] as $i => [$name, $opts]) {
    try {
        new DistributedLock($name, ['dsn' => $ok] + $opts);
        echo "edge $i: accepted\n";
    } catch (Throwable $e) {
        echo "edge $i: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
foreach (['redis://127.0.0.1:6379', 'redis://127.0.0.1:6379/15', 'redis://user:secret@127.0.0.1:6379/0',
          'redis://localhost:6379', 'zookeeper://127.0.0.1:2181,127.0.0.1:2182/chroot'] as $i => $dsn) {
    try {
        new DistributedLock($dsn[0] === 'z' ? '/dlock-tests/x' : 'dlock-tests:x', ['dsn' => $dsn]);
        echo "dsn $i: accepted\n";
    } catch (Throwable $e) {
        echo "dsn $i: ", get_class($e), ': ', $e->getMessage(), "\n";
    }
}
?>
--EXPECT--
0: ValueError
1: ValueError
2: ValueError
3: ValueError
4: ValueError
5: ValueError
6: ValueError
7: ValueError
8: ValueError
9: ValueError
10: ValueError
11: ValueError
12: ValueError
13: ValueError
14: ValueError
15: ValueError
16: ValueError
17: ValueError
18: ValueError
19: TypeError
20: ValueError
21: ValueError
22: ValueError
23: ValueError
24: ValueError
25: ValueError
26: ValueError
27: ValueError
28: ValueError
29: TypeError
30: ValueError
31: ValueError
32: ValueError
33: TypeError
34: ValueError
35: ValueError
36: ValueError
participants 0: ValueError
participants 1: ValueError
participants 2: ValueError
edge 0: accepted
edge 1: accepted
edge 2: accepted
edge 3: accepted
edge 4: accepted
edge 5: accepted
edge 6: accepted
edge 7: accepted
edge 8: accepted
edge 9: accepted
dsn 0: accepted
dsn 1: accepted
dsn 2: accepted
dsn 3: accepted
dsn 4: accepted
