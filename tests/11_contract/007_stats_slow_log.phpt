--TEST--
Contract, every backend: dlock_stats() counts acquires by result (ok, timeout, refused), releases and holds now per backend and kind; its histograms are cumulative and their counts match; a wait and a hold past dlock.slow_wait_ms / slow_hold_ms write one line each (with the holder where the backend knows it, never a secret), shorter ones none
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/contract.inc';
$log = tempnam(sys_get_temp_dir(), 'dlt-slow');
ini_set('error_log', $log);

function hist_ok(array $h): bool
{
    $prev = 0;
    foreach ($h['buckets'] as $n) {
        if ($n < $prev) {
            return false; /* cumulative: never decreasing */
        }
        $prev = $n;
    }
    return $h['buckets']['+Inf'] === $h['count'];
}

function log_lines(string $log): array
{
    clearstatcache();
    return array_values(array_filter(explode("\n", (string) file_get_contents($log)),
        fn($l) => str_contains($l, 'dlock slow')));
}

foreach (dlt_backends() as $b => $o) {
    $name = dlt_cname('stats', $b);
    $a = new DistributedLock($name, $o + ['reentrant' => false, 'data' => "holder-$b"]);
    $w = new DistributedLock($name, $o);
    /* connected before the thresholds are on (a first connect is slow under valgrind) */
    $a->acquire(5);
    $a->release();
    $w->acquire(5);
    $w->release();
    file_put_contents($log, '');
    ini_set('dlock.slow_wait_ms', '150');
    ini_set('dlock.slow_hold_ms', '150');
    dlock_stats_reset();
    $a->acquire(5);
    $held = dlock_stats()[$b]['mutex']['held'];
    $timed = $w->acquire(0.3); /* times out: $a holds */
    try {
        $a->acquire(5); /* refused: not reentrant */
        $refused = 'no';
    } catch (DistributedLockException $e) {
        $refused = 'yes';
    }
    $a->release();
    $s = dlock_stats();
    $m = $s[$b]['mutex'];
    echo "$b: held while held $held, timed-out acquire ", json_encode($timed), ", refused $refused\n";
    echo "$b: acquire ", json_encode($m['acquire']), " released {$m['released']} lost {$m['lost']} held {$m['held']}\n";
    echo "$b: wait count {$m['wait_seconds']['count']} cumulative ", json_encode(hist_ok($m['wait_seconds'])),
        " sum>=0.3 ", json_encode($m['wait_seconds']['sum'] >= 0.3),
        " at most 2 within 0.1 s ", json_encode($m['wait_seconds']['buckets']['0.1'] <= 2), "\n";
    echo "$b: hold count {$m['hold_seconds']['count']} cumulative ", json_encode(hist_ok($m['hold_seconds'])),
        " sum>=0.3 ", json_encode($m['hold_seconds']['sum'] >= 0.3), "\n";
    $others = 0;
    foreach ($s as $ob => $kinds) {
        foreach ($kinds as $k => $row) {
            if ($ob !== $b || $k !== 'mutex') {
                $others += array_sum($row['acquire']) + $row['released'] + $row['wait_seconds']['count'];
            }
        }
    }
    echo "$b: other backends and kinds untouched ", json_encode($others === 0), "\n";
    $all = log_lines($log);
    /* the timed-out wait and the hold around it; an uncontended acquire slower than
     * 150 ms (a loaded machine, valgrind) would add an "(acquired)" line, not checked */
    $lines = array_values(array_filter($all, fn($l) => !str_contains($l, '(acquired)')));
    echo "$b: log lines ", count($lines), "\n";
    $holder = dlt_caps($b)['holder'] ? "\"holder-$b\"" : 'unknown';
    $q = preg_quote($name, '/');
    echo "$b: slow wait line ", json_encode((bool) preg_match(
        "/\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z dlock slow wait: lock \"$q\" backend $b kind mutex waited (\\d+) ms \\(timed out\\) holder " . preg_quote($holder, '/') . '$/',
        $lines[0] ?? '', $mw) && $mw[1] >= 300), "\n";
    echo "$b: slow hold line ", json_encode((bool) preg_match(
        "/Z dlock slow hold: lock \"$q\" backend $b kind mutex held (\\d+) ms$/", $lines[1] ?? '', $mh) && $mh[1] >= 300), "\n";
    /* the test servers' password is "dlock", a word every line has: look for the
     * DSN's parts instead (scheme, credentials, server address) */
    $u = parse_url((string) ($o['dsn'] ?? 'zookeeper://' . $o['hosts']));
    $text = implode("\n", $all);
    echo "$b: no secret ", json_encode(!str_contains($text, '://') && !str_contains($text, '@')
        && !str_contains($text, ($u['user'] ?? '') . ':' . ($u['pass'] ?? '') . '@')
        && !str_contains($text, ($u['host'] ?? '?') . ':' . ($u['port'] ?? '?'))), "\n";
    /* below the thresholds: no line */
    ini_set('dlock.slow_wait_ms', '5000');
    ini_set('dlock.slow_hold_ms', '5000');
    $w->acquire(5);
    $w->release();
    echo "$b: fast cycle adds no line ", json_encode(count(log_lines($log)) === count($all)), "\n";
    /* off (0): not even a long wait, nor the hold around it */
    ini_set('dlock.slow_wait_ms', '0');
    ini_set('dlock.slow_hold_ms', '0');
    $a->acquire(5);
    var_dump($w->acquire(0.2));
    $a->release();
    echo "$b: off adds no line ", json_encode(count(log_lines($log)) === count($all)), "\n";
}
@unlink($log);
?>
--EXPECT--
zookeeper: held while held 1, timed-out acquire false, refused yes
zookeeper: acquire {"ok":1,"timeout":1,"refused":1,"error":0} released 1 lost 0 held 0
zookeeper: wait count 3 cumulative true sum>=0.3 true at most 2 within 0.1 s true
zookeeper: hold count 1 cumulative true sum>=0.3 true
zookeeper: other backends and kinds untouched true
zookeeper: log lines 2
zookeeper: slow wait line true
zookeeper: slow hold line true
zookeeper: no secret true
zookeeper: fast cycle adds no line true
bool(false)
zookeeper: off adds no line true
redis: held while held 1, timed-out acquire false, refused yes
redis: acquire {"ok":1,"timeout":1,"refused":1,"error":0} released 1 lost 0 held 0
redis: wait count 3 cumulative true sum>=0.3 true at most 2 within 0.1 s true
redis: hold count 1 cumulative true sum>=0.3 true
redis: other backends and kinds untouched true
redis: log lines 2
redis: slow wait line true
redis: slow hold line true
redis: no secret true
redis: fast cycle adds no line true
bool(false)
redis: off adds no line true
postgres: held while held 1, timed-out acquire false, refused yes
postgres: acquire {"ok":1,"timeout":1,"refused":1,"error":0} released 1 lost 0 held 0
postgres: wait count 3 cumulative true sum>=0.3 true at most 2 within 0.1 s true
postgres: hold count 1 cumulative true sum>=0.3 true
postgres: other backends and kinds untouched true
postgres: log lines 2
postgres: slow wait line true
postgres: slow hold line true
postgres: no secret true
postgres: fast cycle adds no line true
bool(false)
postgres: off adds no line true
mysql: held while held 1, timed-out acquire false, refused yes
mysql: acquire {"ok":1,"timeout":1,"refused":1,"error":0} released 1 lost 0 held 0
mysql: wait count 3 cumulative true sum>=0.3 true at most 2 within 0.1 s true
mysql: hold count 1 cumulative true sum>=0.3 true
mysql: other backends and kinds untouched true
mysql: log lines 2
mysql: slow wait line true
mysql: slow hold line true
mysql: no secret true
mysql: fast cycle adds no line true
bool(false)
mysql: off adds no line true
