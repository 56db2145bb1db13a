<?php
/* scripts/runners/fleet.php: drives a php-fpm pool the way a busy host does, many
 * requests in flight at once, each speaking FastCGI itself (no cgi-fcgi
 * process a request), and watches the lock server meanwhile. Used by the
 * fleet test (tests/12_fleet) and the fleet rows of the benchmark
 * (bench/fleet.php).
 *
 *   php scripts/runners/fleet.php FPM_PORT SCRIPT REQUESTS CONCURRENCY SERVER_PORT [QUERY]
 *   php scripts/runners/fleet.php --count SERVER_PORT [PID]
 *       prints the connections to it now (of process PID only, when given)
 *
 * Sends REQUESTS GETs of SCRIPT (an absolute path), CONCURRENCY of them in
 * flight at any time, request $i with QUERY (a query string) plus "i=$i".
 * Every 200 ms it counts the established TCP connections to 127.0.0.1:SERVER_PORT
 * (everything runs on loopback: these are the lock server's client
 * connections, counted without taking one of its slots; see
 * fleet_connections). Prints one
 * JSON object: requests, ok (bodies starting "ok"), errors (body => count, for
 * the rest), seconds, throughput (requests/s), p50 and p99 request latency
 * (ms, from the request's connect to the pool to its end), conn_peak and
 * conn_end (connections the server answered, at most and at the end),
 * conn_peak_all (with those it accepted only to close at once), workers (distinct pids in the "ok PID"
 * bodies), and the body of every request under "bodies" when the environment
 * has FLEET_BODIES=1. */

function fleet_fcgi_record(int $type, int $id, string $content): string
{
    $len = strlen($content);
    return pack('CCnnCC', 1, $type, $id, $len, 0, 0) . $content;
}

function fleet_fcgi_pair(string $k, string $v): string
{
    $enc = fn(int $n) => $n < 128 ? chr($n) : pack('N', $n | 0x80000000);
    return $enc(strlen($k)) . $enc(strlen($v)) . $k . $v;
}

/** The whole FastCGI request of $script?$query, as bytes. */
function fleet_fcgi_request(string $script, string $query): string
{
    $params = '';
    foreach ([
        'SCRIPT_FILENAME' => $script, 'SCRIPT_NAME' => '/' . basename($script),
        'REQUEST_METHOD' => 'GET', 'QUERY_STRING' => $query,
        'REQUEST_URI' => '/' . basename($script) . '?' . $query, 'SERVER_PROTOCOL' => 'HTTP/1.1',
        'GATEWAY_INTERFACE' => 'CGI/1.1', 'REMOTE_ADDR' => '127.0.0.1', 'SERVER_NAME' => 'fleet',
    ] as $k => $v) {
        $params .= fleet_fcgi_pair($k, $v);
    }
    return fleet_fcgi_record(1, 1, pack('nCxxxxx', 1, 0)) /* BEGIN_REQUEST, responder, close */
        . fleet_fcgi_record(4, 1, $params) . fleet_fcgi_record(4, 1, '')
        . fleet_fcgi_record(5, 1, '');
}

/**
 * Established connections to 127.0.0.1:$port, client side: [all, answered].
 * "answered" counts those the server has sent something on (a session's
 * handshake reply): a connection the server accepts only to close at once
 * (ZooKeeper over maxClientCnxns) is established for a moment but never
 * answered, so only "answered" counts sessions the server keeps. With ss
 * (iproute2: the kernel filters, and says what each socket received);
 * without it from /proc/net/tcp, where both counts are the established ones.
 * $pid: only process $pid's connections (needs ss; else [-1, -1]).
 */
function fleet_connections(int $port, int $pid = 0): array
{
    static $ss = null;
    $ss ??= trim((string) shell_exec('command -v ss 2>/dev/null'));
    if ($ss !== '') {
        $out = (string) shell_exec(escapeshellarg($ss) . ' -Htni' . ($pid ? 'p' : '')
            . " state established '( dport = :$port )' 2>/dev/null");
        $all = $answered = 0;
        foreach (preg_split('/\n(?=\S)/', trim($out)) as $sock) {
            if (trim($sock) === '' || ($pid && !str_contains($sock, "pid=$pid,"))) {
                continue;
            }
            $all++;
            $answered += preg_match('/bytes_received:[1-9]/', $sock) ? 1 : 0;
        }
        return [$all, $answered];
    }
    $n = 0;
    $hex = sprintf(':%04X', $port);
    foreach (@file('/proc/net/tcp') ?: [] as $line) {
        /* "sl local rem st ...": the remote address is the third field */
        if (strpos($line, $hex . ' 01 ') !== false) {
            $c = preg_split('/\s+/', trim($line));
            $n += isset($c[3]) && $c[3] === '01' && str_ends_with($c[2], $hex) ? 1 : 0;
        }
    }
    return $pid ? [-1, -1] : [$n, $n]; /* by process: only with ss */
}

/** A worker's answer without what differs between alike ones (pid, lock name, durations). */
function fleet_error_key(string $body): string
{
    return preg_replace(['/^(ERR|OVERLAP) \d+/', '#/dlock-fleet/k\d+#', '/\b\d+(\.\d+)? (s|ms)\b/'],
        ['$1', '/dlock-fleet/kN', 'N $2'], $body);
}

