<?php
/* contender.php: one contender of the randomized fault checker. It runs
 * seeded random scenarios that use every dlock operation (blocking, timed and
 * try acquires, nesting, read-write with downgrade and upgrade attempts,
 * semaphores, multi-locks, synchronized(), checkHeld(), releases in the wrong
 * order, objects dropped while held, requests ended early) until a deadline,
 * and appends what it saw to a history that torture.php checks:
 *   hold  a hold began: id, pid, [[resource, kind, token]...], at (taken after
 *         acquire() returned, so never earlier than the grant)
 *   conf  isAcquired() returned true for hold id; at is taken BEFORE the call,
 *         so the hold is certain from hold.at to its last conf.at
 *   w     a write through the fenced store: token, accepted or rejected
 *   end   a hold ended (how), op (call, timeout, start, end, outcome), mem
 * Critical sections write through a fenced store (a file per resource keeping
 * the highest token accepted, under flock) that rejects older tokens.
 * HOSTS is a ZooKeeper host list, or a redis://, postgres:// or mysql:// DSN:
 * every kind runs on ZooKeeper and Redis (the mixes differ a little); on Redis
 * with a lease of TORTURE_LEASE renewed by the watchdog. The SQL backends run
 * the kinds they offer (TORTURE_MIX below: no semaphore on either, no
 * read-write lock on MySQL); their holds last as long as the server session,
 * with no lease.
 *   php contender.php RUN_DIR SEED DEADLINE HOSTS ID */

require __DIR__ . '/check.php'; /* the run's constants (it runs nothing when included) */

if ($argc < 6) {
    fwrite(STDERR, "usage: contender.php RUN_DIR SEED DEADLINE HOSTS ID\n");
    exit(2);
}
[, $run, $seed, $deadline, $hosts, $cid] = $argv;
$seed = (int) $seed;
$deadline = (float) $deadline;
mt_srand($seed);
$pid = getmypid();
$root = '/torture-' . intdiv($seed, 1000);  /* torture.php gives contender seeds RUNSEED*1000+n */
$backend = preg_match('~^(redis|postgres|mysql)://~', $hosts, $m) ? $m[1] : 'zookeeper';
$redis = $backend === 'redis';
$opts = match ($backend) {
    'redis' => ['dsn' => $hosts, 'lease' => TORTURE_LEASE, 'connect_timeout' => TORTURE_CT],
    'postgres', 'mysql' => ['dsn' => $hosts, 'connect_timeout' => TORTURE_CT],
    default => ['hosts' => $hosts, 'session_timeout' => (int) (TORTURE_ST * 1000), 'connect_timeout' => TORTURE_CT],
};
$hist = fopen("$run/hist-$pid.jsonl", 'a');
$holdSeq = 0;
$allowThrow = false; /* SIGUSR1 may throw only while we are inside a dlock call */

final class TortureSignal extends Exception
{
}

pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use (&$allowThrow) {
    if ($allowThrow && mt_rand(0, 1) === 1) {
        throw new TortureSignal('SIGUSR1');
    }
});

function rec(array $r): void
{
    global $hist, $pid;
    $r['pid'] = $pid;
    fwrite($hist, json_encode($r) . "\n");
}

/** Runs a dlock call, records it as an op with its duration and outcome. */
function op(string $name, string $lock, ?float $timeout, callable $f)
{
    global $allowThrow;
    $s = microtime(true);
    $out = null;
    $allowThrow = true;
    try {
        $r = $f();
        $allowThrow = false;
        $out = is_bool($r) ? ($r ? 'true' : 'false') : 'ok';
        return $r;
    } catch (DistributedLockException | TortureSignal $e) {
        $allowThrow = false;
        $out = get_class($e) . ': ' . $e->getMessage();
        $GLOBALS['refused'] = $GLOBALS['refused'] || $e instanceof DistributedLockConnectionException;
        throw $e;
    } catch (Throwable $e) {
        $allowThrow = false;
        $out = 'UNEXPECTED ' . get_class($e) . ': ' . $e->getMessage();
        throw $e;
    } finally {
        $allowThrow = false;
        rec(['t' => 'op', 'op' => $name, 'lock' => $lock, 'to' => $timeout, 's' => $s,
             'e' => microtime(true), 'r' => $out]);
    }
}

