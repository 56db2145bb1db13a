<?php
/*
 * The scratch Symfony app (bridges/apps/symfony/app.php: a FrameworkBundle
 * kernel whose container declares the DlockStore and a LockFactory on it) in
 * two real processes at once: with a non-blocking acquire() the second skips
 * the guarded work; with acquire(true) it waits sending ZooKeeper nothing
 * (AppTestCase) and runs once the first is done. Composer legs only
 * (scripts/runners/test_bridges.sh): needs symfony/framework-bundle.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Apps;

final class SymfonyAppTest extends AppTestCase
{
    protected static function app(): string
    {
        return 'symfony';
    }

    /** A DlockStore lock is the write part of a DistributedReadWriteLock. */
    protected static function participants(string $path, array $options): array
    {
        return \DistributedReadWriteLock::participants($path, $options);
    }

    public function testOnlyOneProcessRunsTheGuardedWork(): void
    {
        $a = $this->start('try');
        $this->assertSame('waiting', $this->line($a));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($a));
        $b = $this->start('try');
        $this->assertSame('waiting', $this->line($b));
        $this->assertSame('skipped', $this->line($b), 'the second process does not run the work');
        $this->assertSame(0, $this->exitCode($b));
        $this->finishWork($a);
        $this->assertSame('done', $this->line($a));
        $this->assertSame(0, $this->exitCode($a));

        $c = $this->start('try');
        $this->assertSame('waiting', $this->line($c));
        $this->assertMatchesRegularExpression('/^run \d+$/', $this->line($c), 'released with the first');
        $this->finishWork($c);
        $this->assertSame('done', $this->line($c));
        $this->assertSame(0, $this->exitCode($c));
    }
}
