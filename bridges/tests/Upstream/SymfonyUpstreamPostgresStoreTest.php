<?php
/* Symfony's AbstractStoreTestCase against DlockStore on Postgres (see SymfonyUpstreamStoreTestCase). */
declare(strict_types=1);

namespace Dlock\Bridge\Tests\Upstream;

final class SymfonyUpstreamPostgresStoreTest extends SymfonyUpstreamStoreTestCase
{
    protected static function serverOptions(): array
    {
        return ['dsn' => self::env('DLOCK_TEST_PG')];
    }
}
