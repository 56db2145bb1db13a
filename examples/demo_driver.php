<?php
/*
 * What the order-number demos share (orders.php, symfony.php, laravel.php):
 * start N worker processes of the calling script ("SCRIPT --worker MODE
 * COUNTER EACH"), once without and once with the lock, on a fresh shared
 * counter file each time, and hand the lines the workers printed to the
 * script's own report. The interesting part, the worker, stays in each demo.
 */

/**
 * $report(string $mode, int $workers, int $each, array $lines, int $counterEnd, float $seconds)
 * is called once per mode, 'unlocked' then 'locked'.
 */
function dlock_demo_run(string $script, array $argv, callable $report): void
{
    $workers = (int) ($argv[1] ?? 8);
    $each = (int) ($argv[2] ?? 25);
    foreach (['unlocked', 'locked'] as $mode) {
        $counter = tempnam(sys_get_temp_dir(), 'orders');
        file_put_contents($counter, '0');
        $t = microtime(true);
        $procs = $outs = [];
        for ($w = 0; $w < $workers; $w++) {
            $cmd = [PHP_BINARY, '-n', '-d', 'extension=' . (getenv('DLOCK_SO') ?: 'dlock'), $script,
                    '--worker', $mode, $counter, (string) $each];
            $procs[] = proc_open($cmd, [1 => ['pipe', 'w']], $pipes);
            $outs[] = $pipes[1];
        }
        $lines = [];
        foreach ($outs as $o) {
            foreach (explode("\n", trim(stream_get_contents($o))) as $line) {
                if ($line !== '') {
                    $lines[] = $line;
                }
            }
        }
        foreach ($procs as $p) {
            proc_close($p);
        }
        $report($mode, $workers, $each, $lines, (int) file_get_contents($counter), microtime(true) - $t);
        unlink($counter);
    }
}
