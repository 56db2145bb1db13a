<?php
/* torture.php: the randomized fault checker's orchestrator (scripts/runners/torture.sh
 * starts the servers and the proxy, then this). It keeps K contenders
 * (contender.php) running until the deadline, respawning those that end, and
 * runs a seeded fault schedule beside them:
 *   pause      SIGSTOP a contender, mostly past its session timeout, SIGCONT
 *   kill       kill -9 a contender (its locks go with its session)
 *   signal     SIGUSR1 bursts (the contender's handler may throw mid-wait)
 *   server     standalone: kill -9 ZooKeeper and restart it on its data;
 *              ensemble: kill -9 the leader and restart it;
 *              redis: kill -9 Redis (appendfsync always) and restart it on
 *              its append-only file;
 *              postgres, mysql: kill -9 the server (and, for PostgreSQL,
 *              its backends) and restart it on its data (durable commits)
 *   session    postgres, mysql: the server ends a contender's session
 *              (pg_terminate_backend / KILL CONNECTION), which frees its
 *              locks at once (see sql_kill_session() for whose)
 *   stall/drop/halfclose/delay   network faults through proxy.c
 * A watchdog takes a gdb backtrace of a contender that made no progress for
 * a bound no call may exceed, and records a hang. After the deadline every
 * fault is undone, every contender must end on its own, and every lock path
 * must be free with no node left (on Redis: no key but the fencing counters
 * and the unlock latches, which expire; on SQL: no advisory lock or GET_LOCK
 * and no session of a contender left on the server). Then check.php judges
 * the histories.
 *   php torture.php RUN SEED SECONDS K MODE DIRECT_HOSTS PROXIED_HOSTS
 *                   CONTROL_PORT SERVER_SH BASE_PORT
 * MODE standalone or ensemble: SERVER_SH is scripts/servers/zk.sh, *_HOSTS host
 * lists; MODE redis: SERVER_SH is scripts/servers/redis.sh, BASE_PORT the Redis
 * server's port, *_HOSTS redis:// DSNs; MODE postgres or mysql: SERVER_SH is
 * scripts/servers/pg.sh or scripts/servers/mysql.sh, BASE_PORT the server's port, *_HOSTS
 * postgres:// or mysql:// DSNs (user, password and database dlock). */

require __DIR__ . '/check.php';

[, $run, $seed, $seconds, $k, $mode, $direct, $proxied, $control, $zksh, $base] = $argv;
$base2 = (int) ($argv[11] ?? 0); /* redis: a second server (the "servers" generator), 0: none */
$seed = (int) $seed;
$k = (int) $k;
mt_srand($seed);
$start = microtime(true);
$end = $start + (float) $seconds;
$php = escapeshellarg(PHP_BINARY) . ' -n -d ' . escapeshellarg('extension=' . getenv('DLOCK_SO'))
     . ' -d extension=posix -d dlock.max_wait=' . TORTURE_CAP;
$root = "/torture-$seed";
$hang = torture_max_bound($mode) + 25.0; /* no call lasts longer */
file_put_contents("$run/mode", "$mode\n"); /* check.php's bounds depend on it */
file_put_contents("$run/skip", (string) getenv('DLOCK_TORTURE_SKIP')); /* the judges read it too */
$lastTick = microtime(true); /* the scheduler's previous tick: a contender seen running then */

/** Whether generator $g runs (DLOCK_TORTURE_SKIP lists those left out). */
function gen(string $g): bool
{
    return !in_array($g, array_map('trim', explode(',', (string) getenv('DLOCK_TORTURE_SKIP'))), true);
}

function flog(string $file, array $r): void
{
    global $run;
    file_put_contents("$run/$file", json_encode($r) . "\n", FILE_APPEND);
}

/** Sends $sig to a contender only while PHP has not reaped it: once
 * proc_get_status() has collected its exit, its pid may belong to another
 * process (pid_max is 32768 here, and a run forks tens of thousands of
 * processes), and a stray SIGUSR1, SIGSTOP or SIGKILL killed or stopped
 * other contenders and the test servers themselves. A child that exits
 * after the check stays a zombie until reaped, so its pid is still ours. */
function signal_proc($proc, int $sig): bool
{
    if (!is_resource($proc)) {
        return false;
    }
    $st = proc_get_status($proc);
    if (!$st['running']) {
        /* PHP reports an exit status once: keep it for reap() */
        $GLOBALS['exited'][(int) $proc] = $st;
        return false;
    }
    return proc_terminate($proc, $sig);
}

function say(string $s): void
{
    global $start;
    fprintf(STDERR, "[%6.1f] %s\n", microtime(true) - $start, $s);
}

$slots = [];    /* slot => contender: proc, pid, n, since, killed, stopped */
$spawned = 0;

