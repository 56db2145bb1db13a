<?php
/* check.php: the randomized fault checker's judge. Reads a run directory
 * (hist-*.jsonl from the contenders, faults.jsonl, exits.jsonl and
 * violations.jsonl from torture.php) and proves, or reports the first
 * counter-examples of:
 *  - exclusion: the certain intervals of two holds that exclude each other
 *    never overlap. A hold's certain interval runs from the moment acquire()
 *    returned to the START of its last isAcquired() call that said true, so a
 *    holder paused past its session timeout is not excused: once it resumes,
 *    isAcquired() must say false (its late writes are what the fenced store
 *    rejects, and are counted). Mutexes and multi-lock parts exclude
 *    everything; on the read-write lock a writer excludes all others, except
 *    its own process's read taken after it (a downgrade);
 *  - limits: at most 2 certain holders of the semaphore at any instant;
 *  - order: between certain holds that exclude each other, the one that began
 *    first has the lower fencing token;
 *  - no hang: every call returned within its bound (below), minus the time
 *    its process was stopped; the watchdog in torture.php reports calls that
 *    never returned;
 *  - liveness: no waiter waits while what it waits for is free (the lock,
 *    a semaphore lease, a read grant) for longer than LIVE_BASE, outside
 *    the windows of the faults that may keep a hand-over from happening
 *    (torture_live(), which states the bounds);
 *  - no unexplained loss: a hold that ends lost (isAcquired() false, a
 *    release refused) must have a fault behind it (torture_lost());
 *  - bounded exit: a contender ends within 2 connect_timeouts + slack of its
 *    goodbye (request shutdown releases and closes; nothing waits longer);
 *  - forked children hold nothing of their parent's (contender.php records
 *    a "bad" when a child sees or releases a parent's hold, or hangs);
 *  - flat memory: a contender's PHP memory after warm-up grows < 512 KB;
 *  - no crash and no "bad" outcome a contender saw (a non-reentrant lock
 *    taken twice, an upgrade granted, an unexpected exception type, a
 *    participants() list with two holders), and no leftover node or key once
 *    every contender ended (torture.php asks the server).
 * The bounds depend on the backend: torture.php writes RUN_DIR/mode (the
 * MODE argument: standalone, ensemble, redis, postgres or mysql).
 * Usage as a library: torture_check($run) returns [violations, stats]; as a
 * command: php check.php RUN_DIR.
 *
 * Generators and judges can be left out: DLOCK_TORTURE_SKIP is a
 * comma-separated list of their names (default: none, everything runs).
 * Generators (contender.php, torture.php): handlers (signal handlers that use
 * other locks, the same name, the very object being acquired,
 * participants()), handler-exit (a handler that ends the process mid-call),
 * fork (fork while holding and, from a handler, while waiting; the child
 * uses dlock or not and ends by exit() or SIGKILL), long (holds of 3-8 s and
 * waits of 5-12 s), many (66 holds on one name in one process), users (two
 * ACL users on one Redis; a second database on one MariaDB), servers (a
 * second Redis, stalled by DEBUG SLEEP / CLIENT PAUSE), redis-faults
 * (FLUSHALL, eviction of one of dlock's keys, CLIENT PAUSE, DEBUG SLEEP),
 * mixed (other kinds and formats on the mutexes' names, Redis), revoke
 * (revocable holders that obey or ignore requests, and the requests; a
 * revocation seen outside a hold is a violation), calm
 * (phases of signals only). Judges: liveness, loss, exit (the judges of a
 * reply read by the wrong call and of an unrefused self-wait in a handler
 * go with the handlers generator).
 *
 * The clock: every timestamp is microtime(true), the wall clock, read by
 * processes on one machine; hrtime() would be monotonic but per process.
 * The judges assume the wall clock is not stepped during a run (no NTP jump;
 * slewing of a few ppm is noise beside the bounds). */

const TORTURE_CT = 3.0;     /* contenders' connect_timeout, s */
const TORTURE_ST = 2.0;     /* contenders' session_timeout, s */
const TORTURE_CAP = 15.0;   /* dlock.max_wait for untimed acquires, s */
const TORTURE_SLACK = 4.0;  /* scheduling on a loaded 2-core machine, s */
const TORTURE_SEM = 2;      /* the semaphore's leases */
const TORTURE_BIG = 66;     /* the "many" generator's semaphore ("big") */
/* The liveness judge (torture_live()): a waiter may wait while what it waits
 * for is free for at most LIVE_BASE = HANDOVER (a release reaching the next
 * waiter and its acquire() returning: milliseconds when idle, one connect at
 * worst) + SLACK (scheduling on a loaded 2-core machine). Time inside the
 * window of a fault that may hold a hand-over up is not counted: a window
 * runs from the fault to its end + REACH (below); a pause counts only for
 * the paused process's own waits and for resources it waited on or held. A
 * hold is taken as possibly held from GRANT before its acquire() returned
 * (no earlier than the call began) to 1 s after its release returned (an
 * asynchronous release), or REACH after it was found lost. */
const TORTURE_HANDOVER = 0.5;
const TORTURE_LIVE_BASE = TORTURE_HANDOVER + TORTURE_SLACK;
const TORTURE_GRANT = TORTURE_SLACK;
/* A hold that ends, at most 2 connect_timeouts + slack after the goodbye:
 * releases and session closes at request shutdown (the exit judge) */
