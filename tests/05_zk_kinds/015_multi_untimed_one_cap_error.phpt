--TEST--
Multi-lock: an untimed acquire() waits at most one dlock.max_wait for all its parts together (not one per part), and the message names the multi-lock and the true cap
--EXTENSIONS--
dlock
--INI--
dlock.max_wait=2
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$p = [dlt_path('kinds-multicap-a'), dlt_path('kinds-multicap-b'), dlt_path('kinds-multicap-c')];
/* the child holds all three, frees a after 1.3 s and b after 2.6 s, keeps c:
 * with one cap per part the multi-lock would wait about 1.3 + 1.3 + 2 s */
$c = dlt_spawn('
$ls = array_map(fn($p) => new DistributedLock($p, dlt_opts()), array_slice($argv, 1));
foreach ($ls as $l) { $l->acquire(); }
echo "holding\n";
fgets(STDIN);
usleep(1300000); /* a stimulus, not a wait for an event: any timing shows the bound */
$ls[0]->release();
usleep(1300000);
$ls[1]->release();
echo "released\n";
fgets(STDIN);
', $p);
echo dlt_line($c), "\n";
$locks = array_map(fn($x) => new DistributedLock($x, dlt_opts()), $p);
$m = new DistributedMultiLock($locks);
dlt_send($c, 'go');
$t = microtime(true);
try {
    var_dump($m->acquire());
} catch (DistributedLockException $e) {
    echo get_class($e), ': ', $e->getMessage(), "\n";
}
$took = microtime(true) - $t;
echo $took <= 3.2 ? "within one cap\n" : sprintf("TOO LONG: %.2f s for a 2 s cap\n", $took);
var_dump($m->isAcquired(), $locks[0]->isAcquired(), $locks[1]->isAcquired(), $locks[2]->isAcquired());
echo dlt_line($c), "\n";
var_dump(dlt_nodes($p[0]), dlt_nodes($p[1]), dlt_nodes($p[2]));
dlt_send($c, 'done');
dlt_finish($c);
?>
--EXPECTF--
holding
DistributedLockException: /dlock-tests/kinds-multicap-a,/dlock-tests/kinds-multicap-b,/dlock-tests/kinds-multicap-c: not acquired within 2.000 s, the wall-clock cap of acquire() without a timeout (dlock.max_wait, or max_execution_time when dlock.max_wait is -1)
within one cap
bool(false)
bool(false)
bool(false)
bool(false)
released
int(0)
int(0)
int(1)
