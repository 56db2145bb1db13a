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
 *  - flat memory: a contender's PHP memory after warm-up grows < 512 KB;
 *  - no crash and no "bad" outcome a contender saw (a non-reentrant lock
 *    taken twice, an upgrade granted, an unexpected exception type, a
 *    participants() list with two holders), and no leftover node or key once
 *    every contender ended (torture.php asks the server).
 * The bounds depend on the backend: torture.php writes RUN_DIR/mode (the
 * MODE argument: standalone, ensemble, redis, postgres or mysql).
 * Usage as a library: torture_check($run) returns [violations, stats]; as a
 * command: php check.php RUN_DIR. */

const TORTURE_CT = 3.0;     /* contenders' connect_timeout, s */
const TORTURE_ST = 2.0;     /* contenders' session_timeout, s */
const TORTURE_CAP = 15.0;   /* dlock.max_wait for untimed acquires, s */
const TORTURE_SLACK = 4.0;  /* scheduling on a loaded 2-core machine, s */
const TORTURE_SEM = 2;      /* the semaphore's leases */
/* Redis mode: the contenders' lease, and from core/redis/dlock_redis_lock.c:
 * RL_GRACE_MS (a lock call of a timed acquire may run this far past the
 * timeout), RL_BACKOFF_MS (between reconnects) and DLOCK_REDIS_WAIT_TTL_MS
 * (a dead waiter's place outlives its last heartbeat by this) */
const TORTURE_LEASE = 1.5;
const TORTURE_GRACE = 0.5;
const TORTURE_BACKOFF = 0.1;
const TORTURE_WAIT_TTL = 2.5;

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

/** Whether holds $a and $b (same resource) may not overlap. */
function torture_exclusive(array $a, array $b): bool
{
    if ($a['k'] === 'S' || ($a['k'] === 'R' && $b['k'] === 'R')) {
        return false;
    }
    if ($a['pid'] === $b['pid'] && ($a['k'] === 'W' || $b['k'] === 'W') && $a['k'] !== $b['k']) {
        [$w, $r] = $a['k'] === 'W' ? [$a, $b] : [$b, $a];
        return !($r['s'] >= $w['s']); /* our own read after our write: a downgrade */
    }
    return true;
}

function torture_check(string $run): array
{
    $v = [];
    $stats = ['ops' => 0, 'holds' => 0, 'certain' => 0, 'writes' => 0, 'rejected' => 0, 'faults' => 0,
              'lost' => 0, 'exceptions' => 0];
    $mode = is_file("$run/mode") ? trim((string) file_get_contents("$run/mode")) : 'standalone';
    $pauses = [];
    foreach (torture_jsonl("$run/faults.jsonl") as $f) {
        $stats['faults']++;
        if ($f['f'] === 'pause') {
            $pauses[$f['pid']][] = [$f['s'], $f['e']];
        }
    }
    foreach (torture_jsonl("$run/violations.jsonl") as $x) {
        $v[] = $x['what'];
    }
    foreach (torture_jsonl("$run/exits.jsonl") as $x) {
        if (!$x['ok']) {
            $v[] = "contender $x[pid] ended badly: $x[how]";
        }
    }
    $holds = [];
    $conf = [];
    $mem = [];
    foreach (glob("$run/hist-*.jsonl") as $file) {
        foreach (torture_jsonl($file) as $r) {
            switch ($r['t']) {
                case 'hold':
                    $holds[$r['h']] = $r;
                    break;
                case 'conf':
                    $conf[$r['h']] = max($conf[$r['h']] ?? 0.0, $r['at']);
                    break;
                case 'op':
                    $stats['ops']++;
                    if (!in_array($r['r'], ['true', 'false', 'ok'], true)) {
                        $stats['exceptions']++;
                    }
                    if (str_starts_with($r['r'], 'UNEXPECTED')) {
                        $v[] = "pid $r[pid]: $r[op]($r[lock]) threw $r[r]";
                    }
                    $took = $r['e'] - $r['s'] - torture_paused($pauses, $r['pid'], $r['s'], $r['e']);
                    if ($took > torture_bound($r, $mode)) {
                        $v[] = sprintf('pid %d: %s(%s, timeout %s) took %.2f s, bound %.2f s: %s', $r['pid'],
                            $r['op'], $r['lock'], var_export($r['to'], true), $took, torture_bound($r, $mode),
                            $r['r']);
                    }
                    break;
                case 'w':
                    $stats['writes']++;
                    $stats['rejected'] += $r['ok'] ? 0 : 1;
                    break;
                case 'end':
                    $stats['lost'] += $r['how'] === 'lost' ? 1 : 0;
                    break;
                case 'mem':
                    $mem[$r['pid']][] = $r['m'];
                    break;
                case 'bad':
                    $v[] = "pid $r[pid]: $r[what]";
                    break;
            }
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
                if ($b['s'] < $a['e']) {
                    $v[] = sprintf('%s: holds %s (%s, token %s, %.3f-%.3f) and %s (%s, token %s, %.3f-%.3f) overlap',
                        $res, $a['id'], $a['k'], $a['tok'], $a['s'], $a['e'], $b['id'], $b['k'], $b['tok'], $b['s'], $b['e']);
                }
                if ($a['tok'] !== null && $b['tok'] !== null && $a['tok'] >= $b['tok']) {
                    $v[] = sprintf('%s: hold %s (token %d) began before %s (token %d) but its token is not lower',
                        $res, $a['id'], $a['tok'], $b['id'], $b['tok']);
                }
            }
        }
        if (($list[0]['k'] ?? '') === 'S') {
            $ev = [];
            foreach ($list as $h) {
                $ev[] = [$h['s'], 1, $h['id']];
                $ev[] = [$h['e'], -1, $h['id']];
            }
            usort($ev, fn($a, $b) => [$a[0], $a[1]] <=> [$b[0], $b[1]]); /* ends before starts at a tie */
            $c = 0;
            foreach ($ev as [$t, $d, $id]) {
                $c += $d;
                if ($c > TORTURE_SEM) {
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