/** A hold of $obj on $parts ([[resource, kind], ...]): returns its id. */
function hold_begin(object $obj, array $parts, float $at): string
{
    global $pid, $holdSeq;
    $id = $pid . '-' . (++$holdSeq);
    $locks = $obj instanceof DistributedMultiLock ? $obj->getLocks() : [$obj];
    $res = [];
    foreach ($parts as $i => [$name, $kind]) {
        try {
            $tok = $locks[$i]->getFencingToken();
        } catch (DistributedLockException $e) {
            $tok = null; /* lost already: the hold has no certain interval */
        }
        $res[] = [$name, $kind, $tok];
    }
    rec(['t' => 'hold', 'h' => $id, 'res' => $res, 'at' => $at]);
    return $id;
}

/** isAcquired() as a certainty record; false ends the hold as lost. */
function confirm(object $obj, string $id): bool
{
    $at = microtime(true);
    if (op('isAcquired', $id, null, fn() => $obj->isAcquired())) {
        rec(['t' => 'conf', 'h' => $id, 'at' => $at]);
        return true;
    }
    rec(['t' => 'end', 'h' => $id, 'how' => 'lost', 'at' => microtime(true)]);
    return false;
}

/** Writes token $tok to the fenced store of resource $res: false when rejected. */
function store_write(string $res, string $id, ?int $tok): bool
{
    global $run;
    $f = fopen("$run/store-$res", 'c+');
    flock($f, LOCK_EX);
    $top = (int) stream_get_contents($f);
    $ok = $tok !== null && $tok >= $top;
    if ($ok) {
        ftruncate($f, 0);
        rewind($f);
        fwrite($f, (string) $tok);
    }
    flock($f, LOCK_UN);
    fclose($f);
    rec(['t' => 'w', 'h' => $id, 'res' => $res, 'tok' => $tok, 'ok' => $ok]);
    return $ok;
}

/** The critical section: confirm, write through the fence, work a little. */
function crit(object $obj, string $id, array $parts): bool
{
    $locks = $obj instanceof DistributedMultiLock ? $obj->getLocks() : [$obj];
    for ($n = mt_rand(1, 3); $n > 0; $n--) {
        /* mostly confirm first; sometimes write blind, as code that trusts the
         * fence does (a stale blind write is what the fence must reject) */
        if (mt_rand(0, 3) !== 0 && !confirm($obj, $id)) {
            return false;
        }
        foreach ($parts as $i => [$name, $kind]) {
            if ($kind === 'X' || $kind === 'W') {
                try {
                    $tok = $locks[$i]->getFencingToken();
                } catch (DistributedLockException $e) {
                    $tok = null;
                }
                store_write($name, $id, $tok);
            }
        }
        $r = mt_rand(0, 99);
        usleep($r < 70 ? mt_rand(0, 3000) : ($r < 95 ? mt_rand(5000, 40000) : mt_rand(100000, 700000)));
    }
    return true;
}

/** A random acquire: try, timed or blocking (capped by dlock.max_wait). */
function grab(object $obj, string $label): bool
{
    $r = mt_rand(0, 99);
    if ($r < 25) {
        return op('tryAcquire', $label, 0.0, fn() => $obj->tryAcquire());
    }
    if ($r < 80) {
        $t = mt_rand(0, 3) === 0 ? mt_rand(1, 100) / 1000 : mt_rand(100, 3000) / 1000;
        return op('acquire', $label, $t, fn() => $obj->acquire($t));
    }
    return op('acquire', $label, null, fn() => $obj->acquire());
}

/** Acquires and, when held, records the hold. After an exception the object
 * may still hold (a signal handler threw after the grant): asked, not assumed. */
function take(object $obj, array $parts, string $label): ?string
{
    try {
        $ok = grab($obj, $label);
    } catch (DistributedLockException | TortureSignal $e) {
        $ok = false;
        if ($obj->isAcquired()) {
            $ok = true;
        }
    }
    return $ok ? hold_begin($obj, $parts, microtime(true)) : null;
}

/** Releases (all holds of) $obj, recording how the hold ended. */
function give(object $obj, ?string $id, string $label): void
{
    $how = 'released';
    try {
        for ($i = 0; heldish($obj); $i++) {
            if ($i === 5) {
                rec(['t' => 'bad', 'what' => "$label: still held after 5 release() calls"]);
                break;
            }
            op('release', $label, null, fn() => $obj->release());
        }
    } catch (DistributedLockException | TortureSignal $e) {
        $how = 'release failed: ' . get_class($e);
    }
    if ($id !== null) {
        rec(['t' => 'end', 'h' => $id, 'how' => $how, 'at' => microtime(true)]);
    }
}