function spawn(int $slot): void
{
    global $slots, $spawned, $php, $run, $seed, $end, $direct, $proxied;
    $n = $spawned++;
    $hosts = $slot % 3 === 2 ? $direct : $proxied; /* most contenders see the network faults */
    $async = mt_rand(0, 1);
    $cmd = "exec $php -d dlock.async_release=$async " . escapeshellarg(__DIR__ . '/contender.php') . ' '
         . escapeshellarg($run) . ' ' . ($seed * 1000 + $n) . ' ' . sprintf('%.3f', $end) . ' '
         . escapeshellarg($hosts) . " $n";
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['file', "$run/c$n.out", 'w'],
                             2 => ['file', "$run/c$n.err", 'w']], $pipes);
    $pid = proc_get_status($proc)['pid'];
    $slots[$slot] = ['proc' => $proc, 'pid' => $pid, 'n' => $n, 'since' => microtime(true),
                     'killed' => false, 'stopped' => false];
}

/** The last history record of a contender, or null. */
function last_record(int $pid): ?array
{
    global $run;
    $f = "$run/hist-$pid.jsonl";
    if (!is_file($f)) {
        return null;
    }
    $h = fopen($f, 'r');
    fseek($h, max(0, filesize($f) - 4096));
    $lines = array_filter(explode("\n", (string) stream_get_contents($h)));
    fclose($h);
    return $lines ? json_decode(end($lines), true) : null;
}

/** Collects ended contenders; respawns them while the run lasts. */
function reap(bool $respawn): void
{
    global $slots, $end;
    foreach ($slots as $slot => $c) {
        $st = $GLOBALS['exited'][(int) $c['proc']] ?? proc_get_status($c['proc']);
        unset($GLOBALS['exited'][(int) $c['proc']]);
        if ($st['running']) {
            continue;
        }
        proc_close($c['proc']);
        $last = last_record($c['pid']);
        $bye = ($last['t'] ?? '') === 'bye' ? $last['how'] : '';
        if ($c['killed']) {
            $ok = true;
            $how = 'killed by the schedule';
        } elseif ($st['signaled']) {
            $ok = false;
            $how = "signal $st[termsig]" . ($bye ? " after '$bye'" : '');
        } else {
            $code = $st['exitcode'];
            $ok = $code === 0 && $bye !== 'throw' || $code === 255 && $bye === 'throw';
            $how = "exit $code" . ($bye ? " after '$bye'" : ' without a goodbye');
        }
        if (!$ok) {
            $how .= '; stderr: ' . substr(trim((string) @file_get_contents($GLOBALS['run'] . "/c$c[n].err")), -600);
        }
        /* seen: the last tick at which it was still running (its exit lies in seen..at) */
        flog('exits.jsonl', ['pid' => $c['pid'], 'ok' => $ok, 'how' => $how, 'at' => microtime(true),
                             'seen' => $GLOBALS['lastTick'], 'killed' => $c['killed']]);
        unset($slots[$slot]);
        if ($respawn && microtime(true) < $end - 2.0) {
            spawn($slot);
        }
    }
}

/** A contender that made no progress for longer than any call may take. */
function watchdog(): void
{
    global $slots, $run, $hang;
    clearstatcache();
    foreach ($slots as $slot => $c) {
        if ($c['stopped']) {
            continue;
        }
        $f = "$run/hist-$c[pid].jsonl";
        $last = max($c['since'], is_file($f) ? filemtime($f) : 0);
        if (microtime(true) - $last > $hang) {
            $bt = shell_exec("timeout 60 gdb -p $c[pid] -batch -ex 'thread apply all bt' 2>&1");
            file_put_contents("$run/hang-$c[pid].txt", $bt);
            flog('violations.jsonl', ['what' => "contender $c[pid] made no progress for $hang s "
                . "(a hang; backtrace in $run/hang-$c[pid].txt)"]);
            say("HANG: contender $c[pid]");
            signal_proc($c['proc'], 9);
            $slots[$slot]['killed'] = true;
        }
    }
}

function proxy(string $cmd): void
{
    global $control;
    $s = @stream_socket_client("tcp://127.0.0.1:$control", $errno, $errstr, 5);
    if (!$s) {
        flog('violations.jsonl', ['what' => "fault proxy unreachable: $errstr"]);
        return;
    }
    stream_set_timeout($s, 5);
    fwrite($s, "$cmd\n");
    $ok = fgets($s);
    fclose($s);
    if (trim((string) $ok) !== 'ok') {
        flog('violations.jsonl', ['what' => "fault proxy refused '$cmd'"]);
    }
}

/** A contender that runs and has installed its signal handlers (they come
 * right after its history file: a signal before them would kill it). */
function signalable(array $c): bool
{
    global $run;
    return !$c['stopped'] && !$c['killed'] && microtime(true) - $c['since'] > 1.0
        && is_file("$run/hist-$c[pid].jsonl");
}

/** Runs scripts/servers/zk.sh in the background; returns the process. */
function zk(string ...$args)
{
    global $zksh, $run;
    $cmd = 'exec ' . escapeshellarg($zksh) . ' ' . implode(' ', array_map('escapeshellarg', $args));
    $proc = proc_open($cmd, [0 => ['file', '/dev/null', 'r'], 1 => ['pipe', 'w'],
                             2 => ['file', "$run/zk.log", 'a']], $pipes);
    return [$proc, $pipes[1]];
}