const TORTURE_EXIT = 2 * TORTURE_CT + TORTURE_SLACK;
/* Redis mode: the contenders' lease, and from core/redis/dlock_redis_lock.c:
 * RL_GRACE_MS (a lock call of a timed acquire may run this far past the
 * timeout), RL_BACKOFF_MS (between reconnects) and DLOCK_REDIS_WAIT_TTL_MS
 * (a dead waiter's place outlives its last heartbeat by this) */
const TORTURE_LEASE = 1.5;
const TORTURE_GRACE = 0.5;
const TORTURE_BACKOFF = 0.1;
const TORTURE_WAIT_TTL = 2.5;

/** How long after a fault a hand-over may still be held up by it (REACH):
 * ZooKeeper: a dead or cut-off session's nodes go after the session timeout,
 * a reconnect takes up to connect_timeout; Redis: a dead holder's lease, a
 * dead waiter's heartbeat TTL and its 1 s refresh, a reconnect; SQL: a dead
 * client noticed by the server, a reconnect and a retried wait (2 CT + 1). */
function torture_reach(string $mode): float
{
    return match ($mode) {
        'redis' => TORTURE_LEASE + TORTURE_WAIT_TTL + 1.0 + TORTURE_CT,
        'postgres', 'mysql' => 2 * TORTURE_CT + 1.0,
        default => TORTURE_ST + TORTURE_CT,
    };
}

/** Whether judge or generator $g is on (DLOCK_TORTURE_SKIP, or RUN/skip). */
function torture_on(string $g, ?string $run = null): bool
{
    $skip = getenv('DLOCK_TORTURE_SKIP');
    if (($skip === false || $skip === '') && $run !== null && is_file("$run/skip")) {
        $skip = file_get_contents("$run/skip");
    }
    return !in_array($g, array_map('trim', explode(',', (string) $skip)), true);
}

/** [a, b] intervals: sorted, merged. */
function torture_union(array $iv): array
{
    usort($iv, fn($x, $y) => $x[0] <=> $y[0]);
    $out = [];
    foreach ($iv as [$a, $b]) {
        if ($b < $a) { /* an instant (a fault's raw window) stays */
            continue;
        }
        if ($out && $a <= $out[count($out) - 1][1]) {
            $out[count($out) - 1][1] = max($out[count($out) - 1][1], $b);
        } else {
            $out[] = [$a, $b];
        }
    }
    return $out;
}

/** [$a, $b] minus the merged intervals $cut: the pieces left. */
function torture_minus(float $a, float $b, array $cut): array
{
    $out = [];
    foreach ($cut as [$x, $y]) {
        if ($y <= $a) {
            continue;
        }
        if ($x >= $b) {
            break;
        }
        if ($x > $a) {
            $out[] = [$a, $x];
        }
        $a = max($a, $y);
    }
    if ($a < $b) {
        $out[] = [$a, $b];
    }
    return $out;
}

/** Intersection of two sorted piece lists. */
function torture_meet(array $p, array $q): array
{
    $out = [];
    foreach ($p as [$a, $b]) {
        foreach ($q as [$x, $y]) {
            $lo = max($a, $x);
            $hi = min($b, $y);
            if ($lo < $hi) {
                $out[] = [$lo, $hi];
            }
        }
    }
    return $out;
}

/** The fault windows: [global windows, pid => pause windows, windows of the
 * second Redis server ("b:" resources only)]. */
function torture_windows(array $faults, string $mode, ?float $reach = null): array
{
    $reach ??= torture_reach($mode);
    $ups = [];
    foreach ($faults as $f) {
        if ($f['f'] === 'up') {
            $ups[] = $f['s'];
        }
    }
    sort($ups);
    $g = $p = $b = [];
    foreach ($faults as $f) {
        $s = $f['s'];
        switch ($f['f']) {
            case 'pause':
                $p[$f['pid']][] = [$s, $f['e'] + $reach];
                break;
            case 'signal':
            case 'up':
                break;
            case 'server':
                $up = $s + ($f['d'] ?? 4.0) + 30.0;
                foreach ($ups as $u) {
                    if ($u > $s) {
                        $up = $u;
                        break;
                    }
                }
                $g[] = [$s, $up + $reach];
                break;
            case 'b-pause':
            case 'b-sleep':
                $b[] = [$s, $f['e'] + $reach];
                break;
            case 'stall':
                $g[] = [$s, ($f['e'] ?? $s + 4.0) + $reach];
                break;
            case 'delay':
                $g[] = [$s, ($f['e'] ?? $s + 3.6) + $reach];
                break;
            default: /* kill, drop, halfclose, session, flushall, evict, cpause, dsleep */
                $g[] = [$s, ($f['e'] ?? $s) + $reach];
        }
    }
    foreach ($p as $pid => $w) {
        $p[$pid] = torture_union($w);
    }
    return [torture_union($g), $p, torture_union($b)];
}

function torture_jsonl(string $file): array
{
    $out = [];
    foreach (is_file($file) ? file($file, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) : [] as $l) {
        $r = json_decode($l, true);
        if (is_array($r)) {
            $out[] = $r; /* a line cut by kill -9 is skipped */
        }
    }
    return $out;
}

