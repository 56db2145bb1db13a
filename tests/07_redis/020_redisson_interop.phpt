--TEST--
Redis: Redisson interop: a hold taken by Redisson's own lock script excludes dlock, a dlock hold makes Redisson's script fail (it returns the PTTL), and dlock's unlock publishes on Redisson's channel
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r20-redisson');
/* RedissonLock.tryLockInnerAsync and unlockInnerAsync (Redisson 3.x), as sent by Redisson */
$lock = "if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then "
    . "redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end; "
    . "return redis.call('pttl', KEYS[1]);";
$unlock = "if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil; end; "
    . "local counter = redis.call('hincrby', KEYS[1], ARGV[3], -1); "
    . "if (counter > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0; "
    . "else redis.call('del', KEYS[1]); redis.call('publish', KEYS[2], ARGV[1]); return 1; end; return nil;";
$channel = 'redisson_lock__channel:{' . $name . '}';
$javaOwner = '6f1c2a4e-93b5-4b8e-9d1e-3c0a7f5e2b11:1';

/* Redisson holds: dlock's tryAcquire is false, acquire(0.3) times out */
var_dump(dlt_redis('EVAL', $lock, 1, $name, 30000, $javaOwner));
$l = new DistributedLock($name, dlt_ropts());
var_dump($l->tryAcquire(), $l->acquire(0.3), dlt_redis_hash($name) === [$javaOwner => '1']);
/* Redisson unlocks: dlock can take it */
var_dump(dlt_redis('EVAL', $unlock, 2, $name, $channel, 0, 30000, $javaOwner));
var_dump($l->tryAcquire());

/* dlock holds: Redisson's lock script fails and returns the PTTL */
$r = dlt_redis('EVAL', $lock, 1, $name, 30000, $javaOwner);
echo is_int($r) && $r > 0 ? "Redisson's lock script returns the PTTL\n" : 'Redisson got: ' . var_export($r, true) . "\n";
$h = dlt_redis_hash($name);
var_dump(count($h), isset($h[$javaOwner]));
/* Redisson's unlock of a hold that is not its own does nothing */
var_dump(dlt_redis('EVAL', $unlock, 2, $name, $channel, 0, 30000, $javaOwner), $l->isAcquired());
$l->checkHeld();

/* dlock's unlock publishes on Redisson's channel (Redisson's waiters subscribe to it) */
$sub = stream_socket_client('tcp://' . dlt_redis_addr(), $errno, $errstr, 3);
stream_set_timeout($sub, 5);
fwrite($sub, "*2\r\n\$9\r\nSUBSCRIBE\r\n\$" . strlen($channel) . "\r\n$channel\r\n");
$confirm = dlt_resp_read($sub, 'subscriber');
var_dump($confirm[0]);
$l->release();
$msg = dlt_resp_read($sub, 'subscriber');
var_dump($msg[0], $msg[1] === $channel);
fclose($sub);

/* after dlock's release Redisson can lock again */
var_dump(dlt_redis('EVAL', $lock, 1, $name, 30000, $javaOwner));
var_dump(dlt_redis('EVAL', $unlock, 2, $name, $channel, 0, 30000, $javaOwner));
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r20-redisson'));
?>
--EXPECT--
NULL
bool(false)
bool(false)
bool(true)
int(1)
bool(true)
Redisson's lock script returns the PTTL
int(1)
bool(false)
NULL
bool(true)
string(9) "subscribe"
string(7) "message"
bool(true)
NULL
int(1)
array(0) {
}
