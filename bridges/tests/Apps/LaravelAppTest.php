<?php
/*
 * The scratch Laravel app (bridges/apps/laravel/app.php) in two real
 * processes at once, through the framework's own lock features on a dlock
 * store from config/cache.php: while one runs the guarded work, the other
 * skips (scheduler onOneServer(), withoutOverlapping()), is released back to
 * the queue (WithoutOverlapping job middleware), or waits in
 * Cache::lock()->block() sending ZooKeeper nothing (AppTestCase) and runs
 * only after the first is done.
 * Composer legs only (scripts/runners/test_bridges.sh): needs laravel/framework.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Apps;

final class LaravelAppTest extends AppTestCase
{
    protected static function app(): string
    {
        return 'laravel';
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
        if ($mode === 'schedule' && !method_exists(\Illuminate\Console\Scheduling\CacheSchedulingMutex::class, 'shouldUseLocks')) {
            // Laravel 10 and earlier: onOneServer() is the cache's add() on the
            // inner store (here the per-process array store), not a lock, so it
            // does not keep the second process out; withoutOverlapping() does
            $other = 'skipped withoutOverlapping';
        }
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

        // once the first is done, the lock is free again for the next run (for
        // onOneServer() that is the documented limit: a dlock lock ends with its
        // process, so a server that starts the same minute's run later runs it too)
        $c = $this->start($mode);
        $this->assertSame('waiting', $this->line($c));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($c));
        $this->finishWork($c);
        $this->assertSame('done', $this->line($c));
        $this->assertSame(0, $this->exitCode($c));
    }
}
