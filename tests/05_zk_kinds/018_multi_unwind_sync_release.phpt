--TEST--
dlock.async_release=0 holds when a multi-lock unwinds: the part it took is released on the server when acquire($t) returns false (a session behind a slow link; another session at once sees no node there)
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
$a = dlt_path('kinds-unwind-release-a');
$b = dlt_path('kinds-unwind-release-b');
$slow = ['hosts' => $px['hosts'], 'connect_timeout' => 10, 'session_timeout' => 20000];
/* another session, straight to the server, holds b: the multi-lock takes a,
 * waits for b until its timeout and gives a back */
$hb = new DistributedLock($b, dlt_opts());
var_dump($hb->acquire(10));
$la = new DistributedLock($a, $slow);
$m = new DistributedMultiLock([$la, new DistributedLock($b, $slow)]);
var_dump($m->tryAcquire());
dlt_proxy($px, 'delay 200'); /* every byte of the multi-lock's session now takes 0.2 s each way */
$missed = 0;
for ($i = 0; $i < 2; $i++) {
    if ($m->acquire(2.5) || $la->isAcquired()) {
        echo "multi-lock or its part still held\n";
    }
    /* another session, straight to the server */
    if (count(DistributedLock::participants($a, dlt_opts())) !== 0) {
        $missed++; /* the delete was still on its way */
    }
}
echo "another session saw the node right after the unwind $missed of 2 times\n";
dlt_proxy($px, 'clear');
$hb->release();
var_dump(dlt_nodes($a), dlt_nodes($b));
unset($m, $la);
dlt_proxy_stop($px);
?>
--EXPECT--
bool(true)
bool(false)
another session saw the node right after the unwind 0 of 2 times
int(0)
int(0)
