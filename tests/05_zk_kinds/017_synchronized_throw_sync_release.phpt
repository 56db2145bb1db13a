--TEST--
dlock.async_release=0 holds when a synchronized() callback throws: the release has reached the server when synchronized() returns (a session behind a slow link; another session at once sees no node)
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
$px = dlt_proxy_start();
$p = dlt_path('kinds-sync-throw-release');
$l = new DistributedLock($p, ['hosts' => $px['hosts'], 'connect_timeout' => 10, 'session_timeout' => 20000]);
var_dump($l->acquire(10));
$l->release();
dlt_proxy($px, 'delay 400'); /* every byte of $l's session now takes 0.4 s each way */
$missed = 0;
for ($i = 0; $i < 3; $i++) {
    try {
        $l->synchronized(function () { throw new RuntimeException('boom'); });
    } catch (RuntimeException $e) {
    }
    /* another session, straight to the server */
    if (count(DistributedLock::participants($p, dlt_opts())) !== 0) {
        $missed++; /* the delete was still on its way */
    }
}
echo "another session saw the node right after synchronized() threw $missed of 3 times\n";
dlt_proxy($px, 'clear');
var_dump($l->isAcquired(), dlt_nodes($p));
unset($l);
dlt_proxy_stop($px);
?>
--EXPECT--
bool(true)
another session saw the node right after synchronized() threw 0 of 3 times
bool(false)
int(0)
