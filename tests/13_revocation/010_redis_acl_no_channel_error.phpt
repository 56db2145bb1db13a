--TEST--
Revocation (Redis): an ACL user without the right to the revocation channels gets an immediate DistributedLockException (not a connection failure) naming the right, and its subscriber does not retry
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('revoke-acl-nochannel');
$user = 'dlt_nochan_' . getmypid();
dlt_redis_clean($name);
var_dump(dlt_redis('ACL', 'SETUSER', $user, 'on', '>pw', '~*', 'resetchannels', '+@all'));
dlt_redis('ACL', 'LOG', 'RESET');
/* how many times the server refused $user a channel (ACL LOG groups repeats in "count") */
$refusals = function () use ($user): int {
    $n = 0;
    foreach ((array) dlt_redis('ACL', 'LOG', '1000') as $entry) {
        $e = [];
        for ($i = 0; $i + 1 < count($entry); $i += 2) {
            $e[$entry[$i]] = $entry[$i + 1];
        }
        if (($e['username'] ?? '') === $user && ($e['reason'] ?? '') === 'channel') {
            $n += (int) $e['count'];
        }
    }
    return $n;
};
$opts = ['dsn' => 'redis://' . $user . ':pw@' . dlt_redis_addr(), 'connect_timeout' => 5, 'revocable' => true];
$l = new DistributedLock($name, $opts);
$t = microtime(true);
try {
    $l->acquire(1);
    echo "acquired\n";
} catch (DistributedLockException $e) {
    echo get_class($e), "\n";
    echo str_contains($e->getMessage(), "'&dlock_revoke__channel:*'") && str_contains($e->getMessage(), 'NOPERM') ? "names the right\n" : $e->getMessage() . "\n";
    echo microtime(true) - $t < 2.5 ? "at once\n" : sprintf("after %.1f s\n", microtime(true) - $t);
}
var_dump($l->isAcquired());
$n = $refusals();
echo "refused once: ", var_export($n === 1, true), "\n";
usleep(1500000); /* a retrying subscriber would be refused again every 250 ms in this window */
echo "refusals after 1.5 s more: ", $refusals() - $n, "\n";
/* without revocation the same user locks */
$plain = new DistributedLock($name, ['revocable' => false] + $opts);
var_dump($plain->acquire(5));
$plain->release();
dlt_redis('ACL', 'DELUSER', $user);
dlt_redis_clean($name);
?>
--EXPECT--
string(2) "OK"
DistributedLockException
names the right
at once
bool(false)
refused once: true
refusals after 1.5 s more: 0
bool(true)
