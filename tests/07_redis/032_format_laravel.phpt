--TEST--
Redis 'format' => 'laravel': a dlock lock and Laravel's RedisLock (Debian's illuminate/cache 8.83) exclude each other on the same key, both ways; the hold is Laravel's owner string with a PX lease
--EXTENSIONS--
dlock
igbinary
redis
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif();
if (!is_file('/usr/share/php/Illuminate/Cache/autoload.php')) die('skip php-illuminate-cache is not installed'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
require '/usr/share/php/Illuminate/Cache/autoload.php';

/* Laravel's RedisLock talks to an Illuminate\Redis connection (not packaged
 * in Debian): this passes its calls on to php-redis in Redis's own argument
 * order, as PhpRedisConnection does */
final class Conn
{
    public function __construct(private Redis $r) {}
    public function set($k, $v, ...$o)
    {
        $opt = [];
        for ($i = 0; $i < count($o); $i++) {
            if ($o[$i] === 'EX') {
                $opt['ex'] = $o[++$i];
            } elseif ($o[$i] === 'NX') {
                $opt[] = 'nx';
            }
        }
        return $this->r->set($k, $v, $opt);
    }
    public function setnx($k, $v) { return $this->r->setnx($k, $v) ? 1 : 0; }
    public function eval($script, $n, ...$args) { return $this->r->eval($script, $args, $n); }
    public function del($k) { return $this->r->del($k); }
    public function get($k) { return $this->r->get($k); }
}

[$host, $port] = explode(':', dlt_redis_addr());
$redis = new Redis();
$redis->connect($host, (int) $port);
$name = dlt_rkey('r32-laravel');
$laravel = new Illuminate\Cache\RedisLock(new Conn($redis), $name, 30);

$d = new DistributedLock($name, dlt_ropts(['format' => 'laravel', 'lease' => 1.0]));
var_dump($d->acquire(5), $redis->type($name) === Redis::REDIS_STRING, $redis->pttl($name) <= 1000);
var_dump($laravel->get());
var_dump(dlt_until(fn() => false, 2.5), $d->isAcquired(), $laravel->get(), $laravel->release());
$d->release();
var_dump($redis->exists($name), $laravel->get(), $d->tryAcquire());
var_dump($laravel->release(), $d->tryAcquire());
$d->release();
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r32-laravel'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
bool(true)
bool(false)
bool(false)
int(0)
bool(true)
bool(false)
bool(true)
bool(true)
array(0) {
}
