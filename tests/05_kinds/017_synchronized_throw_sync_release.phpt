--TEST--
dlock.async_release=0 holds when a synchronized() callback throws: the release has reached the server when synchronized() returns (a session behind a slow link; another session's tryAcquire() at once succeeds)
--EXTENSIONS--
dlock
--INI--
dlock.async_release=0
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/proxy.inc';
$px = dlt_proxy_start(0);
$p = dlt_path('kinds-sync-throw-release');
$l = new DistributedLock($p, ['hosts' => $px['hosts'], 'connect_timeout' => 10, 'session_timeout' => 20000]);
$other = new DistributedLock($p, dlt_opts()); /* straight to the server */
var_dump($l->tryAcquire());
$l->release();
dlt_proxy($px, 'delay 400'); /* every byte of $l's session now takes 0.4 s each way */
$missed = 0;
for ($i = 0; $i < 3; $i++) {
    try {
        $l->synchronized(function () { throw new RuntimeException('boom'); });
    } catch (RuntimeException $e) {
    }
    if ($other->tryAcquire()) {
        $other->release();
    } else {
        $missed++; /* the delete was still on its way */
    }
}
echo "another session's tryAcquire() right after synchronized() threw failed $missed of 3 times\n";
dlt_proxy($px, 'clear');
var_dump($l->isAcquired(), dlt_nodes($p));
unset($l);
dlt_proxy_stop($px);
?>
--EXPECT--
bool(true)
another session's tryAcquire() right after synchronized() threw failed 0 of 3 times
bool(false)
int(0)