/** True while $obj has local holds to release: isAcquired() is false while a
 * hold is merely uncertain, and release() still owes its delete then. */
function heldish(object $obj): bool
{
    try {
        $obj->getFencingToken();
        return true;
    } catch (DistributedLockException $e) {
        return false;
    }
}

function mutex_path(): array
{
    global $root;
    $r = mt_rand(0, 9);
    if ($r < 6) {
        $n = 'm' . mt_rand(0, 1);
        return ["$root/$n", $n];
    }
    $n = 'o' . mt_rand(0, 4); /* per-entity paths under a container parent */
    return ["$root/orders/$n", $n];
}

/* ---- the scenarios ---- */

function sc_mutex(): void
{
    global $opts;
    [$path, $res] = mutex_path();
    $o = ['reentrant' => true] + $opts;
    $l = new DistributedLock($path, $o);
    $id = take($l, [[$res, 'X']], $res);
    if ($id === null) {
        return;
    }
    crit($l, $id, [[$res, 'X']]);
    $r = mt_rand(0, 99);
    if ($r < 25) { /* nested hold, inner released, outer goes on */
        try {
            $inner = grab($l, $res);
        } catch (DistributedLockException | TortureSignal $e) {
            $inner = false;
        }
        if ($inner) {
            crit($l, $id, [[$res, 'X']]);
            try {
                op('release', $res, null, fn() => $l->release());
            } catch (DistributedLockException | TortureSignal $e) {
            }
            crit($l, $id, [[$res, 'X']]);
        }
    } elseif ($r < 35) {
        try {
            op('checkHeld', $res, null, fn() => $l->checkHeld());
        } catch (DistributedLockException | TortureSignal $e) {
        }
        crit($l, $id, [[$res, 'X']]);
    } elseif ($r < 42) { /* dropped while held: the destructor releases */
        rec(['t' => 'end', 'h' => $id, 'how' => 'dropped', 'at' => microtime(true)]);
        $s = microtime(true);
        unset($l);
        rec(['t' => 'op', 'op' => 'drop', 'lock' => $res, 'to' => null, 's' => $s,
             'e' => microtime(true), 'r' => 'ok']);
        return;
    } elseif ($r < 44) { /* the request ends early while holding */
        $how = mt_rand(0, 1) ? 'exit' : 'throw';
        rec(['t' => 'bye', 'how' => $how, 'at' => microtime(true)]);
        if ($how === 'exit') {
            exit(0);
        }
        throw new LogicException('request ended by an uncaught exception while holding');
    }
    give($l, $id, $res);
}

function sc_nonreentrant(): void
{
    global $opts;
    [$path, $res] = mutex_path();
    $l = new DistributedLock($path, ['reentrant' => false] + $opts);
    $id = take($l, [[$res, 'X']], $res);
    if ($id === null) {
        return;
    }
    crit($l, $id, [[$res, 'X']]);
    try { /* a second acquire on a non-reentrant lock must not succeed */
        $again = op('tryAcquire', $res, 0.0, fn() => $l->tryAcquire());
        if ($again) {
            rec(['t' => 'bad', 'what' => 'non-reentrant lock acquired twice']);
        }
    } catch (DistributedLockException | TortureSignal $e) {
    }
    give($l, $id, $res);
}

function sc_read(): void
{
    global $opts, $root;
    $rw = new DistributedReadWriteLock("$root/rw", $opts);
    $r = $rw->readLock();
    $id = take($r, [['rw', 'R']], 'rw-read');
    if ($id !== null) {
        crit($r, $id, [['rw', 'R']]);
        give($r, $id, 'rw-read');
    }
}

function sc_write(): void
{
    global $opts, $root;
    $rw = new DistributedReadWriteLock("$root/rw", $opts);
    $w = $rw->writeLock();
    $r = $rw->readLock();
    $wid = take($w, [['rw', 'W']], 'rw-write');
    if ($wid === null) {
        return;
    }
    crit($w, $wid, [['rw', 'W']]);
    if (mt_rand(0, 1)) { /* downgrade: read beside our write, then drop the write */
        $rid = take($r, [['rw', 'R']], 'rw-downgrade');
        if ($rid !== null) {
            give($w, $wid, 'rw-write');
            crit($r, $rid, [['rw', 'R']]);
            give($r, $rid, 'rw-read');
            return;
        }
    }
    give($w, $wid, 'rw-write');
}

