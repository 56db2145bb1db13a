<?php
/* Symfony's AbstractStoreTestCase against DlockStore on Redis (see SymfonyUpstreamStoreTestCase). */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Upstream;

final class SymfonyUpstreamRedisStoreTest extends SymfonyUpstreamStoreTestCase
{
    protected static function serverOptions(): array
    {
        $v = self::env('DLOCK_TEST_REDIS');
        return ['dsn' => str_contains($v, '://') ? $v : 'redis://' . $v];
    }
}
