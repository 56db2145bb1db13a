<?php
/*
 * What the order-number demos share (orders.php, symfony.php, laravel.php):
 * start N worker processes of the calling script ("SCRIPT --worker MODE
 * COUNTER EACH"), once without and once with the lock, on a fresh shared
 * counter file each time, and hand the lines the workers printed to the
 * script's own report. The interesting part, the worker, stays in each demo.
 *
 * The workers load the extension the way this process did: from DLOCK_SO
 * when it is set, else from the file this process loaded it from (so
 * `php -d extension=modules/dlock.so examples/orders.php` just works). A run
 * that goes wrong says so and exits 1: a worker that died or printed
 * something else than an order number, a locked run with a duplicate or a
 * counter that does not add up, or whatever the script's report finds.
 */

/** The extension= value for the workers; exits 1 when dlock is not loaded here. */
function dlock_demo_extension(): string
{
    $so = getenv('DLOCK_SO');
    if ($so !== false && $so !== '') {
        return $so;
    }
    if (!extension_loaded('dlock')) {
        fwrite(STDERR, "demo: the dlock extension is not loaded: run php -d extension=/path/to/dlock.so "
            . ($_SERVER['argv'][0] ?? 'SCRIPT') . " (or set DLOCK_SO=/path/to/dlock.so)\n");
        exit(1);
    }
    /* Linux only, as dlock: the shared object this process mapped */
    foreach (@file('/proc/self/maps', FILE_IGNORE_NEW_LINES) ?: [] as $line) {
        if (preg_match('#\s(/\S*/dlock\.so)$#', $line, $m)) {
            return $m[1];
        }
    }
    fwrite(STDERR, "demo: cannot tell which dlock.so this process loaded: set DLOCK_SO=/path/to/dlock.so\n");
    exit(1);
}

/**
 * $report(string $mode, int $workers, int $each, array $lines, int $counterEnd, float $seconds)
 * is called once per mode, 'unlocked' then 'locked', and returns false when
 * it printed a failure. The process exits 1 after both runs if anything failed.
 */
function dlock_demo_run(string $script, array $argv, callable $report): void
{
    $workers = (int) ($argv[1] ?? 8);
    $each = (int) ($argv[2] ?? 25);
    $extension = dlock_demo_extension();
    $failures = [];
    foreach (['unlocked', 'locked'] as $mode) {
        $counter = tempnam(sys_get_temp_dir(), 'orders');
        file_put_contents($counter, '0');
        $t = microtime(true);
        $procs = $outs = [];
        for ($w = 0; $w < $workers; $w++) {
            $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . $extension, $script,
                    '--worker', $mode, $counter, (string) $each];
            $procs[] = proc_open($cmd, [1 => ['pipe', 'w']], $pipes);
            $outs[] = $pipes[1];
        }
        $lines = [];
        foreach ($outs as $o) {
            foreach (explode("\n", trim(stream_get_contents($o))) as $line) {
                if ($line === '') {
                    continue;
                }
                if (!preg_match('/^ORD-\d{6}( \d+)?$/', $line)) {
                    $failures[] = "$mode: a worker printed: $line";
                    continue;
                }
                $lines[] = $line;
            }
        }
        foreach ($procs as $w => $p) {
            if (($rc = proc_close($p)) !== 0) {
                $failures[] = "$mode: worker $w exited with status $rc";
            }
        }
        $end = (int) file_get_contents($counter);
        unlink($counter);
        if (!$report($mode, $workers, $each, $lines, $end, microtime(true) - $t)) {
            $failures[] = "$mode: the report above says what went wrong";
        }
        $numbers = array_map(fn($l) => explode(' ', $l)[0], $lines);
        $expected = $workers * $each;
        if (count($lines) !== $expected) {
            $failures[] = "$mode: " . count($lines) . " order numbers issued, expected $expected";
        }
        if ($mode === 'locked' && count(array_unique($numbers)) !== count($numbers)) {
            $failures[] = 'locked: DUPLICATE ORDER NUMBERS under the lock';
        }
        if ($mode === 'locked' && $end !== $expected) {
            $failures[] = "locked: the counter ends at $end, expected $expected";
        }
    }
    if ($failures) {
        fwrite(STDERR, "demo FAILED:\n  " . implode("\n  ", array_unique($failures)) . "\n");
        exit(1);
    }
}
