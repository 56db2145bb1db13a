--TEST--
Redis: FLUSHALL under a hold: the next holder's fencing token is higher than the old holder's (a fenced store accepts it), and the old holder's isAcquired() turns false by the watchdog's next renewal
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* FLUSHALL wipes the whole server: this test has its own */
$port = dlt_redis_own_port(50);
$addr = dlt_redis_sh('start', (string) $port);
$name = dlt_rkey('r50-flushall');
$h = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts(["lease" => 3.0], $argv[2]));
$l->acquire();
echo $l->getFencingToken(), "\n";
fgets(STDIN);                          /* the server was flushed */
$t = microtime(true);
while ($l->isAcquired() && microtime(true) - $t < 10) {
    usleep(10000);
}
echo microtime(true) - $t, "\n";
try {
    $l->checkHeld();
    echo "checkHeld: ok?!\n";
} catch (DistributedLockLostException $e) {
    echo "checkHeld: lost\n";
}
', [$name, $addr]);
$old = (int) dlt_line($h);
/* the storage the lock protects keeps the highest token it has seen */
$fence = $old;
var_dump($old > 0);
var_dump(dlt_redis_at($addr, 'FLUSHALL'));
/* another process may now be granted at once, while the old holder still
 * believes it holds until its watchdog's next renewal (lease/3 = 1 s) */
$b = new DistributedLock($name, dlt_ropts([], $addr));
var_dump($b->acquire(10));         /* free: granted at once */
$new = $b->getFencingToken();
echo $new > $old ? "new token higher\n" : "new token $new, old $old\n";
echo $new >= $fence ? "fenced store accepts the new holder\n" : "fenced store rejects the new holder\n";
dlt_send($h, 'flushed');
$lag = (float) dlt_line($h);
/* one renewal period (1 s) plus generous slack for a loaded machine */
echo $lag < 2.5 ? "isAcquired false by the next renewal\n" : "isAcquired still true after $lag s\n";
echo dlt_line($h), "\n";
var_dump(dlt_finish($h));
$b->release();
/* and the next holder after that is higher still */
$b->acquire();
var_dump($b->getFencingToken() > $new);
$b->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(50)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
string(2) "OK"
bool(true)
new token higher
fenced store accepts the new holder
isAcquired false by the next renewal
checkHeld: lost
int(0)
bool(true)
