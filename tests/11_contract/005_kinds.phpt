--TEST--
Contract, every backend: readers share a read-write lock and exclude its writer (where offered: not on MySQL), a semaphore admits at most its leases (likewise), a multi-lock holds all its names or none
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
foreach (dlt_backends() as $b => $o) {
    $rwname = dlt_cname('rw', $b);
    if (!dlt_caps($b)['rw']) {
        try {
            new DistributedReadWriteLock($rwname, $o);
            echo "$b: read-write lock: accepted?!\n";
        } catch (DistributedLockException $e) {
            echo "$b: read-write lock: not offered (", get_class($e), ")\n";
        }
    } else {
    $r = new DistributedReadWriteLock($rwname, $o);
    $mine = $r->readLock()->tryAcquire(); /* before the child looks */
    $c = dlt_cspawn('
$rw = new DistributedReadWriteLock($argv[2], $opts);
echo json_encode([$rw->readLock()->tryAcquire(), (new DistributedReadWriteLock($argv[2], $opts))->writeLock()->tryAcquire()]), "\n";
$rw->readLock()->release();
', $o, [$rwname]);
    echo "$b: read ", json_encode($mine), ", other read and write ", dlt_line($c), "\n";
    dlt_finish($c);
    $r->readLock()->release();
    $w = new DistributedReadWriteLock($rwname, $o);
    echo "$b: write once the reads are gone ", json_encode($w->writeLock()->acquire(10)), "\n";
    $w->writeLock()->release();
    }

    $sname = dlt_cname('sem', $b);
    if (!dlt_caps($b)['semaphore']) {
        try {
            new DistributedSemaphore($sname, 2, $o);
            echo "$b: semaphore: accepted?!\n";
        } catch (DistributedLockException $e) {
            echo "$b: semaphore: not offered (", get_class($e), ")\n";
        }
    } else {
    $s1 = new DistributedSemaphore($sname, 2, $o);
    $s2 = new DistributedSemaphore($sname, 2, $o);
    $mine = [$s1->tryAcquire(), $s2->tryAcquire()]; /* before the child tries */
    $c = dlt_cspawn('
$s = new DistributedSemaphore($argv[2], 2, $opts);
echo json_encode($s->tryAcquire()), "\n";
', $o, [$sname]);
    echo "$b: leases ", json_encode($mine), ", a third ", dlt_line($c), "\n";
    dlt_finish($c);
    $s1->release();
    $s2->release();
    }

    $m1 = dlt_cname('multi-1', $b);
    $m2 = dlt_cname('multi-2', $b);
    $hold = new DistributedLock($m2, $o);
    $c = dlt_cspawn('
$l = new DistributedLock($argv[3], $opts);
echo json_encode($l->tryAcquire()), "\n";
echo trim((string) fgets(STDIN)), "\n";
$l->release();
', $o, [$m1, $m2]);
    dlt_line($c);
    $multi = new DistributedMultiLock([new DistributedLock($m1, $o), new DistributedLock($m2, $o)]);
    $none = $multi->tryAcquire();
    $free = new DistributedLock($m1, $o);
    echo "$b: multi while one name is taken ", json_encode([$none, $multi->isAcquired(), $free->tryAcquire()]), "\n";
    $free->release();
    dlt_send($c, 'go');
    dlt_line($c);
    dlt_finish($c);
    echo "$b: multi once it is free ", json_encode([$multi->acquire(10), $multi->isAcquired(), $hold->tryAcquire()]), "\n";
    $multi->release();
}
?>
--EXPECT--
zookeeper: read true, other read and write [true,false]
zookeeper: write once the reads are gone true
zookeeper: leases [true,true], a third false
zookeeper: multi while one name is taken [false,false,true]
zookeeper: multi once it is free [true,true,false]
redis: read true, other read and write [true,false]
redis: write once the reads are gone true
redis: leases [true,true], a third false
redis: multi while one name is taken [false,false,true]
redis: multi once it is free [true,true,false]
postgres: read true, other read and write [true,false]
postgres: write once the reads are gone true
postgres: leases [true,true], a third false
postgres: multi while one name is taken [false,false,true]
postgres: multi once it is free [true,true,false]
mysql: read-write lock: not offered (DistributedLockException)
mysql: semaphore: not offered (DistributedLockException)
mysql: multi while one name is taken [false,false,true]
mysql: multi once it is free [true,true,false]
