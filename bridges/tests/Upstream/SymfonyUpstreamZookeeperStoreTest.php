<?php
/* Symfony's AbstractStoreTestCase against DlockStore on Zookeeper (see SymfonyUpstreamStoreTestCase). */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Upstream;

final class SymfonyUpstreamZookeeperStoreTest extends SymfonyUpstreamStoreTestCase
{
    protected static function serverOptions(): array
    {
        return ['hosts' => self::env('DLOCK_TEST_HOSTS')];
    }
}
