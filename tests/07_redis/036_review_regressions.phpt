--TEST--
Redis regressions from the adversarial review: a fork child of a process whose watchdog runs can take a lock and exit; a key taken over in another format does not make this process's other locks look lost; checkHeld() does not renew past max_hold; names "x" and "{x}" do not share dlock's waiter queue; names under dlock's key prefixes are refused
--EXTENSIONS--
dlock
pcntl
posix
--SKIPIF--
<?php require __DIR__ . '/../inc/redis.inc'; dlt_redis_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/redis.inc';
$n = fn(string $s) => dlt_rkey("r36-$s");

/* 1. fork while the watchdog waits on its condition: the child's own lock and
 * its exit must not hang (it did: the inherited condition variable) */
$p = new DistributedLock($n('parent'), dlt_ropts(['lease' => 3.0]));
$p->acquire(5);
usleep(100000);
$pid = pcntl_fork();
if ($pid === 0) {
    $c = new DistributedLock($n('child'), dlt_ropts(['lease' => 3.0]));
    $c->acquire(5);
    $c->release();
    exit(0);
}
$t = microtime(true);
$st = 0;
while (pcntl_waitpid($pid, $st, WNOHANG) === 0 && microtime(true) - $t < 10) {
    usleep(20000);
}
if (microtime(true) - $t >= 10) {
    posix_kill($pid, SIGKILL);
    pcntl_waitpid($pid, $st);
    echo "child hung\n";
} else {
    echo "child exited: ", pcntl_wexitstatus($st), "\n";
}
$p->release();

/* 2. one lock's key replaced by another format's (it vanished, Laravel took
 * it) must not stop the renewal of this process's other locks */
$a = new DistributedLock($n('a'), dlt_ropts(['lease' => 1.0]));
$a->acquire(5);
$others = [];
for ($i = 0; $i < 10; $i++) {
    $others[$i] = new DistributedLock($n("b$i"), dlt_ropts(['lease' => 1.0]));
    $others[$i]->acquire(5);
}
dlt_redis('DEL', $n('a'));
$q = new DistributedLock($n('a'), dlt_ropts(['lease' => 60.0, 'format' => 'laravel']));
var_dump($q->tryAcquire());
dlt_until(fn() => false, 2.5); /* several renewal rounds */
$held = 0;
foreach ($others as $o) {
    $held += $o->isAcquired();
}
var_dump($held, $a->isAcquired());
foreach ($others as $o) {
    $o->release();
}
$q->release();
try {
    $a->release();
} catch (DistributedLockLostException $e) {
    echo "a: lost\n";
}

/* 3. checkHeld() past max_hold only looks: the lock is freed one lease later */
$m = new DistributedLock($n('maxhold'), dlt_ropts(['lease' => 1.0, 'max_hold' => 1.0]));
$m->acquire(5);
$t = microtime(true);
$lost = false;
while (microtime(true) - $t < 4.0) {
    try {
        $m->checkHeld();
    } catch (DistributedLockLostException $e) {
        $lost = true;
        break;
    }
    usleep(200000);
}
var_dump($lost, microtime(true) - $t < 3.0, (new DistributedLock($n('maxhold'), dlt_ropts()))->tryAcquire());

/* 4. "x" and "{x}" are different locks, also for waiters */
$x = new DistributedLock($n('x'), dlt_ropts());
$x->acquire(5);
$waiter = dlt_rspawn('
$l = new DistributedLock($argv[1], dlt_ropts());
echo "waiting\n";
echo $l->acquire(10) ? "got x\n" : "no x\n";
$l->release();
', [$n('x')]);
echo dlt_line($waiter), "\n";
dlt_until(fn() => count(DistributedLock::participants($n('x'), dlt_ropts())) === 2, 5);
$bx = new DistributedLock('{' . $n('x') . '}', dlt_ropts());
$t = microtime(true);
var_dump($bx->acquire(3.0), microtime(true) - $t < 1.0);
$bx->release();
$x->release();
echo dlt_line($waiter), "\n";
dlt_finish($waiter);

/* 5. names under dlock's own key prefixes */
foreach (['redisson_lock_token:{f}', 'dlock_queue:{f}', 'dlock_wake:x'] as $bad) {
    try {
        new DistributedLock($bad, dlt_ropts());
        echo "accepted $bad?!\n";
    } catch (ValueError $e) {
        echo $e->getMessage(), "\n";
    }
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/redis.inc';
foreach (['parent', 'child', 'a', 'maxhold', 'x'] as $s) {
    dlt_redis_clean(dlt_rkey("r36-$s"));
}
for ($i = 0; $i < 10; $i++) {
    dlt_redis_clean(dlt_rkey("r36-b$i"));
}
dlt_redis_clean('{' . dlt_rkey('r36-x') . '}');
?>
--EXPECTF--
child exited: 0
bool(true)
int(10)
bool(false)
a: lost
bool(true)
bool(true)
bool(true)
waiting
bool(true)
bool(true)
got x
DistributedLock::__construct(): Argument #1 ($path) a Redis lock name must not start with "redisson_lock_token:": dlock keeps its own keys there
DistributedLock::__construct(): Argument #1 ($path) a Redis lock name must not start with "dlock_queue:": dlock keeps its own keys there
DistributedLock::__construct(): Argument #1 ($path) a Redis lock name must not start with "dlock_wake:": dlock keeps its own keys there