function sc_upgrade(): void
{
    global $opts, $root;
    $rw = new DistributedReadWriteLock("$root/rw", $opts);
    $r = $rw->readLock();
    $w = $rw->writeLock();
    $rid = take($r, [['rw', 'R']], 'rw-read');
    if ($rid === null) {
        return;
    }
    crit($r, $rid, [['rw', 'R']]);
    /* an upgrade attempt: refused at once untimed, a timed one times out (our
     * own read node is ahead of the write node); it must never be granted */
    $wid = null;
    try {
        $got = mt_rand(0, 1) ? op('acquire', 'rw-upgrade', null, fn() => $w->acquire())
                             : op('acquire', 'rw-upgrade', 0.2, fn() => $w->acquire(0.2));
    } catch (DistributedLockException | TortureSignal $e) {
        $got = $w->isAcquired();
    }
    if ($got) {
        $wid = hold_begin($w, [['rw', 'W']], microtime(true));
        rec(['t' => 'bad', 'what' => 'upgrade granted while our read lock is held']);
        give($w, $wid, 'rw-upgrade');
    }
    give($r, $rid, 'rw-read');
}

function sc_semaphore(): void
{
    global $opts, $root;
    $s = new DistributedSemaphore("$root/sem", 2, $opts);
    $id = take($s, [['sem', 'S']], 'sem');
    if ($id !== null) {
        crit($s, $id, [['sem', 'S']]);
        give($s, $id, 'sem');
    }
}

function sc_multi(): void
{
    global $opts, $root;
    $names = mt_rand(0, 1) ? ['m0', 'm1'] : ['m1', 'm0']; /* the multi-lock orders them itself */
    if (mt_rand(0, 2) === 0) {
        $names[] = 'o' . mt_rand(0, 4);
    }
    $parts = [];
    $locks = [];
    foreach ($names as $n) {
        $locks[] = new DistributedLock($n[0] === 'o' ? "$root/orders/$n" : "$root/$n", $opts);
    }
    $m = new DistributedMultiLock($locks);
    foreach ($m->getLocks() as $l) {
        $n = basename($l->getPath());
        $parts[] = [$n, 'X'];
    }
    $label = 'multi-' . count($parts); /* its call bounds depend on the parts (check.php) */
    $id = take($m, $parts, $label);
    if ($id !== null) {
        crit($m, $id, $parts);
        give($m, $id, $label);
    }
}

function sc_synchronized(): void
{
    global $opts;
    [$path, $res] = mutex_path();
    $l = new DistributedLock($path, $opts);
    $t = mt_rand(0, 1) ? null : mt_rand(50, 3000) / 1000;
    $cb = 0.0;
    $s = microtime(true);
    $out = 'ok';
    $GLOBALS['allowThrow'] = true;
    try {
        $l->synchronized(function () use ($l, $res, &$cb) {
            $GLOBALS['allowThrow'] = false;
            $s = microtime(true);
            $id = hold_begin($l, [[$res, 'X']], $s);
            crit($l, $id, [[$res, 'X']]);
            rec(['t' => 'end', 'h' => $id, 'how' => 'synchronized', 'at' => microtime(true)]);
            $cb = microtime(true) - $s;
            $GLOBALS['allowThrow'] = true;
            return 1;
        }, $t);
    } catch (DistributedLockException | TortureSignal $e) {
        $out = get_class($e) . ': ' . $e->getMessage();
    } finally {
        $GLOBALS['allowThrow'] = false;
        /* the callback's own time is not the call's: it is taken out */
        rec(['t' => 'op', 'op' => 'synchronized', 'lock' => $res, 'to' => $t, 's' => $s,
             'e' => microtime(true) - $cb, 'r' => $out]);
    }
}

function sc_participants(): void
{
    global $opts, $root, $backend, $mix;
    $paths = ["$root/m0", "$root/rw", "$root/sem", "$root/orders/o" . mt_rand(0, 4)];
    if ($backend === 'zookeeper' || $backend === 'redis') {
        $p = $paths[mt_rand(0, $backend === 'redis' ? 3 : 2)];
    } else { /* the kinds the backend's mix has */
        $paths = array_values(array_filter($paths, fn($q) => match (basename($q)) {
            'rw' => isset($mix['sc_read']),
            'sem' => isset($mix['sc_semaphore']),
            default => true,
        }));
        $p = $paths[mt_rand(0, count($paths) - 1)];
    }
    try {
        $n = op('participants', basename($p), null, fn() => match (basename($p)) {
            'sem' => DistributedSemaphore::participants($p, 2, $opts),
            'rw' => DistributedReadWriteLock::participants($p, $opts),
            default => DistributedLock::participants($p, $opts),
        });
    } catch (DistributedLockException | TortureSignal $e) {
        return;
    }
    /* an exclusive lock's list: at most one holder, and it comes first */
    if (basename($p) !== 'sem' && basename($p) !== 'rw') {
        foreach ($n as $i => $e) {
            if ($e['holder'] && $i > 0) {
                rec(['t' => 'bad', 'what' => basename($p) . ': participants() names a holder at position '
                     . "$i: " . json_encode($n)]);
                break;
            }
        }
        if (count(array_unique(array_column($n, 'node'))) !== count($n)) {
            rec(['t' => 'bad', 'what' => basename($p) . ': participants() names one twice: ' . json_encode($n)]);
        }
    }
}

