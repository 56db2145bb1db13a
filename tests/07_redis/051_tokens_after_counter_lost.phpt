--TEST--
Redis: fencing tokens keep increasing when the counter is lost without the hold (deleted or evicted) and when a server without persistence restarts empty
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$port = dlt_redis_own_port(51);
$addr = dlt_redis_sh('start', (string) $port);   /* no RDB, no AOF: a restart forgets everything */
$name = dlt_rkey('r51-counter');
$counter = 'redisson_lock_token:{' . $name . '}';
$tokens = [];
$l = new DistributedLock($name, dlt_ropts([], $addr));
$l->acquire();
$tokens[] = $l->getFencingToken();
/* what an allkeys-* eviction of the counter does: the hold stays */
var_dump(dlt_redis_at($addr, 'DEL', $counter));
var_dump($l->isAcquired());
$l->release();
$l->acquire();
$tokens[] = $l->getFencingToken();
$l->release();
/* lost again; the next grant is another process's */
dlt_redis_at($addr, 'DEL', $counter);
$c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts([], $argv[2]));
$l->acquire();
echo $l->getFencingToken(), "\n";
$l->release();
', [$name, $addr]);
$tokens[] = (int) dlt_line($c);
var_dump(dlt_finish($c));
/* a restart of a server without persistence loses every key */
dlt_redis_sh('restart', (string) $port);
var_dump(dlt_redis_at($addr, 'EXISTS', $counter));
$l->acquire();
$tokens[] = $l->getFencingToken();
$l->release();
$sorted = $tokens;
sort($sorted);
var_dump(count(array_unique($tokens)), $sorted === $tokens);
echo $sorted === $tokens ? '' : 'tokens: ' . implode(' ', $tokens) . "\n";
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
try { dlt_redis_sh('stop', (string) dlt_redis_own_port(51)); } catch (Throwable $e) { echo $e->getMessage(), "\n"; }
?>
--EXPECT--
int(1)
bool(true)
int(0)
int(0)
int(4)
bool(true)