/** Where the checker's own commands reach the Redis on $port: TCP, or the
 * server's Unix socket for a TLS-only server (DLOCK_TORTURE_REDIS_ADMIN, set
 * by torture.sh --redis --tls), so the admin side needs no TLS client. */
function redis_admin(int $port): string
{
    global $base;
    $unix = getenv('DLOCK_TORTURE_REDIS_ADMIN');
    return $port === (int) $base && $unix ? $unix : "tcp://127.0.0.1:$port";
}

/** One command to the Redis server (BASE_PORT) in raw RESP: torture.php runs
 * with php -n, without php-redis. Errors throw RuntimeException. */
function resp(array $args, ?int $port = null)
{
    static $conns = [];
    global $base;
    $port ??= (int) $base;
    $s = $conns[$port] ?? null;
    if ($s === null || feof($s)) {
        if (!($s = @stream_socket_client(redis_admin($port), $errno, $errstr, 5))) {
            throw new RuntimeException("cannot reach Redis on $port: $errstr");
        }
        stream_set_timeout($s, 10);
        $conns[$port] = $s;
    }
    $cmd = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $cmd .= '$' . strlen((string) $a) . "\r\n$a\r\n";
    }
    try {
        fwrite($s, $cmd);
        return resp_read($s);
    } catch (RuntimeException $e) {
        if (!str_starts_with($e->getMessage(), 'Redis: ') || str_contains($e->getMessage(), 'reply')) {
            fclose($s);
            unset($conns[$port]); /* a broken connection is not reused */
        }
        throw $e;
    }
}

/** Sends one command to the Redis on $port on a connection of its own and
 * does not wait for the answer (DEBUG SLEEP blocks the server); the
 * connection is closed a little later by redis_fire_close(). */
function redis_fire(int $port, array $args): void
{
    global $fired;
    if (!($s = @stream_socket_client(redis_admin($port), $errno, $errstr, 2))) {
        return;
    }
    $cmd = '*' . count($args) . "\r\n";
    foreach ($args as $a) {
        $cmd .= '$' . strlen((string) $a) . "\r\n$a\r\n";
    }
    fwrite($s, $cmd);
    $fired[] = [microtime(true) + 10.0, $s];
}

function redis_fire_close(bool $all = false): void
{
    global $fired;
    foreach ($fired ?? [] as $i => [$due, $s]) {
        if ($all || microtime(true) >= $due) {
            fclose($s);
            unset($fired[$i]);
        }
    }
}

/** The "users" generator's two ACL users (alice, bob) on the run's Redis;
 * ACL users do not survive a restart, so this runs after each one. */
function redis_users(): void
{
    global $mode;
    if ($mode !== 'redis' || !gen('users')) {
        return;
    }
    try {
        /* each may touch only its own lock's keys (m0: alice, m1: bob), so
         * renewing one's lease with the other's credentials is refused */
        foreach (['alice' => ['pa', 'm0'], 'bob' => ['pb', 'm1']] as $u => [$pw, $n]) {
            resp(['ACL', 'SETUSER', $u, 'reset', 'on', ">$pw", "~*/$n*", '&*', '+@all']);
        }
    } catch (RuntimeException $e) {
        say('ACL SETUSER failed: ' . $e->getMessage());
    }
}

/** The "redis-faults" generator: FLUSHALL, the eviction of one of dlock's
 * keys of this run (a DEL, as allkeys-* eviction would: a lock hash, a
 * queue, a heartbeat or the fencing counter), CLIENT PAUSE of every client,
 * DEBUG SLEEP of the whole server. The "servers" generator stalls the second
 * server the same two ways ("b-pause", "b-sleep"). */
function redis_fault(string $kind, float $t): void
{
    global $base, $base2, $root;
    try {
        switch ($kind) {
            case 'flushall':
                resp(['FLUSHALL']);
                say('FLUSHALL');
                flog('faults.jsonl', ['f' => $kind, 's' => $t]);
                return;
            case 'evict':
                $keys = resp(['KEYS', "*$root*"]);
                if (!$keys) {
                    return;
                }
                $key = $keys[mt_rand(0, count($keys) - 1)];
                resp(['DEL', $key]);
                say("evicted $key");
                flog('faults.jsonl', ['f' => $kind, 's' => $t, 'key' => $key]);
                return;
            case 'cpause':
            case 'b-pause':
                $d = mt_rand(200, 3000);
                resp(['CLIENT', 'PAUSE', $d, 'ALL'], $kind === 'cpause' ? (int) $base : $base2);
                say("$kind $d ms");
                flog('faults.jsonl', ['f' => $kind, 's' => $t, 'e' => $t + $d / 1000]);
                return;
            case 'dsleep':
            case 'b-sleep':
                /* the second server sleeps up to 12 s: longer than a request
                 * end may take (2 connect_timeouts + slack), so a shutdown
                 * that waits for a renewal stuck there is seen */
                $d = mt_rand(200, $kind === 'dsleep' ? 3000 : 12000) / 1000;
                redis_fire($kind === 'dsleep' ? (int) $base : $base2, ['DEBUG', 'SLEEP', sprintf('%.3f', $d)]);
                say("$kind $d s");
                flog('faults.jsonl', ['f' => $kind, 's' => $t, 'e' => $t + $d]);
                return;
        }
    } catch (RuntimeException $e) {
        say("$kind failed: " . $e->getMessage());
    }
}

