--TEST--
Redis DistributedReadWriteLock: readers share, a writer excludes them; a reader arriving after a queued writer waits behind it (no writer starvation); downgrade is granted with no writer queued and refused (DistributedLockException) with one queued; upgrade refused; participants() says who reads and who writes
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r34-rw');
$a = new DistributedReadWriteLock($name, dlt_ropts());
$b = new DistributedReadWriteLock($name, dlt_ropts());
var_dump($a->readLock()->tryAcquire(), $b->readLock()->tryAcquire());

/* a writer in another process queues behind the two readers */
$w = dlt_rspawn('
$l = new DistributedReadWriteLock($argv[1], dlt_ropts());
echo "waiting\n";
echo $l->writeLock()->acquire(30) ? "writer holds\n" : "writer timed out\n";
fgets(STDIN);
$l->writeLock()->release();
echo "writer released\n";
', [$name]);
echo dlt_line($w), "\n";
var_dump(dlt_until(fn() => count(DistributedReadWriteLock::participants($name, dlt_ropts())) === 3, 10));
/* a reader arriving now may not overtake the queued writer (a try does not queue) */
$c = new DistributedReadWriteLock($name, dlt_ropts());
var_dump($c->readLock()->tryAcquire());
$q = DistributedReadWriteLock::participants($name, dlt_ropts());
echo implode(' ', array_map(fn($e) => ($e['holder'] ? 'H' : 'W') . ':' . $e['type'], $q)), "\n";
/* the upgrade would wait for ourselves */
try {
    $a->writeLock()->acquire();
    echo "upgrade: ok?!\n";
} catch (DistributedLockException $e) {
    echo "upgrade: refused\n";
}
$a->readLock()->release();
$b->readLock()->release();
echo dlt_line($w), "\n";
var_dump($c->readLock()->tryAcquire(), $a->readLock()->tryAcquire());
dlt_send($w, 'go');
echo dlt_line($w), "\n";
var_dump(dlt_finish($w));
var_dump(dlt_until(fn() => $c->readLock()->tryAcquire(), 5));
$c->readLock()->release();

/* downgrade: with no writer queued the read is granted beside our write */
var_dump($a->writeLock()->acquire(5), $a->readLock()->acquire(5), $b->readLock()->tryAcquire());
$a->writeLock()->release();
var_dump($a->readLock()->isAcquired(), $b->readLock()->tryAcquire());
$a->readLock()->release();
$b->readLock()->release();

/* with a writer queued behind our write, a downgrade would let it be overtaken */
var_dump($a->writeLock()->acquire(5));
$w2 = dlt_rspawn('
$l = new DistributedReadWriteLock($argv[1], dlt_ropts());
echo "waiting\n";
echo $l->writeLock()->acquire(30) ? "writer 2 holds\n" : "writer 2 timed out\n";
$l->writeLock()->release();
', [$name]);
echo dlt_line($w2), "\n";
var_dump(dlt_until(fn() => count(DistributedReadWriteLock::participants($name, dlt_ropts())) === 2, 10));
try {
    $a->readLock()->acquire(1);
    echo "downgrade: granted?!\n";
} catch (DistributedLockException $e) {
    echo "downgrade: refused\n";
}
$a->writeLock()->release();
echo dlt_line($w2), "\n";
var_dump(dlt_finish($w2));
var_dump(dlt_until(fn() => DistributedReadWriteLock::participants($name, dlt_ropts()) === [], 5), dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r34-rw'));
?>
--EXPECT--
bool(true)
bool(true)
waiting
bool(true)
bool(false)
H:read H:read W:write
upgrade: refused
writer holds
bool(false)
bool(false)
writer released
int(0)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
waiting
bool(true)
downgrade: refused
writer 2 holds
int(0)
bool(true)
array(0) {
}
