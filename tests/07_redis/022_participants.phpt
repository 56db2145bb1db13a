--TEST--
Redis: participants() lists the holder first (holder=>true, its token) then the waiters in arrival order (token 0), and follows the queue as it moves
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$name = dlt_rkey('r22-participants');
var_dump(DistributedLock::participants($name, dlt_ropts()));
$holder = new DistributedLock($name, dlt_ropts());
$holder->acquire();
$kids = [];
foreach (['B', 'C'] as $i => $who) {
    $kids[$i] = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
echo "waiting\n";
$l->acquire(30);
echo "' . $who . ' holds\n";
fgets(STDIN);
$l->release();
', [$name]);
    echo dlt_line($kids[$i]), "\n";
    /* the next one arrives only after this one is queued */
    var_dump(dlt_until(fn() => count(DistributedLock::participants($name, dlt_ropts())) === $i + 2, 10));
}
$q = DistributedLock::participants($name, dlt_ropts());
foreach ($q as $e) {
    printf("holder=%s token=%s data=%s node=%s\n", var_export($e['holder'], true),
        $e['holder'] ? ($e['token'] === $holder->getFencingToken() ? 'ours' : $e['token']) : $e['token'],
        var_export($e['data'], true), is_string($e['node']) && $e['node'] !== '' ? 'string' : var_export($e['node'], true));
}
var_dump(count(array_unique(array_column($q, 'node'))));
/* the holder goes: the first waiter holds, the second still waits */
$holder->release();
echo dlt_line($kids[0]), "\n";
$r = DistributedLock::participants($name, dlt_ropts());
var_dump(count($r), $r[0]['holder'], $r[0]['node'] === $q[1]['node'], $r[0]['token'] > $q[0]['token'],
    $r[1]['holder'], $r[1]['node'] === $q[2]['node']);
dlt_send($kids[0], 'go');
echo dlt_line($kids[1]), "\n";
dlt_send($kids[1], 'go');
var_dump(dlt_finish($kids[0]), dlt_finish($kids[1]));
var_dump(dlt_until(fn() => DistributedLock::participants($name, dlt_ropts()) === [], 5));
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
dlt_redis_clean(dlt_rkey('r22-participants'));
?>
--EXPECT--
array(0) {
}
waiting
bool(true)
waiting
bool(true)
holder=true token=ours data='' node=string
holder=false token=0 data='' node=string
holder=false token=0 data='' node=string
int(3)
B holds
int(2)
bool(true)
bool(true)
bool(true)
bool(false)
bool(true)
C holds
int(0)
int(0)
bool(true)
