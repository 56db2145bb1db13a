--TEST--
Redis 'format' => 'symfony': a dlock lock and symfony/lock's RedisStore (Debian's 5.4) exclude each other on the same key, both ways; the hold is the store's ZSET layout, renewed by the watchdog
--EXTENSIONS--
dlock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif();
if (!is_file('/usr/share/php/Symfony/Component/Lock/autoload.php')) die('skip php-symfony-lock is not installed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
require '/usr/share/php/Symfony/Component/Lock/autoload.php';
[$host, $port] = explode(':', dlt_redis_addr());
$redis = new Redis();
$redis->connect($host, (int) $port);
$factory = new Symfony\Component\Lock\LockFactory(new Symfony\Component\Lock\Store\RedisStore($redis));
$name = dlt_rkey('r31-symfony');

$d = new DistributedLock($name, dlt_ropts(['format' => 'symfony', 'lease' => 1.0]));
var_dump($d->acquire(5), $redis->type($name) === Redis::REDIS_ZSET, count($redis->zRange($name, 0, -1)));
$s = $factory->createLock($name, 30);
var_dump($s->acquire(false));
/* past the lease: the watchdog keeps the ZSET entries alive */
var_dump(dlt_until(fn() => false, 2.5), $d->isAcquired(), $s->acquire(false));
$d->release();
var_dump($redis->exists($name));
var_dump($s->acquire(false), $d->tryAcquire(), DistributedLock::participants($name, dlt_ropts(['format' => 'symfony']))[0]['holder']);
$s->release();
var_dump($d->tryAcquire());
$d->checkHeld();
/* a Symfony shared (read) lock also excludes dlock */
$d->release();
$r = $factory->createLock($name, 30);
var_dump($r->acquireRead(false), $d->tryAcquire());
$r->release();
var_dump($d->tryAcquire());
$d->release();
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r31-symfony'));
?>
--EXPECT--
bool(true)
bool(true)
int(2)
bool(false)
bool(false)
bool(true)
bool(false)
int(0)
bool(true)
bool(false)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
array(0) {
}
