--TEST--
Redis: fencing tokens strictly increase across successive holders, in this and other processes
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r05-fencing');
$tokens = [];
$l = new DistributedLock($name, dlt_ropts());
for ($i = 0; $i < 3; $i++) {
    $l->acquire();
    $tokens[] = $l->getFencingToken();
    $l->release();
    $c = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
$l->acquire();
echo $l->getFencingToken(), "\n";
$l->release();
', [$name]);
    $tokens[] = (int) dlt_line($c);
    dlt_finish($c);
}
/* a fresh object in this process continues the sequence too */
$m = new DistributedLock($name, dlt_ropts());
$m->acquire();
$tokens[] = $m->getFencingToken();
$m->release();
$sorted = $tokens;
sort($sorted);
var_dump(count(array_unique($tokens)), $sorted === $tokens, min($tokens) > 0);
echo $sorted === $tokens ? '' : 'tokens: ' . implode(' ', $tokens) . "\n";
var_dump(dlt_redis_leftovers($name));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r05-fencing'));
?>
--EXPECT--
int(7)
bool(true)
bool(true)
array(0) {
}
