<?php
/*
 * Registers the "dlock" cache driver: a store whose values live in another
 * configured cache store and whose locks are dlock locks.
 */

declare(strict_types=1);

namespace Dlock\Bridge\Laravel;

use Illuminate\Support\ServiceProvider;

/**
 * config/cache.php:
 *
 *     'stores' => [
 *         'dlock' => [
 *             'driver'  => 'dlock',
 *             'store'   => 'redis',                     // where cached values live
 *             'options' => ['hosts' => env('DLOCK_HOSTS', '127.0.0.1:2181')],
 *             'prefix'  => '/dlock/laravel',            // root of the lock names
 *         ],
 *     ],
 *
 * then Cache::store('dlock')->lock('reports', 0)->block(10, fn() => ...).
 */
class DlockServiceProvider extends ServiceProvider
{
    public function register()
    {
        $this->callAfterResolving('cache', function ($cache): void {
            $cache->extend('dlock', function ($app, #[\SensitiveParameter] array $config) {
                $inner = $config['store'] ?? 'array';
                if ($inner === ($config['name'] ?? null)) {
                    // Laravel 11+ fills "store" with the store's own name when the
                    // config leaves it out: that is the default, not a loop
                    $inner = 'array';
                }
                if (($app['config']["cache.stores.$inner.driver"] ?? null) === 'dlock') {
                    throw new \InvalidArgumentException("dlock: cache store [$inner] cannot hold the values of a dlock store");
                }
                $store = new DlockStore($app['cache']->store($inner)->getStore(), $config['options'] ?? [],
                    $config['prefix'] ?? '/dlock/laravel');
                return $app['cache']->repository($store);
            });
        });
    }
}
