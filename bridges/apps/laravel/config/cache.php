<?php
/*
 * The scratch Laravel app's config/cache.php: the default store is "dlock",
 * the driver Dlock\Bridge\Laravel\DlockServiceProvider registers, keeping
 * values in the "array" store and taking its locks on the ZooKeeper of
 * DLOCK_TEST_HOSTS (a 60 s session: its client pings every 20 s).
 */
return [
    'default' => 'dlock',
    'stores' => [
        'array' => ['driver' => 'array'],
        'dlock' => [
            'driver' => 'dlock',
            'store' => 'array',
            'options' => ['hosts' => (string) getenv('DLOCK_TEST_HOSTS'), 'session_timeout' => 60000],
            'prefix' => (string) (getenv('DLOCK_APP_PREFIX') ?: '/dlock-tests/apps/laravel'),
        ],
    ],
    'prefix' => 'app',
];
