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
 * HOSTS is a ZooKeeper host list, or a redis:// (rediss://), postgres:// or mysql:// DSN:
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
$backend = preg_match('~^(redis|postgres|mysql)s?://~', $hosts, $m) ? $m[1] : 'zookeeper';
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

/* The generators this run leaves out: DLOCK_TORTURE_SKIP, a comma-separated
 * list (check.php lists every name). Default: every generator runs. */
function gen(string $g): bool
{
    static $skip = null;
    $skip ??= array_filter(array_map('trim', explode(',', (string) getenv('DLOCK_TORTURE_SKIP'))));
    return !in_array($g, $skip, true);
}

/* The acquire in progress (object, parts, label), for the signal handler's
 * generators that use the very object being acquired. */
$cur = null;
$force = false; /* sc_handover(): the next SIGALRM makes a nested wait */
$kids = []; /* forked children still to reap: pid => [since, what] */
$inHandler = false;

pcntl_async_signals(true);
$handler = function (int $sig) use (&$allowThrow) {
    global $inHandler;
    if (!$allowThrow || $inHandler) {
        return;
    }
    $r = mt_rand(0, 99);
    if (!gen('handlers') || $r < 35 && !($GLOBALS['force'] && $sig === SIGALRM)) {
        if (mt_rand(0, 1) === 1) {
            throw new TortureSignal($sig === SIGALRM ? 'SIGALRM' : 'SIGUSR1');
        }
        return;
    }
    $inHandler = true;
    try {
        if ($GLOBALS['force'] && $sig === SIGALRM) {
            handler_nested_wait();
            return;
        }
        handler_use_locks($r);
    } finally {
        $inHandler = false;
    }
};
pcntl_signal(SIGUSR1, $handler);
pcntl_signal(SIGALRM, $handler);

/** What a signal handler does while a dlock call of this process is in
 * flight (the "handlers", "handler-exit" and "fork" generators): it uses
 * other locks of the same backend and server (another name, the same name
 * through another object, the very object being acquired), lists
 * participants(), forks (the child using dlock or not), or ends the process
 * (after releasing what it holds, the SIGTERM pattern of docs/redis.md, or not). */
function handler_use_locks(int $r): void
{
    global $opts, $root, $cur, $allowThrow;
    $outer = $allowThrow;
    try {
        if ($r < 55) { /* another name: a nested wait */
            [$path, $res] = mutex_path();
            $l = new DistributedLock($path, $opts);
            $t = mt_rand(0, 2) ? mt_rand(10, 1500) / 1000 : 0.0;
            $parts = [[$res, 'X']];
            if (op($t > 0 ? 'acquire' : 'tryAcquire', "h:$res", $t, fn() => $l->acquire($t), $parts)) {
                $id = hold_begin($l, $parts, microtime(true));
                crit($l, $id, $parts, true);
                give($l, $id, "h:$res");
            }
        } elseif ($r < 65 && $cur !== null && $cur[1] && !($cur[0] instanceof DistributedMultiLock)) {
            /* the same name through another object of the same kind */
            [$obj, $parts, $label] = $cur;
            /* the same server and database as the interrupted object: m0@db2
             * lives in the second database (sc_users), and an object on the
             * first one's m0 is another lock (recorded as m0@db2, it mixed
             * the two databases' token counters in the history) */
            $o2 = str_ends_with($parts[0][0], '@db2') ? ['dsn' => getenv('DLOCK_TORTURE_DB2')] + $opts : $opts;
            $l = $obj instanceof DistributedSemaphore
                ? new DistributedSemaphore($obj->getPath(), $obj->getMaxLeases(), $o2)
                : new DistributedLock($obj->getPath(), $o2);
            $kind = $obj instanceof DistributedSemaphore ? 'S' : 'X';
            if ($parts[0][1] === 'R' || $parts[0][1] === 'W') {
                $rw = new DistributedReadWriteLock($obj->getPath(), $o2);
                $kind = mt_rand(0, 1) ? 'R' : 'W';
                $l = $kind === 'R' ? $rw->readLock() : $rw->writeLock();
            }
            $p2 = [[$parts[0][0], $kind]];
            /* a wait behind our own interrupted acquire: a timed one may time
             * out, an untimed one must be refused (the self-wait rule) */
            $q = mt_rand(0, 9);
            $t = $q < 3 ? 0.0 : ($q < 8 ? mt_rand(200, 1500) / 1000 : null);
            if (op($t === 0.0 ? 'tryAcquire' : 'acquire', "h:$label", $t, fn() => $l->acquire($t), $p2)) {
                $id = hold_begin($l, $p2, microtime(true));
                crit($l, $id, $p2, true);
                give($l, $id, "h:$label");
            }
        } elseif ($r < 72 && $cur !== null) {
            /* the very object being acquired */
            [$obj, $parts, $label] = $cur;
            if (mt_rand(0, 1)) {
                op('isAcquired', "h-self:$label", null, fn() => $obj->isAcquired());
            } elseif (op('tryAcquire', "h-self:$label", 0.0, fn() => $obj->tryAcquire(), $parts)) {
                op('release', "h-self:$label", null, fn() => $obj->release());
            }
        } elseif ($r < 80) {
            $p = mt_rand(0, 1) ? "$root/m" . mt_rand(0, 1) : "$root/orders/o" . mt_rand(0, 4);
            op('participants', 'h:' . basename($p), null, fn() => DistributedLock::participants($p, $opts));
        } elseif ($r < 92 && gen('fork')) {
            fork_child('handler');
        } elseif (gen('handler-exit')) {
            handler_exit();
        }
    } catch (DistributedLockException | TortureSignal $e) {
        /* recorded in the op */
    } finally {
        $allowThrow = $outer;
    }
}