function resp_read($s)
{
    $line = fgets($s);
    if ($line === false || strlen($line) < 3) {
        throw new RuntimeException('Redis: no reply');
    }
    $v = substr($line, 1, -2);
    switch ($line[0]) {
        case '+':
            return $v;
        case '-':
            throw new RuntimeException("Redis: $v");
        case ':':
            return (int) $v;
        case '$':
            if ((int) $v < 0) {
                return null;
            }
            for ($d = '', $n = (int) $v + 2; strlen($d) < $n; $d .= $c) {
                if (($c = fread($s, $n - strlen($d))) === false || $c === '') {
                    throw new RuntimeException('Redis: reply cut short');
                }
            }
            return substr($d, 0, -2);
        case '*':
            $a = [];
            for ($i = (int) $v; $i > 0; $i--) {
                $a[] = resp_read($s);
            }
            return $a;
    }
    throw new RuntimeException("Redis: unexpected reply '$line'");
}

/** Redis mode's leftover check. Every lock name must be free within a lease
 * (a killed holder's) plus a dead waiter's heartbeat TTL plus slack, hold
 * only us while we hold it and nobody after; then, once their TTLs ran out,
 * no key may remain but the fencing counters (redisson_lock_token:*, kept
 * for ever by design) and unlock latches that still have a TTL: no lock
 * hash, no dlock_queue:*, dlock_wait:* or dlock_wake:* key, and no key at
 * all without a TTL. */
function redis_leftovers(): void
{
    global $root, $direct;
    $o = ['dsn' => $direct, 'lease' => TORTURE_LEASE, 'connect_timeout' => 10];
    $wait = TORTURE_LEASE + TORTURE_WAIT_TTL + 3.0;
    $names = ["$root/m0", "$root/m1", "$root/rw", "$root/sem"];
    for ($i = 0; $i < 5; $i++) {
        $names[] = "$root/orders/o$i";
    }
    foreach ($names as $p) {
        try {
            /* the write part of the read-write lock, one lease of the
             * semaphore of 2 (with the lease ours, the other is free) */
            $list = fn() => match (basename($p)) {
                'rw' => DistributedReadWriteLock::participants($p, $o),
                'sem' => DistributedSemaphore::participants($p, 2, $o),
                default => DistributedLock::participants($p, $o),
            };
            $l = match (basename($p)) {
                'rw' => (new DistributedReadWriteLock($p, $o))->writeLock(),
                'sem' => new DistributedSemaphore($p, 2, $o),
                default => new DistributedLock($p, $o),
            };
            if (!$l->acquire($wait)) {
                $left = json_encode($list());
                flog('violations.jsonl', ['what' => "$p still taken $wait s after every contender ended: $left"]);
                continue;
            }
            $held = $list();
            $l->release();
            $after = $list();
            if (count($held) !== 1 || !$held[0]['holder'] || $after) {
                flog('violations.jsonl', ['what' => "$p: participants while we held it " . json_encode($held)
                    . ', after our release ' . json_encode($after)]);
            }
        } catch (DistributedLockException $e) {
            flog('violations.jsonl', ['what' => "$p: leftover check failed: " . get_class($e) . ': '
                . $e->getMessage()]);
        }
    }
    /* a queue key's own TTL is 4 heartbeat TTLs: nothing may outlive that */
    $s = microtime(true);
    $limit = $s + 4 * TORTURE_WAIT_TTL + 2.0;
    try {
        for (;;) {
            $left = [];
            $forever = [];
            foreach (resp(['KEYS', '*']) as $k) {
                if (str_starts_with($k, 'redisson_lock_token:')) {
                    continue;
                }
                $ttl = resp(['PTTL', $k]);
                if ($ttl === -1) {
                    $forever[] = $k;
                } elseif ($ttl >= 0 && !str_starts_with($k, 'redisson_unlock_latch:')) {
                    $left[$k] = $ttl;
                }
            }
            if (!$left || microtime(true) >= $limit) {
                break;
            }
            usleep(100000);
        }
        if ($forever) {
            flog('violations.jsonl', ['what' => 'keys without a TTL after the run: ' . json_encode($forever)]);
        }
        if ($left) {
            flog('violations.jsonl', ['what' => sprintf('keys left %.1f s after every lock was released '
                . '(key => ms to live): %s', microtime(true) - $s, json_encode($left))]);
        } else {
            say(sprintf('no keys left after %.1f s', microtime(true) - $s));
        }
    } catch (RuntimeException $e) {
        flog('violations.jsonl', ['what' => 'leftover key check failed: ' . $e->getMessage()]);
    }
}

/* ---- the SQL servers (postgres, mysql modes) ---- */

/** One statement to the SQL server on BASE_PORT through its command-line
 * client (torture.php runs with php -n, without PDO), as the dlock user:
 * the rows as arrays of fields, or null when the server did not answer. */
