<?php
/*
 * Symfony's own store test case (Symfony\Component\Lock\Test\AbstractStoreTestCase,
 * shipped in symfony/lock's package since 6.x) run against Dlock\Bridge\Symfony\DlockStore,
 * one subclass per backend. Loaded only by the Composer legs of
 * scripts/runners/test_bridges.sh, where that class is installed; Debian 12's symfony/lock
 * 5.4 does not ship it. Symfony's BlockingStoreTestTrait and
 * SharedLockStoreTestTrait live in its Tests/ folder, which the package leaves out.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Upstream;

use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Component\Lock\PersistingStoreInterface;
use Symfony\Component\Lock\Test\AbstractStoreTestCase;

abstract class SymfonyUpstreamStoreTestCase extends AbstractStoreTestCase
{
    /** dlock options that select the backend's test server, as scripts/test.sh exports them. */
    abstract protected static function serverOptions(): array;

    protected function getStore(): PersistingStoreInterface
    {
        static $n = 0;
        return new DlockStore(static::serverOptions()
            + ['prefix' => '/dlock-tests/bridges/upstream-' . getmypid() . '-' . (++$n)]);
    }

    protected static function env(string $var): string
    {
        $v = (string) getenv($var);
        if ($v === '') {
            self::fail("set $var (scripts/test.sh starts every test server and exports it)");
        }
        return $v;
    }
}