function sc_wrong_order(): void
{
    global $opts, $root;
    $a = new DistributedLock("$root/m0", $opts);
    $b = new DistributedLock("$root/m1", $opts);
    $ia = take($a, [['m0', 'X']], 'm0');
    if ($ia === null) {
        return;
    }
    $ib = null;
    try {
        if (op('acquire', 'm1', 1.0, fn() => $b->acquire(1.0))) {
            $ib = hold_begin($b, [['m1', 'X']], microtime(true));
        }
    } catch (DistributedLockException | TortureSignal $e) {
    }
    crit($a, $ia, [['m0', 'X']]);
    give($a, $ia, 'm0');   /* the first taken is released first */
    if ($ib !== null) {
        crit($b, $ib, [['m1', 'X']]);
        give($b, $ib, 'm1');
    }
}

/* The scenario mix of each backend: a kind a backend does not offer is left
 * out (its constructor throws DistributedLockException "not offered"), so
 * offering one is one entry here. */
const TORTURE_MIX = [
    'zookeeper' => ['sc_mutex' => 30, 'sc_nonreentrant' => 5, 'sc_read' => 12, 'sc_write' => 12,
                    'sc_upgrade' => 4, 'sc_semaphore' => 12, 'sc_multi' => 10, 'sc_synchronized' => 8,
                    'sc_wrong_order' => 7, 'sc_participants' => 2],
    'redis' => ['sc_mutex' => 30, 'sc_nonreentrant' => 6, 'sc_read' => 10, 'sc_write' => 10,
                'sc_upgrade' => 4, 'sc_semaphore' => 10, 'sc_multi' => 12, 'sc_synchronized' => 8,
                'sc_wrong_order' => 7, 'sc_participants' => 3],
    'postgres' => ['sc_mutex' => 30, 'sc_nonreentrant' => 6, 'sc_read' => 10, 'sc_write' => 10,
                   'sc_upgrade' => 4, 'sc_semaphore' => 10, 'sc_multi' => 12, 'sc_synchronized' => 8,
                   'sc_wrong_order' => 7, 'sc_participants' => 3],
    'mysql' => ['sc_mutex' => 36, 'sc_nonreentrant' => 8, 'sc_multi' => 16, 'sc_synchronized' => 10,
                'sc_wrong_order' => 8, 'sc_participants' => 3],
];
$mix = TORTURE_MIX[$backend];
$scenarios = $mix;
$total = array_sum($scenarios);
$n = 0;
/* A SQL server that is down refuses connections at once, and every call
 * fails at once: a scenario that met that is followed by a short pause, so
 * that a server restart is not thousands of identical failures. */
$refused = false;
while (microtime(true) < $deadline) {
    $pick = mt_rand(1, $total);
    foreach ($scenarios as $f => $w) {
        if (($pick -= $w) <= 0) {
            break;
        }
    }
    try {
        $f();
    } catch (DistributedLockException | TortureSignal $e) {
        /* an expected outcome under faults; what it was is in the op record */
    } catch (LogicException $e) {
        throw $e; /* the early request end chosen above */
    } catch (Throwable $e) {
        rec(['t' => 'bad', 'what' => 'unexpected ' . get_class($e) . ': ' . $e->getMessage()
             . ' at ' . $e->getFile() . ':' . $e->getLine()]);
    }
    if ($refused && ($backend === 'postgres' || $backend === 'mysql')) {
        usleep(20000);
    }
    $refused = false;
    if (++$n % 10 === 0) {
        gc_collect_cycles();
        rec(['t' => 'mem', 'n' => $n, 'm' => memory_get_usage()]);
    }
}
rec(['t' => 'bye', 'how' => 'deadline', 'at' => microtime(true)]);