/** sc_handover()'s handler: a short wait on a lock our process holds
 * through another object (it times out), in the middle of the outer wait. */
function handler_nested_wait(): void
{
    global $opts, $root, $pid, $allowThrow;
    $outer = $allowThrow;
    try {
        $l = new DistributedLock("$root/hv-$pid", $opts);
        $t = mt_rand(300, 900) / 1000;
        if (op('acquire', 'h:hv', $t, fn() => $l->acquire($t), [["hv-$pid", 'X']])) {
            op('release', 'h:hv', null, fn() => $l->release());
        }
    } catch (DistributedLockException | TortureSignal $e) {
    } finally {
        $allowThrow = $outer;
    }
}

/** The handler ends the process mid-call: either the SIGTERM pattern of
 * docs/redis.md (release what we hold, then exit) or a bare exit (request
 * shutdown releases). */
function handler_exit(): void
{
    global $held;
    rec(['t' => 'bye', 'how' => 'sigexit', 'at' => microtime(true)]);
    if (mt_rand(0, 1)) {
        foreach ($held as [$obj, $id, $label]) {
            try {
                while (heldish($obj)) {
                    op('release', "h:$label", null, fn() => $obj->release());
                }
                rec(['t' => 'end', 'h' => $id, 'how' => 'released', 'at' => microtime(true)]);
            } catch (DistributedLockException $e) {
            }
        }
    }
    exit(0);
}

/** Forks; the child (with its own history) checks that it holds none of
 * the parent's locks (isAcquired() false, release() refused), maybe uses
 * dlock on a lock of its own, maybe keeps the inherited sockets a while,
 * then ends by exit() (a request shutdown that must not touch the parent's
 * locks) or SIGKILL. The parent reaps it later (reap_kids()). */
function fork_child(string $why): void
{
    global $pid, $hist, $run, $held, $kids, $opts, $root, $cur;
    $parent = $pid;
    $k = pcntl_fork();
    if ($k < 0) {
        return;
    }
    if ($k > 0) {
        $kids[$k] = [microtime(true), $why];
        return;
    }
    /* the child */
    $pid = getmypid();
    $hist = fopen("$run/hist-$pid.jsonl", 'a');
    rec(['t' => 'child', 'parent' => $parent, 'why' => $why, 'at' => microtime(true)]);
    $cur = null;
    foreach ($held as [$obj, $id, $label]) {
        try {
            if ($obj->isAcquired()) {
                rec(['t' => 'bad', 'what' => "forked child ($why) says isAcquired() of its parent's $label hold $id"]);
            }
        } catch (Throwable $e) {
        }
        try {
            $obj->release();
            rec(['t' => 'bad', 'what' => "forked child ($why) released its parent's $label hold $id"]);
        } catch (Throwable $e) {
        }
    }
    $m = mt_rand(0, 3);
    if ($m === 0) { /* the child uses dlock on a lock of its own */
        try {
            $l = new DistributedLock("$root/kid-$pid", $opts);
            if (op('acquire', 'kid', 2.0, fn() => $l->acquire(2.0))) {
                op('release', 'kid', null, fn() => $l->release());
            }
        } catch (Throwable $e) {
        }
    } elseif ($m === 1) { /* keeps the inherited sockets a while (past REACH) */
        usleep(mt_rand(200000, 16000000));
    }
    rec(['t' => 'bye', 'how' => 'child', 'at' => microtime(true)]);
    if (mt_rand(0, 1)) {
        posix_kill($pid, SIGKILL);
    }
    exit(0);
}

