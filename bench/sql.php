<?php
/*
 * bench/sql.php: the SQL part of the dlock benchmark, required by bench/run.php
 * (which supplies contend(), say() and pctl()) when bench/run.sh started the two
 * servers and set DLOCK_BENCH_SQL="postgres=postgres://…,mysql=mysql://…".
 * Every figure comes from the same run as the ZooKeeper and Redis rows, against
 * the database recipes done by hand in PHP with PDO:
 *   pdo-poll        pg_try_advisory_lock / GET_LOCK(name, 0) + usleep(100 ± 10 ms)
 *                   retry (Symfony Lock's retry for stores that cannot block)
 *   pdo-block       pg_advisory_lock / GET_LOCK(name, 31536000): the server waits
 *   pdo-for-update  BEGIN; SELECT … FOR UPDATE on a one-row table; COMMIT
 *   dlock           DistributedLock on the DSN (server-side wait, request-end release)
 *   dlock-token     the same with getFencingToken() every cycle (a row write)
 * each contender its own PHP process (bench/sql_worker.php). Scenarios: P = 1 and
 * P = 8 processes x N lock / shared-file counter / unlock cycles on each server
 * back to back, and P = 8 with SQL_THINK_MS of work outside the lock per cycle
 * (as requests between their locks: the releaser does not take its own lock
 * straight back, so waiters really compete),
 * with what the server counted per cycle (PostgreSQL: transactions from
 * pg_stat_database; MariaDB: client statements, 'Questions').
 */

function sql_sizes(bool $smoke): array
{
    return $smoke ? ['p1' => 100, 'p8' => 10] : ['p1' => 2000, 'p8' => 100];
}

const SQL_KINDS = ['pdo-poll', 'pdo-block', 'pdo-for-update', 'dlock', 'dlock-token'];
/* the contenders of the scenario with work outside the lock, and that work */
const SQL_THINK_KINDS = ['pdo-poll', 'pdo-block', 'dlock', 'dlock-token'];
const SQL_THINK_MS = 2;

function sql_php(string $kind, string $server, array $env): string
{
    return str_starts_with($kind, 'dlock') ? $env['php_dlock'] : $env[$server === 'postgres' ? 'php_pdo_pgsql' : 'php_pdo_mysql'];
}

/** Runs a PDO helper role of sql_worker.php; returns its output lines as "key value" pairs. */
function sql_helper(string $server, array $env, string ...$args): array
{
    $out = (string) shell_exec(sql_php('pdo', $server, $env) . ' ' . escapeshellarg(__DIR__ . '/sql_worker.php') . ' '
        . implode(' ', array_map('escapeshellarg', $args)) . ' 2>&1');
    $r = [];
    foreach (explode("\n", trim($out)) as $l) {
        $p = explode(' ', $l, 2);
        $r[$p[0]] = $p[1] ?? '';
    }
    return $r;
}

/** What the server has counted so far (transactions on PostgreSQL, client statements on MariaDB). */
function sql_count(string $server, string $dsn, array $env): int
{
    $r = sql_helper($server, $env, 'stats', $dsn);
    return (int) ($r['xacts'] ?? $r['statements'] ?? -1);
}

