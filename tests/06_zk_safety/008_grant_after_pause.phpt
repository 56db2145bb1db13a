--TEST--
A waiter stopped past its session timeout is never granted on its return by a wake-up the server sent before the expiry (found by the randomized fault checker)
--EXTENSIONS--
dlock
posix
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-grant-after-pause');
$p = new DistributedLock($path, dlt_opts(['session_timeout' => 4000]));
var_dump($p->acquire(10));
$first = $p->getFencingToken();
$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["session_timeout" => 1500]));
echo "waiting\n";
$r = $l->acquire(60);
echo "acquired: ", var_export($r, true), " held: ", var_export($l->isAcquired(), true), " token ",
    $l->getFencingToken(), "\n";
$l->release();
', [$path]);
echo dlt_line($c), "\n";
/* the child's node is queued behind ours */
$deadline = microtime(true) + 20;
while (dlt_nodes($path) < 2 && microtime(true) < $deadline) {
    usleep(20000);
}
var_dump(dlt_nodes($path));
posix_kill($c['pid'], SIGSTOP);
$p->release();            /* the wake-up goes to the stopped child's socket */
/* take it again once the child's session has expired and its node is gone */
$q = new DistributedLock($path, dlt_opts());
var_dump($q->acquire(20));
$second = $q->getFencingToken();
posix_kill($c['pid'], SIGCONT);
/* while we hold, the child must not report the lock: it re-queues and waits */
$line = dlt_line($c, 3.0);
echo str_starts_with($line, 'NO LINE (timeout)') ? "child still waits while we hold\n" : "child: $line\n";
$q->release();
$line = dlt_line($c, 20);
preg_match('/^acquired: true held: true token (\d+)$/', $line, $m);
echo $m ? "child acquired after our release\n" : "child: $line\n";
var_dump($m && (int) $m[1] > $second && $second > $first);
var_dump(dlt_finish($c));
?>
--EXPECT--
bool(true)
waiting
int(2)
bool(true)
child still waits while we hold
child acquired after our release
bool(true)
int(0)