/** The longest a call may take: timed calls get their timeout + 1 s, every
 * call may first wait connect_timeout for a session or a reconnect. */
function torture_bound(array $op, string $mode = 'standalone'): float
{
    if ($mode === 'redis') {
        return torture_bound_redis($op);
    }
    if ($mode === 'postgres' || $mode === 'mysql') {
        return torture_bound_sql($op);
    }
    $to = $op['to'];
    switch ($op['op']) {
        case 'tryAcquire':
        case 'acquire':
        case 'synchronized':
            return ($to ?? TORTURE_CAP) + 1.0 + TORTURE_CT + TORTURE_SLACK;
        case 'participants':
            return TORTURE_CT + TORTURE_ST + TORTURE_SLACK;
        case 'requestRevocation': /* a connect, then two families listed and set, a CT each */
            return 3 * TORTURE_CT + TORTURE_SLACK;
        default: /* release, isAcquired, checkHeld, drop (a release in the destructor) */
            return TORTURE_CT + TORTURE_SLACK;
    }
}

/** On Redis, read off core/redis/dlock_redis_lock.c and dlock_multi_class.c:
 *  - an acquire with timeout T (T = dlock.max_wait without one) sends no lock
 *    call whose deadline is past T + GRACE, and after its last one either
 *    leaves the queue (one call, deadline connect_timeout) or was in a BLPOP
 *    whose deadline is T + connect_timeout: T + GRACE + CT;
 *  - a release retries a lost connection only while the hold is certain (at
 *    most one lease from its start), each try bounded by connect_timeout:
 *    LEASE + CT (+ one backoff);
 *  - checkHeld() and participants() are one script call: CT; isAcquired()
 *    asks no server (the watchdog's certainty is read under its mutex);
 *  - a multi-lock of n parts acquires part by part: timed, the first part
 *    that overruns leaves the rest a try each (GRACE) and a failure unwinds
 *    the parts taken (a release each); untimed, every part gets its own
 *    dlock.max_wait. synchronized() is an acquire and a release. */
function torture_bound_redis(array $op): float
{
    $n = preg_match('/^multi-(\d+)$/', (string) $op['lock'], $m) ? (int) $m[1] : 1;
    $acq = fn(?float $t) => ($t ?? TORTURE_CAP) + TORTURE_GRACE + TORTURE_CT;
    $rel = TORTURE_LEASE + TORTURE_CT + TORTURE_BACKOFF;
    switch ($op['op']) {
        case 'tryAcquire':
        case 'acquire':
            if ($n > 1) {
                $b = $op['to'] === null ? $n * $acq(null) : $acq($op['to']) + ($n - 1) * TORTURE_GRACE;
                return $b + ($n - 1) * $rel + TORTURE_SLACK;
            }
            return $acq($op['to']) + TORTURE_SLACK;
        case 'synchronized':
            return $acq($op['to']) + $rel + TORTURE_SLACK;
        case 'release':
        case 'drop':
            return $n * $rel + TORTURE_SLACK;
        case 'isAcquired':
            return TORTURE_SLACK;
        case 'requestRevocation': /* a connect, participants(), a PUBLISH: a CT each */
            return 3 * TORTURE_CT + TORTURE_SLACK;
        default: /* checkHeld, participants */
            return $n * TORTURE_CT + TORTURE_SLACK;
    }
}

/** On PostgreSQL and MySQL, read off core/sql/dlock_sql_lock.c, the drivers
 * and dlock_multi_class.c:
 *  - an acquire with timeout T (T = dlock.max_wait without one) may connect
 *    (CT), then waits in the server with its answer awaited until T + CT;
 *    after a lost connection it tries again (a connect and a wait to the same
 *    deadline + CT) only before the deadline; a failed wait is undone by one
 *    more statement (CT): T + 3 CT. A signal's cancel (PQcancel) blocks while
 *    the network is stalled (the slack covers the proxy's stalls of <= 4 s);
 *  - a multi-lock of n parts shares T among its parts, each may overrun it
 *    by 3 CT, and a failure unwinds the parts taken (a release each); untimed,
 *    every part gets its own dlock.max_wait;
 *  - release, the destructor's release, isAcquired() and checkHeld() are one
 *    statement each (CT; a release that fails closes the session without a
 *    wait); participants() may connect first: 2 CT; synchronized() is an
 *    acquire and a release. */
function torture_bound_sql(array $op): float
{
    $n = preg_match('/^multi-(\d+)$/', (string) $op['lock'], $m) ? (int) $m[1] : 1;
    $acq = fn(?float $t) => ($t ?? TORTURE_CAP) + 3 * TORTURE_CT;
    switch ($op['op']) {
        case 'tryAcquire':
        case 'acquire':
            $b = $op['to'] === null ? $n * $acq(null) : $op['to'] + $n * 3 * TORTURE_CT;
            return $b + ($n - 1) * TORTURE_CT + TORTURE_SLACK;
        case 'synchronized':
            return $acq($op['to']) + TORTURE_CT + TORTURE_SLACK;
        case 'participants':
            return 2 * TORTURE_CT + TORTURE_SLACK;
        default: /* release, drop, isAcquired, checkHeld */
            return $n * TORTURE_CT + TORTURE_SLACK;
    }
}