/** Runs every SQL scenario; $servers: ['postgres' => DSN, 'mysql' => DSN] (either may be absent). */
function sql_bench(array $servers, bool $smoke, array $env): array
{
    $size = sql_sizes($smoke);
    $SR = ['servers' => [], 'cycles' => []];
    $names = [];
    foreach ($servers as $server => $dsn) {
        foreach ([1, 8, '8t'] as $n) {
            foreach (SQL_KINDS as $kind) {
                $names[$server][$n][$kind] = "bench-cycles-$kind-$n-" . getmypid();
            }
        }
    }
    foreach ($servers as $server => $dsn) {
        $info = sql_helper($server, $env, 'info', $dsn);
        $setup = sql_helper($server, $env, 'setup', $dsn, ...array_merge(...array_values(array_map('array_values', $names[$server]))));
        if (!isset($setup['ok'])) {
            say("sql $server: setup failed: " . implode(' ', array_keys($setup)));
        }
        /* a stats call's own statements land in the next call's figure */
        $a = sql_count($server, $dsn, $env);
        $overhead = sql_count($server, $dsn, $env) - $a;
        $SR['servers'][$server] = ['dsn' => preg_replace('#//([^:@/]*):[^@/]*@#', '//$1:***@', $dsn),
            'stats_overhead' => $overhead] + $info;
        foreach ([1 => $size['p1'], 8 => $size['p8'], '8t' => $size['p8']] as $n => $c) {
            $think = $n === '8t';
            foreach ($think ? SQL_THINK_KINDS : SQL_KINDS as $kind) {
                $cmd = 'exec ' . ($think ? 'env DLOCK_BENCH_THINK_MS=' . SQL_THINK_MS . ' ' : '')
                    . sql_php($kind, $server, $env) . ' ' . escapeshellarg(__DIR__ . '/sql_worker.php')
                    . " cycle $kind " . escapeshellarg($dsn) . ' ' . escapeshellarg($names[$server][$n][$kind]) . " $c";
                $before = sql_count($server, $dsn, $env);
                $r = ['contender' => $kind, 'server' => $server, 'think' => $think] + contend("sql $server $kind $n", (int) $n, $c,
                    fn($counter, $ev) => "$cmd $counter $ev");
                /* per cycle, over the measured and the one warm-up cycle per process (connections included) */
                $r['server_count_per_cycle'] = (sql_count($server, $dsn, $env) - $before - $overhead) / (($c + 1) * (int) $n);
                $SR['cycles']["$kind $server x$n"] = $r;
            }
        }
    }
    return $SR;
}

/**
 * The report section and its targets. Correctness targets print yes/NO (a
 * NO fails CI's smoke check); speed targets yes/no, and are not asserted in a
 * smoke run. Returns [markdown, met, count].
 */
