--TEST--
Redis: request end releases a held lock: exit (php -S keeps the process alive across requests)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r013-request-end');
$root = sys_get_temp_dir() . '/dlt-r013-www-' . getmypid();
@mkdir($root);
/* takes the lock named by ?name= (30 s lease) and ends the request as ?how= says,
 * without calling release(): RSHUTDOWN must release it */
file_put_contents("$root/hold.php", '<?php
$l = new DistributedLock($_GET["name"], ["dsn" => "redis://" . getenv("DLOCK_TEST_REDIS"), "lease" => 30.0]);
$GLOBALS["keep"] = $l;
if (!$l->acquire(10)) {
    echo "not acquired\n";
    return;
}
echo "held ", $l->getFencingToken(), "\n";
flush();
if ($_GET["how"] === "exit") {
    exit(0);
}
throw new RuntimeException("boom");
');
file_put_contents("$root/pid.php", '<?php echo getmypid(), "\n";');
$srv = dlt_server($root);
$pid = trim(dlt_get($srv['url'] . '/pid.php'));
$body = dlt_get($srv['url'] . '/hold.php?how=exit&name=' . urlencode($name));
echo preg_match('/^held \d+/', $body) ? "request held the lock\n" : "unexpected: $body\n";
/* same server process, same connection: only RSHUTDOWN can have freed the lock */
var_dump(trim(dlt_get($srv['url'] . '/pid.php')) === $pid);
var_dump(dlt_redis_leftovers($name));
$l = new DistributedLock($name, dlt_ropts());
var_dump($l->tryAcquire());
$l->release();
/* the server process can take it again in a later request */
$body = dlt_get($srv['url'] . '/hold.php?how=exit&name=' . urlencode($name));
echo preg_match('/^held \d+/', $body) ? "second request held the lock\n" : "unexpected: $body\n";
var_dump(dlt_redis_leftovers($name));
dlt_signal($srv, 15);
dlt_finish($srv);
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r013-request-end'));
$root = sys_get_temp_dir() . '/dlt-r013-www-';
foreach (glob($root . '*/*.php') as $f) { unlink($f); }
foreach (glob($root . '*') as $d) { @rmdir($d); }
?>
--EXPECT--
request held the lock
bool(true)
array(0) {
}
bool(true)
second request held the lock
array(0) {
}
