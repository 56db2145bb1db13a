--TEST--
Multi-lock: all or none; with one lock held elsewhere, acquire($t) returns false and holds none of the others
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$p = [dlt_path('kinds-multi-a'), dlt_path('kinds-multi-b'), dlt_path('kinds-multi-c')];
$c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
$l->acquire();
echo "holding\n";
fgets(STDIN);
', [$p[1]]);
echo dlt_line($c), "\n";
$locks = [new DistributedLock($p[2], dlt_opts()), new DistributedLock($p[0], dlt_opts()),
          new DistributedLock($p[1], dlt_opts())];
$m = new DistributedMultiLock($locks);
var_dump($m->getPath());
$t = microtime(true);
var_dump($m->acquire(0.5), microtime(true) - $t >= 0.45);
var_dump($m->isAcquired(), $locks[0]->isAcquired(), $locks[1]->isAcquired());
var_dump(dlt_nodes($p[0]), dlt_nodes($p[1]), dlt_nodes($p[2]));
var_dump($m->tryAcquire(), dlt_nodes($p[0]), dlt_nodes($p[2]));
dlt_send($c, 'go');
dlt_finish($c);
var_dump($m->acquire(10), $m->isAcquired(), $m->getFencingToken() === max(array_map(fn($l) => $l->getFencingToken(), $locks)));
$m->release();
var_dump($m->isAcquired(), $locks[2]->isAcquired(), dlt_nodes($p[0]) + dlt_nodes($p[1]) + dlt_nodes($p[2]));
var_dump(array_map(fn($l) => $l->getPath(), $m->getLocks()) === $p);
?>
--EXPECT--
holding
string(80) "/dlock-tests/kinds-multi-a,/dlock-tests/kinds-multi-b,/dlock-tests/kinds-multi-c"
bool(false)
bool(true)
bool(false)
bool(false)
bool(false)
int(0)
int(1)
int(0)
bool(false)
int(0)
int(0)
bool(true)
bool(true)
bool(true)
bool(false)
bool(false)
int(0)
bool(true)