function sql_report(array $SR, bool $smoke): array
{
    $label = ['pdo-poll' => 'PDO polling loop (try + 100 ms sleep)', 'pdo-block' => 'PDO blocking advisory lock',
        'pdo-for-update' => 'PDO SELECT … FOR UPDATE in a transaction', 'dlock' => 'dlock',
        'dlock-token' => 'dlock + getFencingToken()'];
    $md = "\n## 9. SQL backends (PostgreSQL, MariaDB)\n\n";
    $md .= "Same run, servers on 127.0.0.1 started by `scripts/servers/pg.sh start PORT --durable` and `scripts/servers/mysql.sh start PORT`:\n\n";
    foreach ($SR['servers'] as $server => $s) {
        $md .= sprintf("- %s: %s %s, %s\n", $server, $server === 'postgres' ? 'PostgreSQL' : 'MariaDB', $s['version'] ?? '?',
            $s['settings'] ?? '?');
    }
    $md .= "\nPDO contenders are PHP processes with `php -n -d extension=pdo -d extension=pdo_pgsql` (or `mysqlnd`, `pdo_mysql`), "
        . "statements prepared once per process; dlock ones `php -n -d extension=dlock.so`. The polling loop sleeps "
        . "`usleep((100 + random_int(-10, 10)) * 1000)` between tries: the retry of Symfony Lock's `acquire(true)` on a store that "
        . "cannot block (symfony/lock 5.4 `Lock.php`), the usual hand-written loop. Blocking lock: `pg_advisory_lock(k)` / "
        . "`GET_LOCK(name, 31536000)`, the server waits, no token, no request-end release.\n";
    $md .= "\n### 9a. Lock cycles (shared-counter critical section)\n\n"
        . "Rows marked \"+ " . SQL_THINK_MS . " ms\" do " . SQL_THINK_MS . " ms of work outside the lock after each release (as a request does "
        . "between its locks); the others run cycles back to back.\n\n"
        . "| contender | server | processes | cycles/s | dlock ÷ this (same server, same P) | wait p50 ms | wait p99 ms | hand-over p50 ms | hand-over p99 ms | server count per cycle | counter exact |\n"
        . "|---|---|---|---|---|---|---|---|---|---|---|\n";
    $cy = $SR['cycles'];
    foreach ($cy as $r) {
        $d = $cy["dlock {$r['server']} x{$r['processes']}" . ($r['think'] ? 't' : '')]['cycles_per_s'] ?? NAN;
        $md .= sprintf("| %s | %s | %s | %.0f | %.2f | %.2f | %.2f | %s | %s | %.2f | %s |\n", $label[$r['contender']],
            $r['server'], $r['processes'] . ($r['think'] ? ' + ' . SQL_THINK_MS . ' ms' : ''), $r['cycles_per_s'], $d / $r['cycles_per_s'], $r['wait_p50_ms'], $r['wait_p99_ms'],
            is_nan($r['handover_p50_ms']) ? '–' : sprintf('%.2f', $r['handover_p50_ms']),
            is_nan($r['handover_p99_ms']) ? '–' : sprintf('%.2f', $r['handover_p99_ms']), $r['server_count_per_cycle'],
            $r['counter_exact'] ? 'yes' : 'NO');
    }
    $md .= "\nServer count per cycle: on PostgreSQL the transactions committed or rolled back in the database "
        . "(`pg_stat_database` xact_commit + xact_rollback: one per autocommit statement, one per BEGIN … COMMIT; "
        . "a failed try of the polling loop is one too), on MariaDB the client statements (`SHOW GLOBAL STATUS` 'Questions'), "
        . "over the measured and the one warm-up cycle per process, connections included. dlock sends its acquire as one "
        . "query (PostgreSQL: `SET lock_timeout` and `pg_advisory_lock(key)`, one transaction; MariaDB: `GET_LOCK`) and its "
        . "release as one: two round trips a cycle on both; `getFencingToken()` adds one (the token row's upsert). The polling loop's cycles/s at 8 processes depends on the cycles "
        . "per process: a releasing process takes its own lock straight back (the others are asleep), so a run is mostly one "
        . "process's cycles back to back; its hand-over and p99 wait show what the others paid.\n";
    /* targets: [name, value, goal, mode ('ge' | 'eq'), correctness] */
    $t = [];
    foreach (array_keys($SR['servers']) as $server) {
        $d = fn($n) => $cy["dlock $server x$n"]['cycles_per_s'] ?? NAN;
        $t[] = ["$server, 8 processes + " . SQL_THINK_MS . " ms work: dlock >= 5 x PDO polling loop", $d('8t') / ($cy["pdo-poll $server x8t"]['cycles_per_s'] ?? NAN), 5, 'ge', false];
        $t[] = ["$server, 8 processes back to back: dlock >= 5 x PDO polling loop", $d(8) / ($cy["pdo-poll $server x8"]['cycles_per_s'] ?? NAN), 5, 'ge', false];
        foreach ([1, 8] as $n) {
            $t[] = ["$server, $n process" . ($n > 1 ? 'es' : '') . ': dlock >= 1 / 1.2 (0.83) x PDO blocking advisory lock',
                $d($n) / ($cy["pdo-block $server x$n"]['cycles_per_s'] ?? NAN), 1 / 1.2, 'ge', false];
            $t[] = ["$server, $n process" . ($n > 1 ? 'es' : '') . ': dlock + getFencingToken() >= 1 / 1.2 (0.83) x PDO blocking advisory lock',
                ($cy["dlock-token $server x$n"]['cycles_per_s'] ?? NAN) / ($cy["pdo-block $server x$n"]['cycles_per_s'] ?? NAN), 1 / 1.2, 'ge', false];
        }
    }
    $t[] = ['counters exact and tokens increasing (every contender, every scenario, both servers; count of wrong ones)',
        count(array_filter($cy, fn($r) => !$r['counter_exact'])), 0, 'eq', true];
    $md .= "\n### SQL targets" . ($smoke ? ' (smoke run: speed ratios shown, not asserted)' : '') . "\n\n| target | measured | met |\n|---|---|---|\n";
    $met = $count = 0;
    foreach ($t as [$name, $v, $goal, $mode, $correctness]) {
        $ok = $mode === 'eq' ? abs($v - $goal) < 1e-9 : $v >= $goal;
        if ($smoke && !$correctness) {
            $md .= sprintf("| %s | %.2f | not asserted (smoke) |\n", $name, $v);
            continue;
        }
        $count++;
        $met += $ok;
        $md .= sprintf("| %s | %s | %s |\n", $name, $mode === 'eq' ? sprintf('%.3f', $v) : sprintf('%.2f', $v),
            $ok ? 'yes' : ($correctness ? 'NO' : 'no'));
    }
    $md .= sprintf("\nSQL: %d of %d targets met in this run%s.\n", $met, $count, $smoke ? ' (correctness only)' : '');
    return [$md, $met, $count];
}