function sql_cli(string $q): ?array
{
    global $mode, $base;
    $cmd = $mode === 'postgres'
        ? "PGPASSWORD=dlock PGCONNECT_TIMEOUT=3 timeout 10 psql -X -q -At -F '\t' -h 127.0.0.1 -p $base"
          . ' -U dlock -d dlock -v ON_ERROR_STOP=1 -c ' . escapeshellarg($q)
        : "timeout 10 mariadb --no-defaults --connect-timeout=3 -h 127.0.0.1 -P $base -u dlock -pdlock"
          . ' -N -B -e ' . escapeshellarg($q) . ' dlock';
    exec("$cmd 2>/dev/null", $out, $rc);
    if ($rc !== 0) {
        return null;
    }
    return array_map(fn($l) => explode("\t", $l), array_values(array_filter($out, fn($l) => $l !== '')));
}

/** The dlock sessions on the server: session id => client port (the port
 * of the contender's own socket, or of the proxy's socket to the server). */
function sql_sessions(): ?array
{
    global $mode;
    $rows = sql_cli($mode === 'postgres'
        ? "SELECT pid, client_port FROM pg_stat_activity WHERE application_name = 'dlock'"
        : "SELECT id, SUBSTRING_INDEX(host, ':', -1) FROM information_schema.processlist "
          . "WHERE user = 'dlock' AND id <> CONNECTION_ID()");
    if ($rows === null) {
        return null;
    }
    $s = [];
    foreach ($rows as $r) {
        $s[(int) $r[0]] = (int) ($r[1] ?? 0);
    }
    return $s;
}

/** Which process owns each established loopback socket to the server:
 * local port => pid (ss -p). */
function sql_socket_owners(): array
{
    global $base;
    $own = [];
    foreach (explode("\n", (string) shell_exec('ss -tnpH state established 2>/dev/null')) as $l) {
        if (preg_match('/127\.0\.0\.1:(\d+)\s+127\.0\.0\.1:' . $base . '\s.*pid=(\d+)/', $l, $m)) {
            $own[(int) $m[1]] = (int) $m[2];
        }
    }
    return $own;
}

/** The "session" fault: the server ends one contender's session, which
 * frees its locks at once. Any session may be chosen, the contenders'
 * behind the proxy too: there the server frees the locks before the proxy
 * (delaying, stalling) forwards the news, so another contender can be
 * granted the lock while the old holder has not heard; isAcquired() asks the
 * session itself on every call, so it cannot say true then (an earlier dlock
 * trusted a confirmation younger than 1 s, and this fault showed the
 * overlap). DLOCK_TORTURE_SQL_KILL_PROXIED=0 kills direct sessions only. */
function sql_kill_session(float $t): void
{
    global $slots, $mode, $serverDown, $server;
    if ($serverDown || $server !== null || ($sessions = sql_sessions()) === null) {
        return;
    }
    $owners = sql_socket_owners();
    $contenders = array_column($slots, 'pid');
    $proxied = getenv('DLOCK_TORTURE_SQL_KILL_PROXIED') !== '0';
    $pick = [];
    foreach ($sessions as $sid => $port) {
        $owner = $owners[$port] ?? 0;
        if (in_array($owner, $contenders, true)) {
            $pick[] = [$sid, $owner, 'direct'];
        } elseif ($proxied && $owner) {
            $pick[] = [$sid, $owner, 'proxy'];
        }
    }
    if (!$pick) {
        return;
    }
    [$sid, $owner, $via] = $pick[mt_rand(0, count($pick) - 1)];
    $ok = sql_cli($mode === 'postgres' ? "SELECT pg_terminate_backend($sid)" : "KILL CONNECTION $sid");
    say("session $sid of $owner killed ($via)" . ($ok === null ? ': refused' : ''));
    flog('faults.jsonl', ['f' => 'session', 'pid' => $owner, 'sid' => $sid, 'via' => $via, 's' => $t,
                          'ok' => $ok !== null]);
}

/** SQL modes' leftover check: every lock name must be free within
 * dlock.max_wait plus slack (a killed contender's server-side wait lives on
 * until its lock_timeout, and may be granted once before its session ends),
 * name only us while we hold it and nobody after; then no session of a
 * contender may remain and no lock be held on the server (PostgreSQL: no
 * advisory lock at all in pg_locks; MySQL: IS_USED_LOCK of every name is
 * NULL). */