/** The longest any call may take in $mode (the hang watchdog waits longer). */
function torture_max_bound(string $mode): float
{
    $b = 0.0;
    foreach (['acquire', 'synchronized', 'release', 'participants'] as $o) {
        foreach (['x', 'multi-3'] as $l) {
            $b = max($b, torture_bound(['op' => $o, 'lock' => $l, 'to' => null], $mode));
        }
    }
    return $b;
}

/** Seconds of [s, e] during which process $pid was stopped. */
function torture_paused(array $pauses, int $pid, float $s, float $e): float
{
    $t = 0.0;
    foreach ($pauses[$pid] ?? [] as [$ps, $pe]) {
        $t += max(0.0, min($e, $pe) - max($s, $ps));
    }
    return $t;
}

/** Seconds of [s, e] spent in the handler calls $h that lie inside it. */
function torture_inner(array $h, float $s, float $e): float
{
    $t = 0.0;
    foreach ($h as [$a, $b]) {
        if ($a > $s && $b < $e) {
            $t += $b - $a;
        }
    }
    return $t;
}

/** Whether holds $a and $b (same resource) may not overlap. */
function torture_exclusive(array $a, array $b): bool
{
    if (($a['k'] === 'S' && $b['k'] === 'S') || ($a['k'] === 'R' && $b['k'] === 'R')) {
        return false;
    }
    if ($a['pid'] === $b['pid'] && ($a['k'] === 'W' || $b['k'] === 'W') && $a['k'] !== $b['k']) {
        [$w, $r] = $a['k'] === 'W' ? [$a, $b] : [$b, $a];
        return !($r['s'] >= $w['s']); /* our own read after our write: a downgrade */
    }
    return true;
}

/** Redis: whether the overlap of holds $a and $b follows a FLUSHALL or an
 * eviction of $res's key, which docs/redis.md documents: the old holder's
 * isAcquired() stays true until its watchdog's next renewal (lease/3), so
 * an overlap that ends within a lease (+1 s) of the deletion is excused.
 * The fencing order is never excused. */
function torture_deleted(array $faults, string $res, array $a, array $b): bool
{
    foreach ($faults as $f) {
        if (($f['f'] === 'flushall' || $f['f'] === 'evict' && preg_match('~/' . preg_quote($res, '~')
            . '(\}|:|$)~', $f['key'] ?? '')) && $f['s'] <= $b['s'] && $a['e'] <= $f['s'] + TORTURE_LEASE + 1.0) {
            return true;
        }
    }
    return false;
}

/** Redis: whether a semaphore count over its maximum at $t follows a
 * FLUSHALL or an eviction of $res's key (the same documented window as
 * torture_deleted): some hold open at $t began before the deletion, and $t
 * is within a lease (+1 s) of it, so that hold is the stale one. */
function torture_sem_deleted(array $faults, string $res, array $list, array $open, float $t): bool
{
    $by = array_column($list, null, 'id');
    foreach ($open as $id => $_) {
        $h = $by[$id];
        foreach ($faults as $f) {
            if (($f['f'] === 'flushall' || $f['f'] === 'evict' && preg_match('~/' . preg_quote($res, '~')
                . '(\}|:|$)~', $f['key'] ?? '')) && $h['s'] <= $f['s'] && $f['s'] <= $t
                && $t <= $f['s'] + TORTURE_LEASE + 1.0) {
                return true;
            }
        }
    }
    return false;
}

/** Whether [a, b] meets any of the merged windows $w. */
function torture_touched(array $w, float $a, float $b): bool
{
    foreach ($w as [$x, $y]) {
        if ($x < $b && $y > $a) {
            return true;
        }
    }
    return false;
}

/** The loss judge: a hold that ended lost (isAcquired() false, or a release
 * refused) with no fault behind it is a violation: nothing but a fault may
 * take a lock from its holder. A fault (from its start to its end: a pause
 * of the holder's own process, the server's downtime until it serves again,
 * a stall, an instant fault) explains a loss if it began before the loss,
 * ended no earlier than 1 s before the acquire began, and the loss came
 * within REACH of its end; the second Redis server's stalls explain losses
 * of its own ("b:") locks only. */
function torture_lost(array $holds, array $ends, array $raw, float $reach): array
{
    [$gwin, $pwin, $bwin] = $raw;
    $v = [];
    foreach ($ends as $id => $e) {
        if ($e['how'] !== 'lost' && !str_starts_with($e['how'], 'release failed') || !isset($holds[$id])) {
            continue;
        }
        if (str_starts_with($e['how'], 'release failed: TortureSignal')) {
            continue; /* the checker's own signal handler threw inside release(): not a loss */
        }
        $h = $holds[$id];
        $a = $h['as'] ?? $h['at'];
        $l = $e['at'];
        $ws = array_merge($gwin, $pwin[$h['pid']] ?? [], str_starts_with((string) $h['res'][0][0], 'b:') ? $bwin : []);
        foreach ($ws as [$x, $y]) {
            if ($x < $l && $y > $a - 1.0 && $y + $reach > $l) {
                continue 2;
            }
        }
        $v[] = sprintf('pid %d: hold %s of %s (acquired %.3f) ended %s at %.3f with no fault near it',
            $h['pid'], $id, json_encode(array_map(fn($r) => "$r[0]/$r[1]", $h['res'])), $h['at'], $e['how'], $e['at']);
    }
    return $v;
}

