--TEST--
Redis: a process exits within connect_timeout while its watchdog is blocked in a renewal to a stalled server (module shutdown, and request end with dlock.persistent=0), not after lease/3
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$port = dlt_redis_own_port(54);
$addr = dlt_redis_sh('start', (string) $port);
/* lease 15 s: the watchdog's first renewal is sent 5 s after the acquire and
 * may wait 5 s for its reply; connect_timeout is 0.5 s */
$code = '
$l = new DistributedLock($argv[1], ["dsn" => "redis://" . $argv[2], "lease" => 15.0, "connect_timeout" => 0.5]);
$l->acquire();
echo "held\n";
fgets(STDIN);
echo "exiting\n";
';
$kids = [];
foreach (['persistent' => '', 'not persistent' => '-d dlock.persistent=0'] as $what => $ini) {
    $kids[$what] = dlt_rspawn($code, [dlt_rkey('r54-' . strtr($what, ' ', '-')), $addr], $ini);
}
foreach ($kids as &$c) {
    echo dlt_line($c), "\n";
}
unset($c);
usleep(3500000);                 /* well before the renewals are due */
dlt_redis_sh('pause', (string) $port);
usleep(2500000);                 /* now both renewals have been sent and hang */
$t = microtime(true);
foreach ($kids as &$c) {
    dlt_send($c, 'exit');
}
unset($c);
foreach ($kids as $what => &$c) {
    $line = dlt_line($c);
    $rc = dlt_finish($c, 20);
    $took = microtime(true) - $t;
    /* release() gives up after connect_timeout (0.5 s), then the watchdog is
     * stopped: bounded by connect_timeout again, never by the 5 s renewal */
    echo "$what: $line, exit $rc, ", $took < 2.5 ? "within bound" : sprintf("took %.1f s", $took), "\n";
}
unset($c);
dlt_redis_sh('resume', (string) $port);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('resume', (string) dlt_redis_own_port(54)); } catch (Throwable $e) { }
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(54)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
held
held
persistent: exiting, exit 0, within bound
not persistent: exiting, exit 0, within bound
