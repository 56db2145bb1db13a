--TEST--
Multi-lock on PostgreSQL: an untimed acquire() waits at most one dlock.max_wait for all its parts together (not one per part), and the message names the multi-lock and the true cap
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--INI--
dlock.max_wait=2
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$p = [dlt_skey('s-multicap-a', 'postgres'), dlt_skey('s-multicap-b', 'postgres'), dlt_skey('s-multicap-c', 'postgres')];
/* the child holds all three, frees a after 1.3 s and b after 2.6 s, keeps c:
 * with one cap per part the multi-lock would wait about 1.3 + 1.3 + 2 s */
$c = dlt_sspawn('
$ls = array_map(fn($p) => new DistributedLock($p, dlt_sopts("postgres")), array_slice($argv, 1));
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
$locks = array_map(fn($x) => new DistributedLock($x, dlt_sopts("postgres")), $p);
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
foreach ($p as $x) { var_dump(count(DistributedLock::participants($x, dlt_sopts("postgres")))); }
dlt_send($c, 'done');
dlt_finish($c);
?>
--EXPECTF--
holding
DistributedLockException: dlock-tests:s-multicap-a:postgres,dlock-tests:s-multicap-b:postgres,dlock-tests:s-multicap-c:postgres: not acquired within 2.000 s, the wall-clock cap of acquire() without a timeout (dlock.max_wait, or max_execution_time when dlock.max_wait is -1)
within one cap
bool(false)
bool(false)
bool(false)
bool(false)
released
int(0)
int(0)
int(1)