/** The liveness judge. For each acquire() that waited longer than LIVE_BASE
 * (its process's pauses taken out), the time during its wait when what it
 * waits for was free is: the wait, minus the intervals in which others
 * possibly held it (below), minus the fault windows. Any free piece longer
 * than LIVE_BASE (pauses of the waiter taken out) is a violation: the
 * release (or lease end) before it woke nobody.
 *   free for a mutex part (X) or a writer (W): nobody else possibly holds
 *     the name in any kind; for a reader (R): nobody else possibly holds it
 *     as a writer or mutex (our own write lock does not count: a downgrade)
 *     and no writer that began to wait before us still waits; for a
 *     semaphore lease (S): fewer than its maxLeases possibly held; a
 *     multi-lock: every part free at once;
 *   a hold is possibly held from max(acquire began, acquire returned -
 *     GRANT - its pauses) (a multi-lock's: from the call's start, and a
 *     multi-lock call that failed holds its parts for all of it, + 1 s) to
 *     its release + 1 s (+ its pauses), to REACH after
 *     a loss, to its process's exit (+ REACH if killed) when it never ended;
 *     an acquire that threw may have left a grant behind: possibly held to
 *     1 s (a signal's exception) or REACH (any other) after it returned;
 *   the waiter's own call's grant is not a holder of its own wait. */
function torture_live(array $holds, array $ends, array $acqs, array $exits, array $kills, array $pauses,
                      array $gwin, array $pwin, array $bwin, float $reach, array $hops): array
{
    $runEnd = 0.0;
    foreach ($acqs as $o) {
        $runEnd = max($runEnd, $o['e']);
    }
    $runEnd += 3600.0;
    /* resource => [[pid, kind, from, to, key], ...] */
    $items = [];
    foreach ($holds as $id => $h) {
        $pid = $h['pid'];
        $as = $h['as'] ?? $h['at'];
        $ae = $h['ae'] ?? $h['at'];
        $from = max($as, $ae - TORTURE_GRANT - torture_paused($pauses, $pid, $as, $ae));
        if (count($h['res']) > 1) { /* a multi-lock takes its parts one by one during the call */
            $from = $as;
        }
        $e = $ends[$id] ?? null;
        if ($e === null) {
            if (isset($kills[$pid])) {
                $to = $kills[$pid] + $reach;
            } elseif (isset($exits[$pid]['at'])) {
                $to = $exits[$pid]['at'] + TORTURE_CT;
            } else {
                $to = $runEnd;
            }
        } elseif ($e['how'] === 'lost' || str_starts_with($e['how'], 'release failed')) {
            $to = $e['at'] + $reach;
        } else {
            $to = $e['at'] + 1.0 + torture_paused($pauses, $pid, $e['at'], $e['at'] + 6.0);
        }
        foreach ($h['res'] as [$res, $kind]) {
            $items[$res][] = [$pid, $kind, $from, $to, "$pid@$as"];
        }
    }
    $writers = []; /* resource => [[pid, s, e, key]]: writers' and mutexes' waits, for readers */
    foreach ($acqs as $o) {
        $exc = !in_array($o['r'], ['true', 'false', 'ok'], true);
        $multi = count($o['res']) > 1 && $o['r'] !== 'true';
        foreach ($o['res'] as [$res, $kind]) {
            $x = str_starts_with($o['r'], 'TortureSignal') || !$exc ? 1.0 : $reach;
            if ($multi) { /* a multi-lock that failed held the parts it took until it unwound */
                $items[$res][] = [$o['pid'], $kind, $o['s'], $o['e'] + $x, "$o[pid]@$o[s]"];
            } elseif ($exc) {
                $items[$res][] = [$o['pid'], $kind, max($o['s'], $o['e'] - TORTURE_GRANT), $o['e'] + $x, "$o[pid]@$o[s]"];
            }
            if ($kind === 'W' || $kind === 'X') {
                $writers[$res][] = [$o['pid'], $o['s'], $o['e'], "$o[pid]@$o[s]"];
            }
        }
    }
    $v = [];
    foreach ($acqs as $w) {
        if ($w['op'] !== 'acquire' || ($w['to'] !== null && $w['to'] <= TORTURE_LIVE_BASE)) {
            continue;
        }
        $pid = $w['pid'];
        if ($w['e'] - $w['s'] - torture_paused($pauses, $pid, $w['s'], $w['e'])
            - torture_inner($hops[$pid] ?? [], $w['s'], $w['e']) <= TORTURE_LIVE_BASE) {
            continue;
        }
        $key = "$pid@$w[s]";
        $free = [[$w['s'], $w['e']]];
        $wins = [];
        foreach ($w['res'] as [$res, $kind]) {
            $busy = [];
            $cnt = [];
            $paused = $pwin[$pid] ?? [];
            foreach ($items[$res] ?? [] as [$p, $k, $a, $b, $ik]) {
                if ($ik === $key || $b <= $w['s'] || $a >= $w['e']) {
                    continue;
                }
                if (isset($pwin[$p])) { /* a pause of a holder counts for this resource */
                    $paused = array_merge($paused, $pwin[$p]);
                }
                if ($kind === 'S' && $k === 'S') {
                    $cnt[] = [$a, 1];
                    $cnt[] = [$b, -1];
                } elseif ($kind === 'R' && ($k === 'R' || $k === 'S' || $k === 'W' && $p === $pid)) {
                    continue;
                } else {
                    $busy[] = [$a, $b];
                }
            }
            if ($cnt) { /* a semaphore: busy while maxLeases are possibly held */
                usort($cnt, fn($x, $y) => [$x[0], $x[1]] <=> [$y[0], $y[1]]);
                $max = $res === 'big' ? TORTURE_BIG : TORTURE_SEM;
                $c = 0;
                $since = null;
                foreach ($cnt as [$t, $d]) {
                    $c += $d;
                    if ($c >= $max && $since === null) {
                        $since = $t;
                    } elseif ($c < $max && $since !== null) {
                        $busy[] = [$since, $t];
                        $since = null;
                    }
                }
            }
            foreach ($acqs as $o) { /* a pause of a waiter on this resource counts too */
                if ($o['pid'] !== $pid && isset($pwin[$o['pid']]) && $o['e'] > $w['s'] && $o['s'] < $w['e']
                    && in_array($res, array_column($o['res'], 0), true)) {
                    $paused = array_merge($paused, $pwin[$o['pid']]);
                }
            }
            foreach ($acqs as $o) { /* our own acquire that a handler interrupted to make this one */
                if ($o['pid'] === $pid && $o['s'] < $w['s'] && $o['e'] > $w['e']
                    && in_array($res, array_column($o['res'], 0), true)) {
                    $busy[] = [$o['s'], $o['e']];
                }
            }
            if ($kind === 'R') { /* writers queued ahead of a reader */
                foreach ($writers[$res] ?? [] as [$p, $s, $e, $ik]) {
                    if ($ik !== $key && $s < $w['s'] && $e > $w['s']) {
                        $busy[] = [$s, $e];
                    }
                }
            }
            $wins = array_merge($wins ?? [], $gwin, $paused, str_starts_with($res, 'b:') ? $bwin : []);
            $free = torture_meet($free, torture_minus($w['s'], $w['e'], torture_union($busy)));
        }
        /* from the moment it became free, the hand-over is due within
         * LIVE_BASE (plus the waiter's pauses and handler calls); a fault
         * window that begins before it is due pushes it to the window's end,
         * one that begins later excuses nothing */
        $wins = torture_union($wins);
        foreach ($free as [$a, $b]) {
            for ($t = $a; $t < $b;) {
                $due = $t + TORTURE_LIVE_BASE;
                $due += torture_paused($pauses, $pid, $t, $due) + torture_inner($hops[$pid] ?? [], $t, $due + 1.0);
                $ext = null;
                foreach ($wins as [$x, $y]) {
                    if ($x < $due && $y > $t) {
                        $ext = max($ext ?? $y, $y);
                    }
                }
                if ($ext === null) {
                    if ($due < $b) {
                        $v[] = sprintf('pid %d: acquire(%s, timeout %s) at %.3f-%.3f (%s) still waited %.2f s after '
                            . 'what it waits for became free at %.3f (free until %.3f, no fault near), bound %.2f s',
                            $pid, $w['lock'], var_export($w['to'], true), $w['s'], $w['e'], $w['r'], $b - $t, $t,
                            $b, TORTURE_LIVE_BASE);
                        continue 3;
                    }
                    break;
                }
                $t = $ext;
            }
        }
    }
    return $v;
}

