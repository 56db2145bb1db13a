<?php
/*
 * bench/redis.php: the Redis part of the dlock benchmark, required by bench/run.php
 * (which supplies contend(), say() and pctl()) when bench/run.sh started the two
 * servers and set DLOCK_BENCH_REDIS="always=127.0.0.1:P1,everysec=127.0.0.1:P2".
 * Every figure comes from the same run as the ZooKeeper rows, against:
 *   seed    SET NX PX + usleep(300 ms) polling + Lua compare-and-delete (php-redis)
 *   pubsub  SET NX PX + SUBSCRIBE/retry on any message; unlock = CAD + PUBLISH (a herd)
 *   dlock   DistributedLock on redis:// (fair queue, one LPUSH per release, watchdog)
 * each contender its own PHP process (bench/redis_worker.php). Scenarios:
 *   cycles   P = 1 and P = 8 processes x N lock / shared-file counter / unlock
 *            cycles, on the appendfsync always server and on the everysec one
 *   herd     W = 16, 64 waiters queued behind a holder, then every holder releases in
 *            turn: wake-ups per release (dlock: INFO commandstats cmdstat_lpush calls;
 *            pub/sub: messages its PUBLISHes delivered, i.e. subscribers woken)
 *   overlap  lease/TTL 0.2 s, critical section 1.0 s, 2 processes: overlapping
 *            critical sections and lost counter increments
 */

function redis_sizes(bool $smoke): array
{
    return $smoke
        ? ['p1' => 100, 'p8' => 10, 'herd' => [16], 'overlap_cycles' => 3]
        : ['p1' => 2000, 'p8' => 100, 'herd' => [16, 64], 'overlap_cycles' => 20];
}

function redis_cli(int $port, string ...$args): string
{
    return (string) shell_exec('timeout 5 redis-cli -h 127.0.0.1 -p ' . $port . ' '
        . implode(' ', array_map('escapeshellarg', $args)) . ' 2>&1');
}

/** "cmdstat_lpush:calls=12,usec=..." -> calls of $cmd since the last CONFIG RESETSTAT. */
function redis_calls(int $port, string $cmd): int
{
    return redis_commandstats($port)[$cmd] ?? 0;
}

/** Every command's calls since the last CONFIG RESETSTAT (commands run inside scripts included). */
function redis_commandstats(int $port): array
{
    preg_match_all('/^cmdstat_([^:]+):calls=(\d+)/m', redis_cli($port, 'INFO', 'commandstats'), $m, PREG_SET_ORDER);
    $r = [];
    foreach ($m as [, $cmd, $calls]) {
        $r[$cmd] = (int) $calls;
    }
    unset($r['config'], $r['info']);
    return $r;
}

/* The commands each contender's client sends itself (the rest run inside its scripts). */
const REDIS_CLIENT_COMMANDS = ['seed' => ['set', 'eval'], 'pubsub' => ['set', 'eval', 'subscribe', 'unsubscribe'],
    'dlock' => ['evalsha', 'blpop']];

function redis_worker_cmd(string $kind, array $env): string
{
    $php = $kind === 'dlock' ? $env['php_dlock'] : $env['php_redis'];
    return "exec $php " . escapeshellarg(__DIR__ . '/redis_worker.php');
}

/**
 * W waiters queue behind one holder; once all are queued the holder releases
 * and every waiter releases as soon as it holds. Counts wake-ups per hand-over
 * release (there are W) and the hand-over latency (release returned -> next
 * acquire returned).
 */
