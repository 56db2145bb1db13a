<?php
/*
 * The scratch Laravel app (bridges/apps/laravel/app.php) in two real
 * processes at once, through the framework's own lock features on a dlock
 * store from config/cache.php: while one runs the guarded work, the other
 * skips (scheduler onOneServer(), withoutOverlapping()), is released back to
 * the queue (WithoutOverlapping job middleware), or waits in
 * Cache::lock()->block() sending ZooKeeper nothing (cons: its connection's
 * packet count does not move) and runs only after the first is done.
 * Composer legs only (scripts/test_bridges.sh): needs laravel/framework.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Apps;

use Dlock\Bridge\Tests\DlockTestCase;

final class LaravelAppTest extends DlockTestCase
{
    /** @var array<int, array{proc: resource, in: resource, out: resource, err: resource}> */
    private array $apps = [];

    private string $prefix;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
    }

    protected function tearDown(): void
    {
        foreach ($this->apps as $a) {
            @fclose($a['in']);
            proc_terminate($a['proc'], SIGKILL);
            proc_close($a['proc']);
        }
        $this->apps = [];
        parent::tearDown();
    }

    /** Starts app.php MODE; returns its index. */
    private function start(string $mode): int
    {
        // the extension as this process has it: from php.ini, or DLOCK_SO (-d)
        static $load = null;
        if ($load === null) {
            exec(escapeshellarg(PHP_BINARY) . ' -m', $mods);
            $load = in_array('dlock', $mods, true) ? [] : ['-d', 'extension=' . getenv('DLOCK_SO')];
        }
        $cmd = array_merge([PHP_BINARY], $load);
        $cmd = array_merge($cmd, [dirname(__DIR__, 2) . '/apps/laravel/app.php', $mode]);
        $env = ['DLOCK_APP_PREFIX' => $this->prefix] + getenv();
        $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        $this->assertIsResource($proc);
        $this->apps[] = ['proc' => $proc, 'in' => $pipes[0], 'out' => $pipes[1], 'err' => $pipes[2]];
        return array_key_last($this->apps);
    }

    private function line(int $app, float $timeout = 20.0): string
    {
        $out = $this->apps[$app]['out'];
        $r = [$out];
        $w = $e = null;
        if (stream_select($r, $w, $e, (int) $timeout, (int) (fmod($timeout, 1.0) * 1e6)) < 1) {
            $this->fail("app $app said nothing within {$timeout}s");
        }
        $line = fgets($out);
        if ($line === false) {
            $this->fail("app $app exited: " . stream_get_contents($this->apps[$app]['err']));
        }
        return rtrim($line, "\n");
    }

    private function finishWork(int $app): void
    {
        fwrite($this->apps[$app]['in'], "go\n");
        fflush($this->apps[$app]['in']);
    }

    private function exitCode(int $app): int
    {
        fclose($this->apps[$app]['in']);
        $err = stream_get_contents($this->apps[$app]['err']);
        $rest = stream_get_contents($this->apps[$app]['out']);
        $code = proc_close($this->apps[$app]['proc']);
        unset($this->apps[$app]);
        $this->assertSame('', $rest . $err, 'nothing more on stdout or stderr');
        return $code;
    }

    public static function skippingModes(): array
    {
        return [
            'scheduler onOneServer()' => ['schedule', 'skipped onOneServer'],
            'scheduler withoutOverlapping()' => ['overlap', 'skipped withoutOverlapping'],
            'WithoutOverlapping job middleware' => ['middleware', 'released 7'],
        ];
    }

    /**
     * @dataProvider skippingModes
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('skippingModes')]
    public function testOnlyOneProcessRunsTheGuardedWork(string $mode, string $other): void
    {
        $a = $this->start($mode);
        $this->assertSame('waiting', $this->line($a));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($a));
        $b = $this->start($mode);
        $this->assertSame('waiting', $this->line($b));
        $this->assertSame($other, $this->line($b), 'the second process does not run the work');
        $this->assertSame(0, $this->exitCode($b));
        $this->finishWork($a);
        $this->assertSame('done', $this->line($a));
        $this->assertSame(0, $this->exitCode($a));

        // once the first is done, the lock is free again for the next run
        $c = $this->start($mode);
        $this->assertSame('waiting', $this->line($c));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($c));
        $this->finishWork($c);
        $this->assertSame('done', $this->line($c));
        $this->assertSame(0, $this->exitCode($c));
    }

    public function testCacheLockBlockWaitsWithoutRequestsAndRunsAfterTheHolder(): void
    {
        $a = $this->start('block');
        $this->assertSame('waiting', $this->line($a));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($a));
        $hosts = ['hosts' => self::hosts()];
        \DistributedLock::participants($this->prefix . '/report', $hosts); // this process's own session, opened now
        $before = self::connections();

        $b = $this->start('block');
        $this->assertSame('waiting', $this->line($b));
        $deadline = microtime(true) + 10;
        do {
            usleep(50_000);
            $queued = count(\DistributedLock::participants($this->prefix . '/report', $hosts));
            $new = array_diff_key(self::connections(), $before);
        } while (($queued < 2 || count($new) !== 1) && microtime(true) < $deadline);
        $this->assertSame(2, $queued, 'the second app is queued behind the first');
        $this->assertCount(1, $new, 'the second app has one ZooKeeper connection');
        $conn = array_key_first($new);
        usleep(200_000); // its watch request completes

        $c1 = self::connections()[$conn];
        usleep(1_500_000);
        $c2 = self::connections()[$conn];
        $this->assertSame(0, $c2 - $c1, "the blocked app's connection sent $c1 -> $c2 packets in 1.5 s");

        $r = [$this->apps[$b]['out']];
        $w = $e = null;
        $this->assertSame(0, stream_select($r, $w, $e, 0), 'the second app has not run the work');
        $this->finishWork($a);
        $this->assertSame('done', $this->line($a));
        $this->assertSame(0, $this->exitCode($a));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($b, 5.0), 'it runs once the first is done');
        $this->finishWork($b);
        $this->assertSame('done', $this->line($b));
        $this->assertSame(0, $this->exitCode($b));
    }
}