function torture_check(string $run): array
{
    $v = [];
    $stats = ['ops' => 0, 'holds' => 0, 'certain' => 0, 'writes' => 0, 'rejected' => 0, 'faults' => 0,
              'lost' => 0, 'exceptions' => 0, 'asked' => 0, 'revoked' => 0, 'ignored' => 0];
    $mode = is_file("$run/mode") ? trim((string) file_get_contents("$run/mode")) : 'standalone';
    $pauses = [];
    $faults = torture_jsonl("$run/faults.jsonl");
    foreach ($faults as $f) {
        $stats['faults'] += $f['f'] === 'up' ? 0 : 1;
        if ($f['f'] === 'pause') {
            $pauses[$f['pid']][] = [$f['s'], $f['e']];
        }
    }
    foreach (torture_jsonl("$run/violations.jsonl") as $x) {
        $v[] = $x['what'];
    }
    /* the time each process spent in calls made by its signal handlers: a
     * call interrupted by a handler is not charged for it */
    $hops = [];
    $odd = [];
    foreach (glob("$run/hist-*.jsonl") as $file) {
        foreach (torture_jsonl($file) as $r) {
            if ($r['t'] === 'op' && preg_match('/^h(-self)?:/', $r['lock'])) {
                $hops[$r['pid']][] = [$r['s'], $r['e']];
            }
            if ($r['t'] === 'op' && str_contains($r['r'], 'unexpected reply')) {
                $odd[] = $r;
            }
        }
    }
    $exits = [];
    foreach (torture_jsonl("$run/exits.jsonl") as $x) {
        $exits[$x['pid']] = $x;
        /* after its goodbye a contender is in exit(): "exit -1" is an exit
         * status the orchestrator lost (proc_get_status() reports it once,
         * and signal_proc() may have been that once; fixed in torture.php),
         * and a SIGUSR1 or SIGALRM of the schedule or its own arriving during
         * request shutdown (pcntl has restored the default action) ends the
         * process as a kill would: neither is the contender's failure */
        $afterBye = preg_match("/^(exit -1|signal (10|14)) after '[a-z-]+'/", $x['how']);
        if (!$afterBye && preg_match('/^signal (10|14);/', $x['how'])) {
            /* runs recorded before torture.php named the goodbye of a signalled exit */
            $lines = @file("$run/hist-$x[pid].jsonl", FILE_IGNORE_NEW_LINES) ?: [];
            $afterBye = (json_decode((string) end($lines), true)['t'] ?? '') === 'bye';
        }
        if (!$x['ok'] && !$afterBye) {
            $v[] = "contender $x[pid] ended badly: $x[how]";
        }
    }
    $holds = [];
    $rvs = [];
    $conf = [];
    $mem = [];
    $ends = [];
    $acqs = [];   /* acquire ops with their parts: the liveness judge's waiters */
    $byes = [];
    foreach (glob("$run/hist-*.jsonl") as $file) {
        foreach (torture_jsonl($file) as $r) {
            switch ($r['t']) {
                case 'hold':
                    $holds[$r['h']] = $r;
                    break;
                case 'end':
                    $ends[$r['h']] ??= $r; /* the first: a lost hold's give() records a second */
                    $stats['lost'] += $r['how'] === 'lost' ? 1 : 0;
                    break;
                case 'bye':
                    $byes[$r['pid']] = $r;
                    break;
                case 'conf':
                    $conf[$r['h']] = max($conf[$r['h']] ?? 0.0, $r['at']);
                    break;
                case 'op':
                    $stats['ops']++;
                    if (!in_array($r['r'], ['true', 'false', 'ok'], true)) {
                        $stats['exceptions']++;
                    }
                    if (isset($r['res']) && ($r['op'] === 'acquire' || $r['op'] === 'tryAcquire')) {
                        $acqs[] = $r;
                    }
                    if (str_starts_with($r['r'], 'UNEXPECTED')) {
                        $v[] = "pid $r[pid]: $r[op]($r[lock]) threw $r[r]";
                    }
                    $took = $r['e'] - $r['s'] - torture_paused($pauses, $r['pid'], $r['s'], $r['e']);
                    if (!preg_match('/^h(-self)?:/', $r['lock'])) {
                        $took -= torture_inner($hops[$r['pid']] ?? [], $r['s'], $r['e']);
                    }
                    if ($took > torture_bound($r, $mode)) {
                        $v[] = sprintf('pid %d: %s(%s, timeout %s) took %.2f s, bound %.2f s: %s', $r['pid'],
                            $r['op'], $r['lock'], var_export($r['to'], true), $took, torture_bound($r, $mode),
                            $r['r']);
                    }
                    break;
                case 'ask': /* requestRevocation(): holders asked */
                    $stats['asked'] += $r['n'];
                    break;
                case 'rv': /* a revocable holder saw a request reach its hold */
                    $stats[$r['how'] === 'released' ? 'revoked' : 'ignored']++;
                    $rvs[] = $r;
                    break;
                case 'w':
                    $stats['writes']++;
                    $stats['rejected'] += $r['ok'] ? 0 : 1;
                    break;
                case 'mem':
                    $mem[$r['pid']][] = $r['m'];
                    break;
                case 'bad':
                    /* the "many" check flagged a lease that fits (fewer
                     * holds of ours than leases; fixed in contender.php) */
                    if (preg_match('/^semaphore lease (\d+) of (\d+) granted beside/', $r['what'], $m) &&
                        (int) $m[1] <= (int) $m[2]) {
                        break;
                    }
                    $v[] = "pid $r[pid]: $r[what]";
                    break;
            }
        }
    }
    /* a call that read another call's reply: a signal handler's call shared
     * the connection of the call it interrupted (judged for the handler's
     * calls and the calls they interrupted) */
    foreach (torture_on('handlers', $run) ? $odd : [] as $r) {
        $h = (bool) preg_match('/^h(-self)?:/', $r['lock']);
        foreach ($hops[$r['pid']] ?? [] as [$a, $b]) {
            $h = $h || ($a >= $r['s'] && $b <= $r['e']);
        }
        if ($h) {
            $v[] = sprintf('pid %d: %s(%s) in or around a signal handler read a reply not its own: %s',
                $r['pid'], $r['op'], $r['lock'], $r['r']);
        }
    }
    /* revocation: a request reaches holds only, and ends none (the holder
     * releases, or keeps it: its hold ends later, by its own release) */
    foreach ($rvs as $r) {
        $h = $holds[$r['h']] ?? null;
        $e = $ends[$r['h']] ?? null;
        if ($h === null || $r['at'] < $h['at'] || ($e !== null && $e['at'] < $r['at'] && $e['how'] !== 'lost')) {
            $v[] = "revocation seen outside hold $r[h]";
        }
    }
    $reach = torture_reach($mode);
    [$gwin, $pwin, $bwin] = torture_windows($faults, $mode);
    $kills = [];
    foreach ($faults as $f) {
        if ($f['f'] === 'kill') {
            $kills[$f['pid']] = $f['s'];
        }
    }
    if (torture_on('exit', $run)) {
        foreach ($byes as $pid => $b) {
            $x = $exits[$pid] ?? null;
            if ($x === null || !empty($x['killed']) || !isset($x['seen']) || $b['how'] === 'child') {
                continue;
            }
            $took = $x['seen'] - $b['at'] - torture_paused($pauses, $pid, $b['at'], $x['seen']);
            if ($took > TORTURE_EXIT) {
                $v[] = sprintf('pid %d: still running %.2f s after its goodbye (%s), bound %.2f s', $pid, $took,
                    $b['how'], TORTURE_EXIT);
            }
        }
    }
    if (torture_on('loss', $run)) {
        foreach (torture_lost($holds, $ends, torture_windows($faults, $mode, 0.0), $reach) as $x) {
            $v[] = $x;
        }
    }
    /* the self-wait rule: an untimed acquire() that a signal handler makes
     * on a semaphore its own interrupted acquire() waits for can never be
     * granted before it returns: it must be refused, not wait out
     * dlock.max_wait */
    foreach (torture_on('handlers', $run) ? $acqs : [] as $o) {
        if ($o['to'] !== null || $o['r'] !== 'false' && !str_contains($o['r'], 'not acquired within')
            || !str_starts_with($o['lock'], 'h:')
            || ($o['res'][0][1] ?? '') !== 'S') {
            continue;
        }
        foreach ($acqs as $u) {
            if ($u['pid'] === $o['pid'] && $u['s'] < $o['s'] && $u['e'] > $o['e']
                && in_array($o['res'][0][0], array_column($u['res'], 0), true)) {
                $v[] = sprintf('pid %d: an untimed acquire(%s) in a signal handler waited %.2f s behind its own '
                    . 'interrupted acquire() (a self-deadlock that must be refused)', $o['pid'], $o['lock'],
                    $o['e'] - $o['s']);
                break;
            }
        }
    }
    if (torture_on('liveness', $run)) {
        foreach (torture_live($holds, $ends, $acqs, $exits, $kills, $pauses, $gwin, $pwin, $bwin, $reach, $hops) as $x) {
            $v[] = $x;
        }
    }
    foreach ($mem as $pid => $m) {
        if (count($m) >= 12 && end($m) - $m[5] > 512 * 1024) {
            $v[] = sprintf('pid %d: memory grew by %d KB after warm-up', $pid, (end($m) - $m[5]) >> 10);
        }
    }

    /* certain intervals per resource */
    $by = [];
    foreach ($holds as $id => $h) {
        $stats['holds']++;
        $end = $conf[$id] ?? null;
        if ($end === null || $end <= $h['at']) {
            continue;
        }
        $stats['certain']++;
        foreach ($h['res'] as [$res, $kind, $tok]) {
            $by[$res][] = ['id' => $id, 'pid' => $h['pid'], 'k' => $kind, 'tok' => $tok, 's' => $h['at'], 'e' => $end];
        }
    }
    foreach ($by as $res => $list) {
        usort($list, fn($a, $b) => $a['s'] <=> $b['s']);
        $n = count($list);
        for ($i = 0; $i < $n; $i++) {
            $a = $list[$i];
            for ($j = $i + 1; $j < $n; $j++) {
                $b = $list[$j];
                if (!torture_exclusive($a, $b)) {
                    continue;
                }
                if ($b['s'] < $a['e'] && !torture_deleted($faults, $res, $a, $b)) {
                    $v[] = sprintf('%s: holds %s (%s, token %s, %.3f-%.3f) and %s (%s, token %s, %.3f-%.3f) overlap',
                        $res, $a['id'], $a['k'], $a['tok'], $a['s'], $a['e'], $b['id'], $b['k'], $b['tok'], $b['s'], $b['e']);
                }
                if ($a['tok'] !== null && $b['tok'] !== null && $a['tok'] >= $b['tok']) {
                    $v[] = sprintf('%s: hold %s (token %d) began before %s (token %d) but its token is not lower',
                        $res, $a['id'], $a['tok'], $b['id'], $b['tok']);
                }
            }
        }
        if (($list[0]['k'] ?? '') === 'S' && !in_array('X', array_column($list, 'k'), true)) {
            $ev = [];
            foreach ($list as $h) {
                $ev[] = [$h['s'], 1, $h['id']];
                $ev[] = [$h['e'], -1, $h['id']];
            }
            usort($ev, fn($a, $b) => [$a[0], $a[1]] <=> [$b[0], $b[1]]); /* ends before starts at a tie */
            $c = 0;
            $open = [];
            foreach ($ev as [$t, $d, $id]) {
                $c += $d;
                if ($d < 0) {
                    unset($open[$id]);
                    continue;
                }
                $open[$id] = true;
                if ($c > ($res === 'big' ? TORTURE_BIG : TORTURE_SEM) && !torture_sem_deleted($faults, $res, $list, $open, $t)) {
                    $v[] = sprintf('%s: %d certain holders at %.3f (%s)', $res, $c, $t, $id);
                }
            }
        }
    }
    return [$v, $stats];
}

if (realpath($argv[0] ?? '') === realpath(__FILE__)) {
    [$v, $stats] = torture_check($argv[1]);
    foreach (array_slice($v, 0, 30) as $x) {
        echo "violation: $x\n";
    }
    echo json_encode($stats), "\n";
    printf("torture: %d operations, %d faults, %d violations\n", $stats['ops'], $stats['faults'], count($v));
    exit($v ? 1 : 0);
}