function sql_leftovers(): void
{
    global $root, $direct, $mode;
    $o = ['dsn' => $direct, 'connect_timeout' => 10];
    $wait = TORTURE_CAP + 5.0;
    $names = ["$root/m0", "$root/m1"];
    for ($i = 0; $i < 5; $i++) {
        $names[] = "$root/orders/o$i";
    }
    if ($mode === 'postgres') {
        $names[] = "$root/rw";
        $names[] = "$root/sem";
    }
    $ours = [];
    foreach ($names as $p) {
        try {
            /* the write part of the read-write lock, one lease of the
             * semaphore of 2 (with the lease ours, the other is free) */
            $list = fn() => match (basename($p)) {
                'rw' => DistributedReadWriteLock::participants($p, $o),
                'sem' => DistributedSemaphore::participants($p, 2, $o),
                default => DistributedLock::participants($p, $o),
            };
            $l = match (basename($p)) {
                'rw' => (new DistributedReadWriteLock($p, $o))->writeLock(),
                'sem' => new DistributedSemaphore($p, 2, $o),
                default => new DistributedLock($p, $o),
            };
            if (!$l->acquire($wait)) {
                flog('violations.jsonl', ['what' => "$p still taken $wait s after every contender ended: "
                    . json_encode($list())]);
                continue;
            }
            $held = $list();
            $l->release();
            $after = $list();
            if (count($held) !== 1 || !$held[0]['holder'] || $after) {
                flog('violations.jsonl', ['what' => "$p: participants while we held it " . json_encode($held)
                    . ', after our release ' . json_encode($after)]);
            }
            foreach ($held as $h) {
                $ours[(int) $h['node']] = true;
            }
        } catch (DistributedLockException $e) {
            flog('violations.jsonl', ['what' => "$p: leftover check failed: " . get_class($e) . ': '
                . $e->getMessage()]);
        }
    }
    /* MySQL: the names are short enough for the server's lock names to be
     * "<database>.<name>" (core/sql/dlock_my.c); the databases are "dlock"
     * and, for the users generator, "dlock2" */
    $locksq = $mode === 'postgres'
        ? "SELECT pid, mode, granted FROM pg_locks WHERE locktype = 'advisory'"
        : 'SELECT n, IS_USED_LOCK(n) FROM (SELECT ' . implode(' AS n UNION ALL SELECT ',
            array_merge(array_map(fn($n) => "'dlock.$n'", $names), array_map(fn($n) => "'dlock2.$n'", $names)))
            . ' AS n) t WHERE IS_USED_LOCK(n) IS NOT NULL';
    $s = microtime(true);
    for (;;) {
        $sessions = sql_sessions();
        $locks = sql_cli($locksq);
        if ($sessions === null || $locks === null) {
            flog('violations.jsonl', ['what' => 'leftover check: the server did not answer']);
            return;
        }
        $left = array_diff_key($sessions, $ours);
        if (!$left && !$locks || microtime(true) - $s > $wait) {
            break;
        }
        usleep(200000);
    }
    if ($left) {
        flog('violations.jsonl', ['what' => sprintf('%d contender sessions left %.1f s after the leftover '
            . 'check: %s', count($left), microtime(true) - $s, json_encode(array_keys($left)))]);
    }
    if ($locks) {
        flog('violations.jsonl', ['what' => 'locks left on the server after every release: ' . json_encode($locks)]);
    }
    if (!$left && !$locks) {
        say(sprintf('no session or lock left after %.1f s', microtime(true) - $s));
    }
}

/* ---- the schedule ---- */
$events = [];        /* [due, callable] */
$server = null;      /* a server fault in progress: ['proc' => zk.sh running, 'then' => callable] */
$serverDown = false;
$delayOn = false;

function after(float $s, callable $f): void
{
    global $events;
    $events[] = [microtime(true) + $s, $f];
}

function pick_running(): ?int
{
    global $slots;
    $live = array_keys(array_filter($slots, 'signalable'));
    return $live ? $live[mt_rand(0, count($live) - 1)] : null;
}