function fleet_percentile(array $v, float $p): float
{
    if (!$v) {
        return 0.0;
    }
    sort($v);
    return $v[min(count($v) - 1, (int) ceil($p * count($v)) - 1)];
}

if (PHP_SAPI === 'cli' && ($argv[1] ?? '') === '--count' && isset($argv[2])) {
    /* php scripts/runners/fleet.php --count SERVER_PORT [PID] */
    echo fleet_connections((int) $argv[2], (int) ($argv[3] ?? 0))[1], "\n";
    exit(0);
}
if (PHP_SAPI !== 'cli' || $argc < 6) {
    fwrite(STDERR, "usage: php scripts/runners/fleet.php FPM_PORT SCRIPT REQUESTS CONCURRENCY SERVER_PORT [QUERY]\n");
    exit(2);
}
[$fpmPort, $script, $total, $conc, $serverPort] = [(int) $argv[1], $argv[2], (int) $argv[3], (int) $argv[4], (int) $argv[5]];
$baseQuery = $argv[6] ?? '';
$keepBodies = getenv('FLEET_BODIES') === '1';
$deadline = microtime(true) + (float) (getenv('FLEET_TIMEOUT') ?: 600);

$running = [];   /* socket id => [socket, i, started, out, buf] */
$lat = [];
$bodies = [];
$errors = [];
$ok = 0;
$pids = [];
$next = 0;
[$peakAll, $peak] = fleet_connections($serverPort);
$lastSample = 0.0;
$t0 = microtime(true);
while (($next < $total || $running) && microtime(true) < $deadline) {
    while ($next < $total && count($running) < $conc) {
        $s = @stream_socket_client("tcp://127.0.0.1:$fpmPort", $errno, $errstr, 10);
        $i = $next++;
        if (!$s) {
            $errors["cannot connect to php-fpm: $errstr"] = ($errors["cannot connect to php-fpm: $errstr"] ?? 0) + 1;
            continue;
        }
        stream_set_blocking($s, false);
        $q = ($baseQuery === '' ? '' : "$baseQuery&") . "i=$i";
        $running[(int) $s] = ['s' => $s, 'i' => $i, 't' => microtime(true), 'out' => fleet_fcgi_request($script, $q), 'buf' => '', 'body' => ''];
    }
    $r = $w = [];
    foreach ($running as $st) {
        $r[] = $st['s'];
        if ($st['out'] !== '') {
            $w[] = $st['s'];
        }
    }
    $e = null;
    if ($r && @stream_select($r, $w, $e, 0, 20000) === false) {
        break;
    }
    foreach ($w as $s) {
        $st = &$running[(int) $s];
        $n = @fwrite($s, $st['out']);
        if ($n > 0) {
            $st['out'] = (string) substr($st['out'], $n);
        }
        unset($st);
    }
    foreach ($r as $s) {
        $id = (int) $s;
        $st = &$running[$id];
        $chunk = @fread($s, 65536);
        $st['buf'] .= (string) $chunk;
        $done = false;
        while (strlen($st['buf']) >= 8) {
            $h = unpack('Cver/Ctype/nid/nlen/Cpad', $st['buf']);
            if (strlen($st['buf']) < 8 + $h['len'] + $h['pad']) {
                break;
            }
            $content = substr($st['buf'], 8, $h['len']);
            $st['buf'] = (string) substr($st['buf'], 8 + $h['len'] + $h['pad']);
            if ($h['type'] === 6) {
                $st['body'] .= $content;
            } elseif ($h['type'] === 3) {
                $done = true;
            }
        }
        if ($done || ($chunk === '' && feof($s))) {
            $lat[] = (microtime(true) - $st['t']) * 1000;
            $parts = preg_split('/\r?\n\r?\n/', $st['body'], 2);
            $body = trim($parts[1] ?? $st['body']);
            if (!$done) {
                $body = "connection to php-fpm closed mid-request: $body";
            }
            if (preg_match('/^ok (\d+)/', $body, $m)) {
                $ok++;
                $pids[$m[1]] = true;
            } else {
                $key = fleet_error_key($body);
                $errors[$key] = ($errors[$key] ?? 0) + 1;
            }
            if ($keepBodies) {
                $bodies[$st['i']] = $body;
            }
            fclose($s);
            unset($st, $running[$id]);
            continue;
        }
        unset($st);
    }
    $now = microtime(true);
    if ($now - $lastSample >= 0.2) {
        [$all, $answered] = fleet_connections($serverPort);
        $peakAll = max($peakAll, $all);
        $peak = max($peak, $answered);
        $lastSample = $now;
    }
}
$secs = microtime(true) - $t0;
foreach ($running as $st) {
    $errors['no answer before the deadline'] = ($errors['no answer before the deadline'] ?? 0) + 1;
    fclose($st['s']);
}
ksort($bodies);
$out = [
    'requests' => $total, 'ok' => $ok, 'errors' => $errors, 'seconds' => round($secs, 3),
    'throughput' => round($total / max($secs, 1e-9), 1),
    'p50_ms' => round(fleet_percentile($lat, 0.50), 2), 'p99_ms' => round(fleet_percentile($lat, 0.99), 2),
    'conn_peak' => $peak, 'conn_peak_all' => $peakAll, 'conn_end' => fleet_connections($serverPort)[1],
    'workers' => count($pids),
];
if ($keepBodies) {
    $out['bodies'] = $bodies;
}
echo json_encode($out, JSON_UNESCAPED_SLASHES), "\n";
