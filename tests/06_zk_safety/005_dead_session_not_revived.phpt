--TEST--
A session the client declared dead during a long outage is closed: a restarted server cannot revive it with its node
--EXTENSIONS--
dlock
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$port = (string) dlt_zk_port(41);
$hosts = dlt_zk('start', $port);
$path = dlt_path('safety-revive');
$a = dlt_spawn('
$l = new DistributedLock($argv[1], ["hosts" => $argv[2], "session_timeout" => 2000]);
$l->acquire();
echo "held\n";
fgets(STDIN);                      /* the server is down now */
$t = microtime(true);
while ($l->isAcquired() || microtime(true) - $t < 3.0) { usleep(50000); } /* past the session timeout */
try { $l->checkHeld(); echo "still held?!\n"; } catch (DistributedLockException $e) { echo "lost\n"; }
fgets(STDIN);                      /* stay alive until the test is done */
', [$path, $hosts]);
echo dlt_line($a), "\n";
dlt_zk('crash', $port);
dlt_send($a, 'down');
echo dlt_line($a, 30), "\n";
dlt_zk('resume', $port);
/* the server restored A's session with fresh timers; A gave up on it, so it
 * must expire and take its node, while A still runs */
$opts = ['hosts' => $hosts, 'session_timeout' => 2000];
var_dump(dlt_until(fn() => count(DistributedLock::participants($path, $opts)) === 0, 20));
$b = new DistributedLock($path, $opts);
var_dump($b->tryAcquire());
$b->release();
dlt_send($a, 'bye');
var_dump(dlt_finish($a));
dlt_zk('stop', $port);
?>
--EXPECT--
held
lost
bool(true)
bool(true)
int(0)