function fault(): void
{
    global $slots, $mode, $base, $server, $serverDown, $delayOn;
    $kinds = ['pause' => 20, 'kill' => 10, 'signal' => 18, 'server' => 10, 'stall' => 12, 'drop' => 12,
              'halfclose' => 8, 'delay' => 10];
    if ($mode === 'postgres' || $mode === 'mysql') {
        $kinds['session'] = 14;
    }
    if ($mode === 'redis' && gen('redis-faults')) {
        $kinds += ['flushall' => 3, 'evict' => 6, 'cpause' => 5, 'dsleep' => 5];
    }
    /* the "calm" generator: the last 12 s of every 30 s bring signals only
     * (whose handlers use locks, fork and exit: none of it excuses a late
     * hand-over or a lost hold), so the liveness and loss judges, which
     * excuse what the other faults touch, have stretches to judge */
    global $start;
    if (gen('calm') && fmod(microtime(true) - $start, 30.0) >= 18.0) {
        $kinds = ['signal' => 1];
    }
    $pick = mt_rand(1, array_sum($kinds));
    foreach ($kinds as $kind => $w) {
        if (($pick -= $w) <= 0) {
            break;
        }
    }
    $t = microtime(true);
    switch ($kind) {
        case 'flushall':
        case 'evict':
        case 'cpause':
        case 'dsleep':
            redis_fault($kind, $t);
            return;
        case 'pause':
            if (($slot = pick_running()) === null) {
                return;
            }
            $c = $slots[$slot];
            $d = mt_rand(0, 3) ? mt_rand(2300, 4500) / 1000 : mt_rand(200, 1200) / 1000;
            signal_proc($c['proc'], SIGSTOP);
            $slots[$slot]['stopped'] = true;
            say(sprintf('pause %d for %.1f s', $c['pid'], $d));
            after($d, function () use ($slot, $c, $t) {
                global $slots;
                signal_proc($c['proc'], SIGCONT);
                if (isset($slots[$slot]) && $slots[$slot]['pid'] === $c['pid']) {
                    $slots[$slot]['stopped'] = false;
                    $slots[$slot]['since'] = microtime(true);
                }
                flog('faults.jsonl', ['f' => 'pause', 'pid' => $c['pid'], 's' => $t, 'e' => microtime(true)]);
            });
            return;
        case 'kill':
            if (($slot = pick_running()) === null) {
                return;
            }
            say("kill -9 {$slots[$slot]['pid']}");
            signal_proc($slots[$slot]['proc'], SIGKILL);
            $slots[$slot]['killed'] = true;
            flog('faults.jsonl', ['f' => 'kill', 'pid' => $slots[$slot]['pid'], 's' => $t]);
            return;
        case 'signal':
            if (($slot = pick_running()) === null) {
                return;
            }
            /* in a calm phase, every running contender gets one */
            $to = count($kinds) === 1 ? array_keys(array_filter($slots, 'signalable')) : [$slot];
            foreach ($to as $slot) {
                for ($i = mt_rand(1, 3); $i > 0; $i--) {
                    signal_proc($slots[$slot]['proc'], SIGUSR1);
                }
                flog('faults.jsonl', ['f' => 'signal', 'pid' => $slots[$slot]['pid'], 's' => $t]);
            }
            return;
        case 'server':
            if ($server !== null) {
                return;
            }
            $d = mt_rand(500, 4000) / 1000;
            if ($mode === 'ensemble') {
                $p = zk('kill-leader', $base);
                $id = trim((string) stream_get_contents($p[1]));
                proc_close($p[0]);
                say("leader $id killed for $d s");
                $serverDown = true;
                after($d, function () use ($id) {
                    global $server, $base;
                    $server = ['proc' => zk('restart-node', $base, $id), 'what' => "restart node $id"];
                });
            } elseif ($mode !== 'standalone') { /* redis, postgres, mysql */
                $p = zk('kill', $base);
                stream_get_contents($p[1]);
                proc_close($p[0]);
                say("$mode killed for $d s");
                $serverDown = true;
                after($d, function () {
                    global $server, $base;
                    $server = ['proc' => zk('restart', $base), 'what' => 'restart'];
                });
            } else {
                $p = zk('crash', $base);
                stream_get_contents($p[1]);
                proc_close($p[0]);
                say("server crashed for $d s");
                $serverDown = true;
                after($d, function () {
                    global $server, $base;
                    $server = ['proc' => zk('resume', $base), 'what' => 'resume'];
                });
            }
            $server = ['proc' => null, 'what' => 'down'];
            flog('faults.jsonl', ['f' => 'server', 's' => $t, 'd' => $d]);
            return;
        case 'session':
            sql_kill_session($t);
            return;
        case 'stall':
            $d = mt_rand(300, 4000);
            proxy("stall $d");
            say("network stall $d ms");
            flog('faults.jsonl', ['f' => $kind, 's' => $t, 'e' => $t + $d / 1000]);
            return;
        case 'drop':
        case 'halfclose':
            proxy($kind);
            say($kind);
            break;
        case 'delay':
            if ($delayOn) {
                return;
            }
            $d = mt_rand(20, 600);
            proxy("delay $d");
            $delayOn = true;
            say("network delay $d ms");
            after(mt_rand(1000, 3000) / 1000, function () use ($t, $d) {
                global $delayOn;
                proxy('clear');
                $delayOn = false;
                flog('faults.jsonl', ['f' => 'delay', 's' => $t, 'e' => microtime(true) + $d / 1000]);
            });
            return;
    }
    flog('faults.jsonl', ['f' => $kind, 's' => $t]);
}

/** Advances a server restart in progress (zk.sh waits for the server). */
function server_step(): void
{
    global $server, $serverDown;
    if ($server === null || $server['proc'] === null) {
        return;
    }
    $st = proc_get_status($server['proc'][0]);
    if ($st['running']) {
        return;
    }
    proc_close($server['proc'][0]);
    if ($st['exitcode'] !== 0) {
        flog('violations.jsonl', ['what' => "the server did not come back ($server[what]): see zk.log"]);
    }
    $server = null;
    $serverDown = false;
    flog('faults.jsonl', ['f' => 'up', 's' => microtime(true)]); /* ends the server fault's window */
    redis_users();
}

function run_events(bool $all = false): void
{
    global $events;
    $now = microtime(true);
    foreach ($events as $i => [$due, $f]) {
        if ($all || $due <= $now) {
            unset($events[$i]);
            $f();
        }
    }
}

