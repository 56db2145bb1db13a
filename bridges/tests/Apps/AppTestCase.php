<?php
/*
 * Shared by the scratch-app tests (bridges/tests/Apps): starts
 * bridges/apps/<app>/app.php MODE as real processes with the extension this
 * process has, talks to them over stdin/stdout (each prints "waiting", "run
 * PID", "done", or how it stayed out), and the blocking case every app has:
 * the second process waits sending ZooKeeper nothing (its connection's packet
 * count in cons stays still) and runs only once the first is done. The apps
 * take their lock at <DLOCK_APP_PREFIX>/report.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Apps;

use Dlock\Bridge\Tests\DlockTestCase;

abstract class AppTestCase extends DlockTestCase
{
    /** @var array<int, array{proc: resource, in: resource, out: resource, err: resource}> */
    private array $apps = [];

    protected string $prefix;

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

    /** Holders and waiters queued at $path (the app's kind of lock). */
    protected static function participants(string $path, array $options): array
    {
        return \DistributedLock::participants($path, $options);
    }

    /** bridges/apps/<app>/app.php of the test */
    abstract protected static function app(): string;

    /** Starts app.php MODE; returns its index. */
    protected function start(string $mode): int
    {
        // the extension as this process has it: from php.ini, or DLOCK_SO (-d)
        static $load = null;
        if ($load === null) {
            exec(escapeshellarg(PHP_BINARY) . ' -m', $mods);
            $load = in_array('dlock', $mods, true) ? [] : ['-d', 'extension=' . getenv('DLOCK_SO')];
        }
        $cmd = array_merge([PHP_BINARY], $load);
        $cmd = array_merge($cmd, [dirname(__DIR__, 2) . '/apps/' . static::app() . '/app.php', $mode]);
        $env = ['DLOCK_APP_PREFIX' => $this->prefix] + getenv();
        $proc = proc_open($cmd, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => ['pipe', 'w']], $pipes, null, $env);
        $this->assertIsResource($proc);
        $this->apps[] = ['proc' => $proc, 'in' => $pipes[0], 'out' => $pipes[1], 'err' => $pipes[2]];
        return array_key_last($this->apps);
    }

    protected function line(int $app, float $timeout = 20.0): string
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

    protected function finishWork(int $app): void
    {
        fwrite($this->apps[$app]['in'], "go\n");
        fflush($this->apps[$app]['in']);
    }

    protected function exitCode(int $app): int
    {
        fclose($this->apps[$app]['in']);
        $err = stream_get_contents($this->apps[$app]['err']);
        $rest = stream_get_contents($this->apps[$app]['out']);
        $code = proc_close($this->apps[$app]['proc']);
        unset($this->apps[$app]);
        $this->assertSame('', $rest . $err, 'nothing more on stdout or stderr');
        return $code;
    }

    /**
     * Two apps in the blocking mode: the second waits without sending
     * ZooKeeper a packet and runs once the first is done.
     */
    public function testABlockedAppSendsNoRequestsAndRunsAfterTheHolder(): void
    {
        $a = $this->start('block');
        $this->assertSame('waiting', $this->line($a));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($a));
        $hosts = ['hosts' => self::hosts()];
        static::participants($this->prefix . '/report', $hosts); // this process's own session, opened now
        $before = self::connections();

        $b = $this->start('block');
        $this->assertSame('waiting', $this->line($b));
        $deadline = microtime(true) + 10;
        do {
            usleep(50_000);
            $queued = count(static::participants($this->prefix . '/report', $hosts));
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
