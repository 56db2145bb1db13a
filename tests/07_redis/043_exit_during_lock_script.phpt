--TEST--
Redis: a handler that exits while acquire()'s lock script is in flight does not leave the script's grant behind (it used to hold the lock for nobody for a whole lease)
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
/* its own server: the test pauses it and keeps it busy */
$addr = dlt_redis_sh('start', (string) dlt_redis_own_port(43));
$y = dlt_rkey('r043-y');
$c = dlt_rspawn('
$ly = new DistributedLock($argv[1], dlt_ropts(["connect_timeout" => 15, "lease" => 60], $argv[2]));
var_dump($ly->acquire(10)); /* loads the scripts on the pooled connection */
$ly->release();
/* A script that keeps the server busy for 2.5 s is held back by a 1 s pause
 * of every script call, and acquire()s lock script queues behind it. The
 * handler exits 2 s in, while the busy script runs: the server then runs
 * acquire()s script (it grants) although its caller has gone. */
echo dlt_redis_at($argv[2], "CLIENT", "PAUSE", "1000", "WRITE"), "\n";
$busy = stream_socket_client("tcp://" . $argv[2]);
$lua = "local t = redis.call(\'time\') local e = t[1] * 1000000 + t[2] + 2500000 "
     . "while true do t = redis.call(\'time\') if t[1] * 1000000 + t[2] >= e then return 1 end end";
$req = "*4\r\n\$4\r\nEVAL\r\n\$" . strlen($lua) . "\r\n$lua\r\n\$1\r\n0\r\n\$2\r\nro\r\n";
fwrite($busy, "*3\r\n\$6\r\nCLIENT\r\n\$7\r\nSETNAME\r\n\$7\r\ndlt-043\r\n" . $req);
/* the busy script is held by the pause before acquire() sends its own */
var_dump(dlt_until(fn () => preg_match("/name=dlt-043 .*cmd=eval/", (string) dlt_redis_at($argv[2], "CLIENT", "LIST")) === 1, 30));
pcntl_async_signals(true);
pcntl_signal(SIGALRM, function () {
    echo "handler: exit\n";
    exit(0);
});
pcntl_alarm(2);
$ly->acquire(20);
echo "acquire returned (unexpected)\n";
', [$y, $addr]);
for ($i = 0; $i < 4; $i++) {
    echo dlt_line($c, 60), "\n";
}
echo "exit status ", dlt_finish($c), "\n";
/* free at once, not after the 60 s lease */
$l = new DistributedLock($y, dlt_ropts([], $addr));
var_dump($l->acquire(10));
$l->release();
var_dump(dlt_redis_leftovers($y, $addr));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(43)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
bool(true)
OK
bool(true)
handler: exit
exit status 0
bool(true)
array(0) {
}