/** Reaps forked children; with $wait, waits for them (a child must end on
 * its own within connect_timeout + 6 s + slack, else it hangs: reported). */
function reap_kids(bool $wait): void
{
    global $kids;
    foreach ($kids as $k => [$since, $why]) {
        for (;;) {
            $r = pcntl_waitpid($k, $st, WNOHANG);
            if ($r !== 0) {
                unset($kids[$k]);
                if ($r > 0 && pcntl_wifsignaled($st) && pcntl_wtermsig($st) !== SIGKILL) {
                    rec(['t' => 'bad', 'what' => "forked child $k ($why) died of signal " . pcntl_wtermsig($st)]);
                }
                break;
            }
            if (microtime(true) - $since > TORTURE_CT + 16.0 + TORTURE_SLACK + 4.0) {
                rec(['t' => 'bad', 'what' => "forked child $k ($why) did not end (a hang)" . hang_stacks($k)]);
                posix_kill($k, SIGKILL);
                pcntl_waitpid($k, $st);
                unset($kids[$k]);
                break;
            }
            if (!$wait) {
                break;
            }
            usleep(20000);
        }
    }
}

/** Where hung process $k's threads are, for the violation line: gdb's
 * backtraces when gdb is installed, else each thread's wait channel. */
function hang_stacks(int $k): string
{
    $out = '';
    if (is_executable('/usr/bin/gdb')) {
        $bt = (string) shell_exec('timeout 20 gdb -p ' . $k . ' -batch -ex "thread apply all bt 12" 2>/dev/null');
        $out = implode(' | ', array_filter(explode("\n", $bt), fn($l) => preg_match('/^(Thread |#\d+ )/', $l)));
    }
    if ($out === '') {
        foreach (glob("/proc/$k/task/*") ?: [] as $t) {
            $out .= basename($t) . ': ' . trim((string) @file_get_contents("$t/wchan")) . ' ';
        }
    }
    return $out === '' ? '' : '; stacks: ' . substr($out, 0, 6000);
}

function rec(array $r): void
{
    global $hist, $pid;
    $r['pid'] = $pid;
    fwrite($hist, json_encode($r) . "\n");
}

/** Runs a dlock call, records it as an op with its duration and outcome
 * (and, for acquires, the parts it waits for: the liveness judge's input).
 * It may run inside a signal handler during another op. */
function op(string $name, string $lock, ?float $timeout, callable $f, ?array $parts = null)
{
    global $allowThrow, $lastOp;
    $s = microtime(true);
    $out = null;
    $outer = $allowThrow;
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
        $allowThrow = $GLOBALS['inHandler'] ? $outer : false;
        $e2 = microtime(true);
        $lastOp = [$s, $e2];
        $r = ['t' => 'op', 'op' => $name, 'lock' => $lock, 'to' => $timeout, 's' => $s, 'e' => $e2, 'r' => $out];
        if ($parts !== null) {
            $r['res'] = array_map(fn($p) => [$p[0], $p[1]], $parts);
        }
        rec($r);
    }
}