function redis_herd(string $kind, int $port, int $w, array $env): array
{
    $name = "bench:herd:$kind:$w:" . getmypid();
    $cmd = redis_worker_cmd($kind, $env);
    $spawn = function (string $role, string $events) use ($cmd, $kind, $port, $name) {
        $p = proc_open("$cmd $role $kind $port " . escapeshellarg($name) . ' ' . escapeshellarg($events),
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        return [$p, $pipes, $events];
    };
    $holder = $spawn('herd-holder', tempnam(sys_get_temp_dir(), 'bench-rh'));
    if (trim((string) fgets($holder[1][1])) !== 'held') {
        say("redis herd $kind: the holder did not start");
    }
    $procs = [$holder];
    for ($i = 0; $i < $w; $i++) {
        $procs[] = $q = $spawn('herd-waiter', tempnam(sys_get_temp_dir(), 'bench-rh'));
        fgets($q[1][1]); /* "ready": it is about to queue */
    }
    /* wait until all W are queued: dlock's participants(), the channel's subscribers */
    $queued = 0;
    $deadline = microtime(true) + 60;
    while (microtime(true) < $deadline) {
        if ($kind === 'dlock') {
            $queued = count(array_filter(DistributedLock::participants($name, ['dsn' => "redis://127.0.0.1:$port"]),
                fn($e) => !$e['holder']));
        } else {
            $lines = explode("\n", trim(redis_cli($port, 'PUBSUB', 'NUMSUB', "unlocked:$name")));
            $queued = (int) end($lines);
        }
        if ($queued >= $w) {
            break;
        }
        usleep(20000);
    }
    if ($queued < $w) {
        say("redis herd $kind: only $queued of $w waiters queued");
    }
    usleep(100000); /* the last subscriber's retry SET has failed and it waits */
    redis_cli($port, 'CONFIG', 'RESETSTAT');
    fwrite($holder[1][0], "go\n");
    fflush($holder[1][0]);
    $ev = [];
    foreach ($procs as [$p, $pipes, $events]) {
        fgets($pipes[1]); /* "done" */
        fclose($pipes[0]);
        fclose($pipes[1]);
        proc_close($p);
        $l = trim((string) file_get_contents($events));
        if ($l !== '') {
            $ev[] = array_map('floatval', explode(' ', $l));
        }
        unlink($events);
    }
    $lpush = redis_calls($port, 'lpush');
    $publish = redis_calls($port, 'publish');
    usort($ev, fn($a, $b) => $a[0] <=> $b[0]);
    $hand = [];
    for ($k = 1; $k < count($ev); $k++) {
        $hand[] = ($ev[$k][0] - $ev[$k - 1][1]) * 1000;
    }
    $delivered = array_sum(array_column($ev, 2));
    $wakeups = $kind === 'dlock' ? $lpush : $delivered;
    $r = ['waiters' => $w, 'acquired' => count($ev), 'lpush_calls' => $lpush, 'publish_calls' => $publish,
          'messages_delivered' => $delivered, 'wakeups_per_release' => $wakeups / $w,
          'woken_by_first_release' => $kind === 'dlock' ? null : (int) ($ev[0][2] ?? 0), /* dlock: not seen per release */
          'handover_p50_ms' => pctl($hand, 0.5), 'handover_p99_ms' => pctl($hand, 0.99),
          'all_acquired' => count($ev) === $w + 1];
    say(sprintf('redis herd %s %d waiters: %.3f wake-ups per release (lpush %d, delivered %d), hand-over p50 %.2f ms',
        $kind, $w, $r['wakeups_per_release'], $lpush, $delivered, $r['handover_p50_ms']));
    return $r;
}

/** Two processes, critical section HOLD_MS = 5 x LEASE_MS; counts overlaps and lost increments. */
function redis_overlap(string $kind, int $port, int $cycles, array $env, int $leaseMs = 200, int $holdMs = 1000): array
{
    $name = "bench:overlap:$kind:" . getmypid();
    $counter = tempnam(sys_get_temp_dir(), 'bench-ro');
    $owner = tempnam(sys_get_temp_dir(), 'bench-ro');
    file_put_contents($counter, '0');
    $procs = [];
    for ($i = 0; $i < 2; $i++) {
        $events = tempnam(sys_get_temp_dir(), 'bench-ro');
        $p = proc_open(redis_worker_cmd($kind, $env) . " overlap $kind $port " . escapeshellarg($name)
            . " $cycles $counter $owner $leaseMs $holdMs $events",
            [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes);
        $procs[] = [$p, $pipes, $events];
        fgets($pipes[1]); /* "ready" */
    }
    $t0 = microtime(true);
    foreach ($procs as [$p, $pipes]) {
        fwrite($pipes[0], "go\n");
        fflush($pipes[0]);
    }
    $overlaps = $lostReleases = 0;
    foreach ($procs as [$p, $pipes, $events]) {
        fgets($pipes[1]);
        fclose($pipes[0]);
        fclose($pipes[1]);
        proc_close($p);
        $k = [];
        foreach (file($events, FILE_IGNORE_NEW_LINES | FILE_SKIP_EMPTY_LINES) as $l) {
            [$a, $b] = explode(' ', $l);
            $k[$a] = (int) $b;
        }
        $overlaps += $k['overlaps'] ?? 999;
        $lostReleases += $k['lost_releases'] ?? 999;
        unlink($events);
    }
    $count = (int) file_get_contents($counter);
    unlink($counter);
    unlink($owner);
    $r = ['lease_s' => $leaseMs / 1000, 'critical_section_s' => $holdMs / 1000, 'processes' => 2, 'cycles_each' => $cycles,
          'overlaps' => $overlaps, 'lost_writes' => 2 * $cycles - $count, 'releases_found_lock_gone' => $lostReleases,
          'elapsed_s' => microtime(true) - $t0];
    say(sprintf('redis overlap %s: %d overlaps, %d lost writes, %d releases found the lock gone (%.1f s)',
        $kind, $overlaps, $r['lost_writes'], $lostReleases, $r['elapsed_s']));
    return $r;
}

/** Runs every Redis scenario; $servers: ['always' => 'host:port', 'everysec' => 'host:port']. */
function redis_bench(array $servers, bool $smoke, array $env): array
{
    $size = redis_sizes($smoke);
    $RR = ['servers' => $servers, 'redis_version' => trim(preg_replace('/^.*v=(\S+).*$/s', '$1',
        (string) shell_exec('redis-server --version'))), 'php_redis' => trim((string) shell_exec($env['php_redis'] . ' -r "echo phpversion(\'redis\');"'))];
    $kinds = ['seed', 'pubsub', 'dlock'];
    $RR['cycles'] = [];
    foreach ($servers as $fsync => $addr) {
        $port = (int) substr(strrchr($addr, ':'), 1);
        foreach ([1 => $size['p1'], 8 => $size['p8']] as $n => $c) {
            foreach ($kinds as $kind) {
                $name = "bench:cycles:$kind:$fsync:$n:" . getmypid();
                $cmd = redis_worker_cmd($kind, $env);
                redis_cli($port, 'CONFIG', 'RESETSTAT');
                $r = ['contender' => $kind, 'appendfsync' => $fsync] + contend(
                    "redis $kind ($fsync)", $n, $c,
                    fn($counter, $ev) => "$cmd cycle $kind $port " . escapeshellarg($name) . " $c $counter $ev 30000");
                /* what the clients sent per cycle (each process also ran one warm-up cycle) */
                $stats = redis_commandstats($port);
                $sent = 0;
                foreach (REDIS_CLIENT_COMMANDS[$kind] as $k) {
                    $sent += $stats[$k] ?? 0;
                }
                $r['client_commands_per_cycle'] = $sent / (($c + 1) * $n);
                $r['commandstats'] = $stats;
                $RR['cycles']["$kind $fsync x$n"] = $r;
            }
        }
    }
    /* wake-ups and lost writes do not depend on durability: on the everysec server */
    $port = (int) substr(strrchr($servers['everysec'], ':'), 1);
    $RR['herd'] = [];
    foreach (['dlock', 'pubsub'] as $kind) {
        foreach ($size['herd'] as $w) {
            $RR['herd']["$kind $w"] = ['contender' => $kind] + redis_herd($kind, $port, $w, $env);
        }
    }
    $RR['overlap'] = [];
    foreach (['seed', 'dlock'] as $kind) {
        $RR['overlap'][$kind] = redis_overlap($kind, $port, $size['overlap_cycles'], $env);
    }
    return $RR;
}

/**
 * The report section and its targets. Correctness targets print yes/NO (a
 * NO fails CI's smoke check); speed targets yes/no, and are not asserted in
 * a smoke run. Returns [markdown, met, count].
 */
function redis_report(array $RR, bool $smoke): array
{
    $label = ['seed' => 'seed recipe (SET NX PX, 300 ms poll)', 'pubsub' => 'pub/sub wake-all lock', 'dlock' => 'dlock (Redis)'];
    $md = "\n## 8. Redis backend\n\n";
    $md .= sprintf("Same run, redis-server %s on 127.0.0.1, AOF on: `appendfsync always` on %s and `everysec` on %s; "
        . "seed and pub/sub contenders are PHP processes with php-redis %s (`php -n -d extension=igbinary -d extension=redis`), "
        . "dlock ones `php -n -d extension=dlock.so`. Lease/TTL 30 s in 8a and 8b.\n",
        $RR['redis_version'], $RR['servers']['always'], $RR['servers']['everysec'], $RR['php_redis']);
    $md .= "\n### 8a. Lock cycles (shared-counter critical section)\n\n"
        . "| contender | appendfsync | processes | cycles/s | dlock ÷ this (same fsync, same P) | wait p50 ms | wait p99 ms | hand-over p50 ms | hand-over p99 ms | client commands per cycle | counter exact |\n"
        . "|---|---|---|---|---|---|---|---|---|---|---|\n";
    $cy = $RR['cycles'];
    foreach ($cy as $key => $r) {
        $d = $cy["dlock {$r['appendfsync']} x{$r['processes']}"]['cycles_per_s'];
        $md .= sprintf("| %s | %s | %d | %.0f | %.2f | %.2f | %.2f | %s | %s | %.2f | %s |\n", $label[$r['contender']],
            $r['appendfsync'], $r['processes'], $r['cycles_per_s'], $d / $r['cycles_per_s'], $r['wait_p50_ms'], $r['wait_p99_ms'],
            is_nan($r['handover_p50_ms']) ? '–' : sprintf('%.2f', $r['handover_p50_ms']),
            is_nan($r['handover_p99_ms']) ? '–' : sprintf('%.2f', $r['handover_p99_ms']), $r['client_commands_per_cycle'],
            $r['counter_exact'] ? 'yes' : 'NO');
    }
    $md .= "\nClient commands per cycle: what each contender's processes sent (seed, pub/sub: SET, EVAL, SUBSCRIBE, UNSUBSCRIBE; "
        . "dlock: EVALSHA, BLPOP), from `INFO commandstats`, over the measured and the one warm-up cycle per process.\n";
    $md .= "\n### 8b. Wake-ups per release (W waiters queued behind a holder, then every holder releases in turn; everysec server)\n\n"
        . "dlock: `INFO commandstats` `cmdstat_lpush` calls ÷ W hand-over releases. Pub/sub: messages its PUBLISHes delivered "
        . "(subscribers woken) ÷ W; the queue drains, so a release wakes every waiter still queued: W at the first, 1 at the last. "
        . "Hand-over: release returned -> next acquire returned; it is below 0 when the woken process got its lock before "
        . "the releasing one was scheduled to read its own reply (W + 1 processes on the machine's cores).\n\n"
        . "| contender | waiters | wake-ups per release | woken by the first release | hand-over p50 ms | hand-over p99 ms | every waiter acquired |\n"
        . "|---|---|---|---|---|---|---|\n";
    foreach ($RR['herd'] as $h) {
        $md .= sprintf("| %s | %d | %.3f | %s | %.2f | %.2f | %s |\n", $label[$h['contender']], $h['waiters'], $h['wakeups_per_release'],
            $h['woken_by_first_release'] ?? '–', $h['handover_p50_ms'], $h['handover_p99_ms'], $h['all_acquired'] ? 'yes' : 'NO');
    }
    $md .= "\n### 8c. Critical section 5x the lease (2 processes; each section writes its id to a file, sleeps, checks the file, "
        . "increments a counter; everysec server)\n\n"
        . "| contender | lease/TTL s | critical section s | processes x cycles | overlapping sections | lost writes (counter short by) | releases that found the lock gone | elapsed s |\n"
        . "|---|---|---|---|---|---|---|---|\n";
    foreach ($RR['overlap'] as $kind => $o) {
        $md .= sprintf("| %s | %.1f | %.1f | %d x %d | %d | %d | %d | %.1f |\n", $kind === 'dlock' ? 'dlock (Redis, watchdog)' : 'seed recipe (TTL, no renewal)',
            $o['lease_s'], $o['critical_section_s'], $o['processes'], $o['cycles_each'], $o['overlaps'], $o['lost_writes'],
            $o['releases_found_lock_gone'], $o['elapsed_s']);
    }
    /* targets: [name, value, goal, mode ('ge' | 'eq' | 'le'), correctness] */
    $t = [];
    foreach (array_unique(array_column($cy, 'appendfsync')) as $fsync) {
        $d8 = $cy["dlock $fsync x8"]['cycles_per_s'];
        $t[] = ["8 processes, appendfsync $fsync: dlock >= 5 x seed recipe", $d8 / $cy["seed $fsync x8"]['cycles_per_s'], 5, 'ge', false];
        $t[] = ["8 processes, appendfsync $fsync: dlock >= 1.2 x pub/sub lock", $d8 / $cy["pubsub $fsync x8"]['cycles_per_s'], 1.2, 'ge', false];
    }
    $t[] = ['counters exact (every contender, P = 1 and 8, both servers; count of wrong ones)',
        count(array_filter($cy, fn($r) => !$r['counter_exact'])), 0, 'eq', true];
    foreach ($RR['herd'] as $h) {
        if ($h['contender'] === 'dlock') {
            $t[] = ["dlock wake-ups per release at {$h['waiters']} waiters == 1 (every waiter acquired)",
                $h['all_acquired'] ? $h['wakeups_per_release'] : NAN, 1, 'eq', true];
        }
    }
    $t[] = ['dlock lost writes with the critical section 5 x the lease == 0 (overlaps + lost increments)',
        $RR['overlap']['dlock']['overlaps'] + $RR['overlap']['dlock']['lost_writes'], 0, 'eq', true];
    $md .= "\n### Redis targets" . ($smoke ? ' (smoke run: speed ratios shown, not asserted)' : '') . "\n\n| target | measured | met |\n|---|---|---|\n";
    $met = $count = 0;
    foreach ($t as [$name, $v, $goal, $mode, $correctness]) {
        $ok = match ($mode) { 'eq' => abs($v - $goal) < 1e-9, 'ge' => $v >= $goal, 'le' => $v <= $goal };
        if ($smoke && !$correctness) {
            $md .= sprintf("| %s | %.2f | not asserted (smoke) |\n", $name, $v);
            continue;
        }
        $count++;
        $met += $ok;
        $md .= sprintf("| %s | %s | %s |\n", $name, $mode === 'eq' ? sprintf('%.3f', $v) : sprintf('%.2f', $v),
            $ok ? 'yes' : ($correctness ? 'NO' : 'no'));
    }
    $md .= sprintf("\nRedis: %d of %d targets met in this run%s.\n", $met, $count, $smoke ? ' (correctness only)' : '');
    return [$md, $met, $count];
}