redis_users();
if ($mode === 'redis') {
    putenv('DLOCK_TORTURE_USERS=alice:pa,bob:pb');
    if ($base2) {
        putenv("DLOCK_TORTURE_REDIS2=redis://127.0.0.1:$base2");
    }
}
if ($mode === 'mysql' && gen('users')) { /* a second database on the same server */
    exec("timeout 10 mariadb --no-defaults --connect-timeout=3 -h 127.0.0.1 -P $base -u root -N -B -e "
        . escapeshellarg("CREATE DATABASE IF NOT EXISTS dlock2; GRANT ALL ON dlock2.* TO 'dlock'@'%'")
        . ' 2>&1', $o, $rc);
    if ($rc === 0) {
        putenv('DLOCK_TORTURE_DB2=' . preg_replace('~/dlock(\?.*)?$~', '/dlock2$1', $direct));
    } else {
        say('cannot create the second database: ' . implode(' ', $o));
    }
}
for ($i = 0; $i < $k; $i++) {
    spawn($i);
}
$next = microtime(true) + 1.0;
$nextB = microtime(true) + 2.0;
while (microtime(true) < $end) {
    $t0 = microtime(true);
    reap(true);
    $lastTick = $t0;
    redis_fire_close();
    if ($base2 && gen('servers') && microtime(true) >= $nextB) {
        redis_fault(mt_rand(0, 1) ? 'b-sleep' : 'b-pause', microtime(true));
        $nextB = microtime(true) + mt_rand(2000, 7000) / 1000;
    }
    run_events();
    server_step();
    watchdog();
    if (microtime(true) >= $next) {
        fault();
        $next = microtime(true) + mt_rand(800, 3500) / 1000;
    }
    usleep(20000); /* the scheduler's tick */
}

/* undo every fault, then every contender must end on its own */
say('deadline: undoing faults');
proxy('clear');
run_events(true);
while ($server !== null) {
    server_step();
    usleep(50000);
}
foreach ($slots as $slot => $c) {
    if ($c['stopped']) {
        signal_proc($c['proc'], SIGCONT);
    }
}
$until = microtime(true) + $hang;
while ($slots && microtime(true) < $until) {
    $t0 = microtime(true);
    reap(false);
    $lastTick = $t0;
    usleep(50000);
}
redis_fire_close(true);
foreach ($slots as $c) {
    $bt = shell_exec("timeout 60 gdb -p $c[pid] -batch -ex 'thread apply all bt' 2>&1");
    file_put_contents("$run/hang-$c[pid].txt", $bt);
    flog('violations.jsonl', ['what' => "contender $c[pid] did not end after the deadline (backtrace in "
        . "$run/hang-$c[pid].txt)"]);
    signal_proc($c['proc'], SIGKILL);
}

/* no leftovers: each lock must be free within one session timeout (the nodes
 * of killed contenders expire), and no node may remain once we release */
say('checking for leftover nodes');
ini_set('dlock.async_release', '0');
if ($mode === 'redis') {
    redis_leftovers();
} elseif ($mode === 'postgres' || $mode === 'mysql') {
    sql_leftovers();
} else {
    $o = ['hosts' => $direct, 'connect_timeout' => 10];
    $wait = TORTURE_ST + 15.0;
    $paths = ["$root/m0", "$root/m1", "$root/rw", "$root/sem"];
    for ($i = 0; $i < 5; $i++) {
        $paths[] = "$root/orders/o$i";
    }
    function nodes(string $p, array $o): array
    {
        return match (basename($p)) {
            'rw' => DistributedReadWriteLock::participants($p, $o),
            'sem' => DistributedSemaphore::participants($p, 1, $o),
            default => DistributedLock::participants($p, $o),
        };
    }
    foreach ($paths as $p) {
        try {
            if (basename($p) === 'rw') {
                $l = (new DistributedReadWriteLock($p, $o))->writeLock();
            } elseif (basename($p) === 'sem') {
                $l = new DistributedSemaphore($p, 1, $o);
            } else {
                $l = new DistributedLock($p, $o);
            }
            if (!$l->acquire($wait)) {
                $left = json_encode(nodes($p, $o));
                flog('violations.jsonl', ['what' => "$p still taken $wait s after every contender ended: $left"]);
                continue;
            }
            $n = count(nodes($p, $o));
            $l->release();
            $after = count(nodes($p, $o));
            if ($n !== 1 || $after !== 0) {
                flog('violations.jsonl', ['what' => "$p: $n nodes while we held it, $after after our release"]);
            }
        } catch (DistributedLockException $e) {
            flog('violations.jsonl', ['what' => "$p: leftover check failed: " . $e->getMessage()]);
        }
    }
}

[$v, $stats] = torture_check($run);
foreach (array_slice($v, 0, 30) as $x) {
    echo "violation: $x\n";
}
printf("torture: seed %d: %d holds (%d certain), %d writes (%d rejected by the fence), %d lost, %d exceptions\n",
    $seed, $stats['holds'], $stats['certain'], $stats['writes'], $stats['rejected'], $stats['lost'],
    $stats['exceptions']);
printf("torture: revocation: %d holders asked, %d revoked holders released, %d ignored and kept the lock\n",
    $stats['asked'], $stats['revoked'], $stats['ignored']);
printf("torture: %d operations, %d faults, %d violations\n", $stats['ops'], $stats['faults'], count($v));
exit($v ? 1 : 0);
