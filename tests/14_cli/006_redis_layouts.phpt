--TEST--
dlock command on Redis: ls lists dlock's mutex, read-write lock and semaphore, a symfony/lock-format and a Laravel-format hold and a Redisson hash, not a plain string, a hash without owner fields or the backend's own keys; glob characters in the prefix match themselves; break --force of a semaphore ends every lease and the next grant's token is higher
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
require __DIR__ . '/../inc/cli.inc';
$o = dlt_ropts();
$dsn = $o['dsn'];
$root = dlt_rkey('cli-layouts-[x]*');
$locks = [
    new DistributedLock("$root:m", $o),
    (new DistributedReadWriteLock("$root:rw", $o))->writeLock(),
    $sem = new DistributedSemaphore("$root:sem", 3, $o),
    $sem2 = new DistributedSemaphore("$root:sem", 3, $o),
    new DistributedLock("$root:sym", $o + ['format' => 'symfony']),
    new DistributedLock("$root:lar", $o + ['format' => 'laravel']),
];
foreach ($locks as $l) {
    $l->acquire(5) or print("not acquired\n");
}
dlt_redis('HSET', "$root:redisson", '8743c9c0-0795-4907-87fd-6c719a6b4586:1', 1);
dlt_redis('PEXPIRE', "$root:redisson", 60000);
dlt_redis('SET', "$root:plain", 'a cached value');
dlt_redis('HSET', "$root:hash", 'field', 'value');
dlt_redis('SET', dlt_rkey('cli-layouts-[x]Z:m'), 'glob must not match me');
[$rc, $out] = dlt_cli(['ls', $root], $dsn);
echo "ls rc=$rc\n", str_replace($root, 'ROOT', $out);
$t1 = $sem->getFencingToken();
[$rc, $out] = dlt_cli(['break', '--force', "$root:sem"], $dsn);
echo "break sem rc=$rc ", str_contains($out, 'ended 2 hold') ? 'two leases' : $out, "\n";
foreach ([$sem, $sem2] as $s) {
    try {
        $s->checkHeld();
        echo "still held\n";
    } catch (DistributedLockException $e) {
        echo get_class($e), "\n";
    }
}
$s3 = new DistributedSemaphore("$root:sem", 3, $o);
var_dump($s3->acquire(5), $s3->getFencingToken() > $t1);
$s3->release();
foreach ($locks as $l) {
    try { $l->release(); } catch (DistributedLockException $e) { }
}
dlt_redis('DEL', "$root:redisson", "$root:plain", "$root:hash", dlt_rkey('cli-layouts-[x]Z:m'));
[$rc, $out] = dlt_cli(['ls', $root], $dsn);
echo "after rc=$rc '$out'\n";
?>
--EXPECT--
ls rc=0
mutex        1  ROOT:lar
mutex        1  ROOT:m
mutex        1  ROOT:redisson
rw           1  ROOT:rw
semaphore    2  ROOT:sem
mutex        1  ROOT:sym
break sem rc=0 two leases
DistributedLockLostException
DistributedLockLostException
bool(true)
bool(true)
after rc=1 ''