/** A hold of $obj on $parts ([[resource, kind], ...]): returns its id. */
function hold_begin(object $obj, array $parts, float $at): string
{
    global $pid, $holdSeq, $lastOp, $held;
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
    /* as/ae: the acquire call that granted it (the grant lies between) */
    rec(['t' => 'hold', 'h' => $id, 'res' => $res, 'at' => $at, 'as' => $lastOp[0] ?? $at,
         'ae' => $lastOp[1] ?? $at]);
    $held[$id] = [$obj, $id, implode('+', array_column($parts, 0))];
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
    unset($GLOBALS['held'][$id]);
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
function crit(object $obj, string $id, array $parts, bool $short = false): bool
{
    $locks = $obj instanceof DistributedMultiLock ? $obj->getLocks() : [$obj];
    /* the "long" generator: now and then a hold of 3-8 s (so that a waiter
     * that missed its wake-up waits long enough for the liveness judge) */
    $n = !$short && gen('long') && mt_rand(0, 9) === 0 ? mt_rand(8, 20) : mt_rand(1, 3);
    $long = $n > 3;
    for (; $n > 0; $n--) {
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
        if ($long) {
            usleep(mt_rand(250000, 450000));
        } elseif (!$short) {
            usleep($r < 70 ? mt_rand(0, 3000) : ($r < 95 ? mt_rand(5000, 40000) : mt_rand(100000, 700000)));
        }
        if (!$short && gen('fork') && mt_rand(0, 39) === 0) {
            fork_child('holding'); /* fork while holding */
        }
    }
    return true;
}

/** A random acquire: try, timed or blocking (capped by dlock.max_wait). */
function grab(object $obj, string $label, ?array $parts = null): bool
{
    global $cur;
    $r = mt_rand(0, 99);
    $cur = [$obj, $parts ?? [], $label];
    try {
        if ($r < 25) {
            return op('tryAcquire', $label, 0.0, fn() => $obj->tryAcquire(), $parts);
        }
        /* the "long" generator: waits long enough for the liveness judge */
        if ($r < 80 && !(gen('long') && $r >= 65)) {
            $t = mt_rand(0, 3) === 0 ? mt_rand(1, 100) / 1000 : mt_rand(100, 3000) / 1000;
        } else {
            $t = $r < 80 ? mt_rand(5000, 12000) / 1000 : null;
        }
        /* the "handlers" generator: a signal of our own arrives mid-wait */
        $alarm = gen('handlers') && ($t === null || $t >= 1.5) && mt_rand(0, 3) === 0;
        if ($alarm) {
            pcntl_alarm(1);
        }
        try {
            return op('acquire', $label, $t, fn() => $obj->acquire($t), $parts);
        } finally {
            if ($alarm) {
                pcntl_alarm(0);
            }
        }
    } finally {
        $cur = null;
    }
}

/** Acquires and, when held, records the hold. After an exception the object
 * may still hold (a signal handler threw after the grant): asked, not assumed. */
function take(object $obj, array $parts, string $label): ?string
{
    try {
        $ok = grab($obj, $label, $parts);
    } catch (DistributedLockException | TortureSignal $e) {
        $ok = false;
        if ($obj->isAcquired()) {
            $ok = true;
        }
    }
    return $ok ? hold_begin($obj, $parts, microtime(true)) : null;
}

/** Releases (all holds of) $obj, recording how the hold ended. */
function give(object $obj, ?string $id, string $label): string
{
    $how = 'released';
    try {
        /* release() at least once, as a user's finally block does: a hold
         * that is lost or uncertain fails getFencingToken() but still has a
         * local hold, which only release() drops (with an exception) */
        for ($i = 0; $i === 0 || heldish($obj); $i++) {
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
        unset($GLOBALS['held'][$id]);
    }
    return $how;
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
            $inner = grab($l, $res, [[$res, 'X']]);
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
        unset($GLOBALS['held'][$id]);
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

/* The "revoke" generator: a revocable holder that gives the lock up when a
 * revocation request reaches it (its listener runs at a safe point and only
 * sets a flag; the critical section stops at its next step and releases), or
 * one that ignores requests and keeps the lock for its whole section; the
 * requests come from sc_revoke_request() of any contender on the same
 * mutex paths. A request never releases: the ignoring holder's later
 * isAcquired() confirmations are judged for exclusion like any other. */
function sc_revocable(): void
{
    global $opts, $root;
    [$path, $res] = mt_rand(0, 2) ? ["$root/m0", 'm0'] : mutex_path(); /* where requests go */
    $obey = mt_rand(0, 1) === 1;
    $l = new DistributedLock($path, ['revocable' => true] + $opts);
    $asked = false;
    if ($obey) {
        $l->onRevocation(function (DistributedLock $lock) use (&$asked) {
            $asked = true;
        });
    }
    $id = take($l, [[$res, 'X']], $res);
    if ($id === null) {
        return;
    }
    $steps = mt_rand(2, 8);
    $self = mt_rand(0, 1) === 0 ? mt_rand(0, $steps - 1) : -1; /* now and then: ask ourselves */
    for ($i = 0; $i < $steps && !($obey && $asked); $i++) {
        if (!crit($l, $id, [[$res, 'X']], true)) {
            return; /* lost (a fault): crit() recorded the end */
        }
        if ($i === $self) {
            revoke_request($path, $res);
        }
        /* a step of work that reaches safe points (where a listener runs) */
        $until = microtime(true) + mt_rand(5, 150) / 1000;
        while (microtime(true) < $until && !($obey && $asked)) {
            usleep(2000);
        }
    }
    if ($l->isRevocationRequested() || $asked) {
        if ($obey && !$asked) {
            rec(['t' => 'bad', 'what' => "$res: isRevocationRequested() true but the listener never ran"]);
        }
        rec(['t' => 'rv', 'h' => $id, 'how' => $obey ? 'released' : 'ignored', 'at' => microtime(true)]);
        if (!$obey && !confirm($l, $id)) {
            return; /* an ignored request keeps the hold: confirmed (and judged) once more */
        }
    }
    /* a release that failed (a signal, a lost connection) may leave the
     * hold, and its request, in place */
    if (give($l, $id, $res) === 'released' && $l->isRevocationRequested()) {
        rec(['t' => 'bad', 'what' => "$res: isRevocationRequested() true after release"]);
    }
}

/** Asks the holders of a mutex path to give it up (any contender may). */
function sc_revoke_request(): void
{
    global $root;
    [$path, $res] = mt_rand(0, 2) ? ["$root/m0", 'm0'] : mutex_path();
    revoke_request($path, $res);
}

function revoke_request(string $path, string $res): void
{
    global $opts;
    try {
        $n = op('requestRevocation', $res, null, fn() => DistributedLock::requestRevocation($path, $opts));
        if ($n < 0 || $n > 1) {
            rec(['t' => 'bad', 'what' => "$res: requestRevocation() asked $n holders of a mutex"]);
        }
        rec(['t' => 'ask', 'n' => $n, 'at' => microtime(true)]);
    } catch (DistributedLockException | TortureSignal $e) {
    }
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
            unset($GLOBALS['held'][$id]);
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
             'e' => microtime(true) - $cb, 'e2' => microtime(true), 'r' => $out]);
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
        if (op('acquire', 'm1', 1.0, fn() => $b->acquire(1.0), [['m1', 'X']])) {
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

/** A forked child that takes a lock of its own ($make builds it) and holds
 * it $for seconds, confirming; it tells the parent over $sock whether it got
 * it ("1"/"0"). It ends by exit() or SIGKILL, never returning. */
function spawn_holder(callable $make, array $parts, float $for): ?array
{
    global $pid, $hist, $run, $kids, $cur, $held;
    $pair = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
    $parent = $pid;
    $k = pcntl_fork();
    if ($k < 0) {
        return null;
    }
    if ($k > 0) {
        fclose($pair[1]);
        $kids[$k] = [microtime(true), 'holder'];
        stream_set_timeout($pair[0], 9);
        $ok = trim((string) fgets($pair[0])) === '1';
        fclose($pair[0]);
        return $ok ? [$k] : null;
    }
    fclose($pair[0]);
    $pid = getmypid();
    $hist = fopen("$run/hist-$pid.jsonl", 'a');
    rec(['t' => 'child', 'parent' => $parent, 'why' => 'holder', 'at' => microtime(true)]);
    $cur = null;
    $held = [];
    /* its release completes before it may SIGKILL itself: the hand-over's
     * start is then its end record */
    ini_set('dlock.async_release', '0');
    $ok = false;
    try {
        $l = $make();
        $ok = op('acquire', 'kid-' . preg_replace('/-\d+$/', '', $parts[0][0]), 6.0, fn() => $l->acquire(6.0), $parts);
    } catch (Throwable $e) {
    }
    fwrite($pair[1], $ok ? "1\n" : "0\n");
    if ($ok) {
        $id = hold_begin($l, $parts, microtime(true));
        $until = microtime(true) + $for;
        while (microtime(true) < $until && confirm($l, $id)) {
            usleep(150000);
        }
        give($l, $id, 'kid');
    }
    rec(['t' => 'bye', 'how' => 'child', 'at' => microtime(true)]);
    if (mt_rand(0, 1)) {
        posix_kill($pid, SIGKILL);
    }
    exit(0);
}

/** The "handover" generator: hand-overs between processes that the
 * liveness judge can time. Children (spawn_holder()) hold first, then we
 * wait with acquire(12):
 *   semaphore of 2: child 1 holds 9-10 s, child 2 holds 1 s; our lease must
 *     come when child 2 releases (we queue behind both);
 *   mutex, write lock, read lock behind a write lock: the child holds 1-2 s.
 * Half the time a SIGALRM arrives mid-wait and the handler waits, briefly,
 * on another lock (a name our process holds through another object): the
 * outer wait must still be woken by the hand-over. */
function sc_handover(): void
{
    global $opts, $root, $pid, $backend, $force, $kids;
    $k = mt_rand(0, 3);
    if ($k === 0 && !isset(TORTURE_MIX[$backend]['sc_semaphore'])) {
        $k = 1;
    }
    if ($k >= 2 && !isset(TORTURE_MIX[$backend]['sc_read'])) {
        $k = 1;
    }
    /* names of our own, so that nobody else's holds blur the hand-over */
    $kidsNow = [];
    if ($k === 0) {
        $res = "semh-$pid";
        $mk = fn() => new DistributedSemaphore("$root/$res", TORTURE_SEM, $opts);
        $kidsNow[] = spawn_holder($mk, [[$res, 'S']], mt_rand(9000, 10000) / 1000);
        $kidsNow[] = $kidsNow[0] ? spawn_holder($mk, [[$res, 'S']], 1.0) : null;
        $l = $mk();
        $parts = [[$res, 'S']];
    } elseif ($k === 1) {
        $res = "ho-$pid";
        $kidsNow[] = spawn_holder(fn() => new DistributedLock("$root/$res", $opts), [[$res, 'X']],
            mt_rand(1000, 2000) / 1000);
        $l = new DistributedLock("$root/$res", $opts);
        $parts = [[$res, 'X']];
    } else {
        $res = "rwh-$pid";
        $kidsNow[] = spawn_holder(fn() => (new DistributedReadWriteLock("$root/$res", $opts))->writeLock(),
            [[$res, 'W']], mt_rand(1000, 2000) / 1000);
        $rw = new DistributedReadWriteLock("$root/$res", $opts);
        $l = $k === 2 ? $rw->readLock() : $rw->writeLock();
        $parts = [[$res, $k === 2 ? 'R' : 'W']];
    }
    if (in_array(null, $kidsNow, true)) {
        reap_kids(true);
        return;
    }
    $hv = null;
    if (gen('handlers') && mt_rand(0, 1)) {
        $hv = new DistributedLock("$root/hv-$pid", $opts);
        try {
            $hv = op('tryAcquire', 'hv', 0.0, fn() => $hv->tryAcquire()) ? $hv : null;
        } catch (DistributedLockException | TortureSignal $e) {
            $hv = null;
        }
    }
    $force = $hv !== null;
    if ($force) {
        pcntl_alarm(1);
    }
    try {
        $ok = op('acquire', 'handover-' . preg_replace('/-\d+$/', '', $res), 12.0, fn() => $l->acquire(12.0), $parts);
    } catch (DistributedLockException | TortureSignal $e) {
        $ok = $l->isAcquired();
    } finally {
        pcntl_alarm(0);
        $force = false;
    }
    if ($ok) {
        $id = hold_begin($l, $parts, microtime(true));
        crit($l, $id, $parts, true);
        give($l, $id, "handover-$res");
    }
    if ($hv !== null) {
        try {
            op('release', 'hv', null, fn() => $hv->release());
        } catch (DistributedLockException | TortureSignal $e) {
        }
    }
    reap_kids(true);
}

/** The "many" generator: more than 64 holds on one name in one process
 * (66 read locks, then our own write lock must be refused; 66 leases of a
 * semaphore of 66, then one more must be refused). One contender at a time. */
function sc_many(): void
{
    global $opts, $root, $run, $backend;
    $f = fopen("$run/many.lock", 'c');
    $rw = null;
    if (!flock($f, LOCK_EX | LOCK_NB)) {
        return;
    }
    $sem = $backend !== 'postgres' && mt_rand(0, 1) === 0 || $backend === 'postgres' && mt_rand(0, 2) === 0;
    $got = [];
    try {
        for ($i = 0; $i < 66; $i++) {
            if ($sem) {
                $o = new DistributedSemaphore("$root/big", TORTURE_BIG, $opts);
                $parts = [['big', 'S']];
            } else {
                $rw = new DistributedReadWriteLock("$root/rwm", $opts);
                $o = $rw->readLock();
                $parts = [['rwm', 'R']];
            }
            try {
                $ok = op('acquire', 'many', 2.0, fn() => $o->acquire(2.0), $parts);
            } catch (DistributedLockException | TortureSignal $e) {
                $ok = $o->isAcquired();
            }
            if (!$ok) {
                break;
            }
            $got[] = [$o, hold_begin($o, $parts, microtime(true)), $rw ?? null];
        }
        foreach ($got as [$o, $id]) {
            confirm($o, $id);
        }
        if (count($got) > 64 && $sem && $backend === 'postgres') {
            /* and two mutexes on the same name (the PostgreSQL semaphore's
             * slots are other server locks than the name's own): the second
             * must be refused while the first holds, however many other
             * holds of that name this process has */
            $m1 = new DistributedLock("$root/big", $opts);
            $m2 = new DistributedLock("$root/big", $opts);
            try {
                if (op('tryAcquire', 'many-mutex', 0.0, fn() => $m1->tryAcquire(), [['bigx', 'X']])) {
                    $i1 = hold_begin($m1, [['bigx', 'X']], microtime(true));
                    if (op('tryAcquire', 'many-mutex', 0.0, fn() => $m2->tryAcquire(), [['bigx', 'X']])) {
                        $i2 = hold_begin($m2, [['bigx', 'X']], microtime(true));
                        rec(['t' => 'bad', 'what' => 'a second DistributedLock granted beside the first and '
                            . count($got) . ' semaphore leases of ours on one name']);
                        confirm($m1, $i1);
                        confirm($m2, $i2);
                        give($m2, $i2, 'many-mutex');
                    }
                    give($m1, $i1, 'many-mutex');
                }
            } catch (DistributedLockException | TortureSignal $e) {
            }
        }
        if (count($got) > 64) {
            $o = $sem ? new DistributedSemaphore("$root/big", TORTURE_BIG, $opts)
                      : (new DistributedReadWriteLock("$root/rwm", $opts))->writeLock();
            $parts = $sem ? [['big', 'S']] : [['rwm', 'W']];
            try {
                $extra = op('tryAcquire', 'many-extra', 0.0, fn() => $o->tryAcquire(), $parts);
            } catch (DistributedLockException | TortureSignal $e) {
                $extra = $o->isAcquired();
            }
            /* a fault (a session kill, a lease lost to a pause) may have
             * freed one of ours in the meantime: only a grant beside every
             * one of them still held is a double grant */
            $still = 0;
            foreach ($extra ? $got : [] as [$g]) {
                try {
                    $g->checkHeld();
                    $still++;
                } catch (DistributedLockException | TortureSignal $e) {
                }
            }
            if ($extra) {
                $id = hold_begin($o, $parts, microtime(true));
            }
            if ($extra && $still === count($got) && count($got) >= TORTURE_BIG) {
                rec(['t' => 'bad', 'what' => ($sem ? 'semaphore lease ' . (count($got) + 1) . ' of ' . TORTURE_BIG
                    : 'write lock') . ' granted beside ' . count($got) . ' holds of ours on one name']);
            }
            if ($extra) {
                confirm($o, $id);
                give($o, $id, 'many-extra');
            }
        }
    } finally {
        foreach (array_reverse($got) as [$o, $id]) {
            give($o, $id, 'many');
        }
        flock($f, LOCK_UN);
        fclose($f);
    }
}

/** A hold of several locks for 2.4-5 s, confirmed every 0.3 s: a hold that
 * is lost while no fault touched it is what the loss judge reports. */
function hold_long(array $holds): void
{
    for ($n = mt_rand(8, 16); $n > 0 && $holds; $n--) {
        foreach ($holds as $k => [$l, $id, $res]) {
            if (!confirm($l, $id)) {
                unset($holds[$k]);
                continue;
            }
            try {
                store_write($res, $id, $l->getFencingToken());
            } catch (DistributedLockException $e) {
            }
        }
        usleep(300000);
    }
}

/** The "users" generator: one process, two credentials. Redis: m0 as ACL
 * user alice and m1 as bob, on the same server, held together past several
 * leases. MySQL: m0 through a second database of the same server: a lock
 * lives in its DSN's database (docs/sql.md, "Waiting in the server"), so this is
 * its own resource, m0@db2, whose holders must exclude each other and whose
 * tokens must stay ordered beside the first database's m0. */
function sc_users(): void
{
    global $hosts, $root, $opts, $backend;
    $holds = [];
    if ($backend === 'redis') {
        $u = explode(',', (string) getenv('DLOCK_TORTURE_USERS'));
        foreach ([0, 1] as $i) {
            $dsn = preg_replace('~^(rediss?)://~', "\$1://{$u[$i]}@", $hosts);
            $l = new DistributedLock("$root/m$i", ['dsn' => $dsn] + $opts);
            $id = take($l, [["m$i", 'X']], "m$i-user$i");
            if ($id !== null) {
                $holds[] = [$l, $id, "m$i"];
            }
        }
    } else {
        $l = new DistributedLock("$root/m0", ['dsn' => getenv('DLOCK_TORTURE_DB2')] + $opts);
        $id = take($l, [['m0@db2', 'X']], 'm0-db2');
        if ($id !== null) {
            $holds[] = [$l, $id, 'm0@db2'];
        }
    }
    hold_long($holds);
    foreach ($holds as [$l, $id, $res]) {
        give($l, $id, $res);
    }
}

/** The "servers" generator (Redis): a lock on the run's server (lease 1.5 s)
 * and two on a second server (below) that torture.php stalls now and
 * then (DEBUG SLEEP, CLIENT PAUSE): renewing the second must never cost the
 * first its lease, and ending the request while the second is stalled must
 * take no longer than connect_timeout. */
function sc_servers(): void
{
    global $root, $opts, $pid;
    /* one lock on the second server held for the rest of the process's
     * life (lease 30 s, renewed every 10 s: renewals meet the stalls, and
     * the request end must not wait for them), and one per scenario with a
     * lease of 3 s (renewed every second) */
    static $keep = null;
    if ($keep === null) {
        $keep = new DistributedLock("$root/bk-$pid", ['dsn' => getenv('DLOCK_TORTURE_REDIS2'), 'lease' => 30] + $opts);
        if (take($keep, [["b:k$pid", 'X']], 'bk') === null) {
            $keep = null;
        }
    }
    $b = new DistributedLock("$root/b-$pid", ['dsn' => getenv('DLOCK_TORTURE_REDIS2'), 'lease' => 3] + $opts);
    $holds = [];
    $id = take($b, [["b:$pid", 'X']], 'b');
    if ($id !== null) {
        $holds[] = [$b, $id, "b:$pid"];
    }
    $n = 'm' . mt_rand(0, 1);
    $a = new DistributedLock("$root/$n", $opts);
    $id = take($a, [[$n, 'X']], $n);
    if ($id !== null) {
        $holds[] = [$a, $id, $n];
    }
    hold_long($holds);
    if ($holds && mt_rand(0, 5) === 0) { /* the request ends while holding */
        rec(['t' => 'bye', 'how' => 'exit', 'at' => microtime(true)]);
        exit(0);
    }
    foreach ($holds as [$l, $id, $res]) {
        give($l, $id, $res);
    }
}

/** The "mixed" generator (Redis): other kinds and formats on the mutexes'
 * names: a read lock, a write lock, a symfony- or laravel-format mutex on
 * m0/m1, beside the redisson-format mutexes of the other scenarios. Each
 * must exclude or wait, never fail with a server type error. */
function sc_mixed(): void
{
    global $root, $opts;
    $n = 'm' . mt_rand(0, 1);
    $k = mt_rand(0, 3);
    $l = match ($k) {
        0 => (new DistributedReadWriteLock("$root/$n", $opts))->readLock(),
        1 => (new DistributedReadWriteLock("$root/$n", $opts))->writeLock(),
        2 => new DistributedLock("$root/$n", ['format' => 'symfony'] + $opts),
        default => new DistributedLock("$root/$n", ['format' => 'laravel'] + $opts),
    };
    $kind = $k === 0 ? 'R' : ($k === 1 ? 'W' : 'X');
    try {
        if (mt_rand(0, 4) === 0) {
            op('participants', $n, null, fn() => $k < 2 ? DistributedReadWriteLock::participants("$root/$n", $opts)
                                                        : DistributedLock::participants("$root/$n", $opts));
        }
        $ok = grab($l, "$n-mixed$k", [[$n, $kind]]);
    } catch (DistributedLockException | TortureSignal $e) {
        if (str_contains($e->getMessage(), 'WRONGTYPE')) {
            rec(['t' => 'bad', 'what' => "mixed kind $k on $n: " . $e->getMessage()]);
        }
        $ok = $l->isAcquired();
    }
    if ($ok) {
        $id = hold_begin($l, [[$n, $kind]], microtime(true));
        crit($l, $id, [[$n, $kind]]);
        give($l, $id, "$n-mixed$k");
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
/* the generators of this round, each one switchable (DLOCK_TORTURE_SKIP) */
if (gen('many') && $backend !== 'mysql') {
    $mix['sc_many'] = 3;
}
if (gen('users') && ($backend === 'redis' && getenv('DLOCK_TORTURE_USERS') || $backend === 'mysql' && getenv('DLOCK_TORTURE_DB2'))) {
    $mix['sc_users'] = 5;
}
if (gen('servers') && $backend === 'redis' && getenv('DLOCK_TORTURE_REDIS2')) {
    $mix['sc_servers'] = 5;
}
if (gen('handover') && gen('fork')) {
    $mix['sc_handover'] = 8;
}
if (gen('revoke') && ($backend === 'zookeeper' || $backend === 'redis')) {
    $mix['sc_revocable'] = 20;
    $mix['sc_revoke_request'] = 12;
}
if (gen('mixed') && $backend === 'redis') {
    $mix['sc_mixed'] = 6;
}
$scenarios = $mix;
$held = [];
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
    reap_kids(false);
    if (++$n % 10 === 0) {
        gc_collect_cycles();
        rec(['t' => 'mem', 'n' => $n, 'm' => memory_get_usage()]);
    }
}
reap_kids(true);
rec(['t' => 'bye', 'how' => 'deadline', 'at' => microtime(true)]);
