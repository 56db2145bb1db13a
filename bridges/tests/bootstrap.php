<?php
/*
 * Test bootstrap: Debian's autoloaders for symfony/lock, symfony/semaphore and
 * illuminate, or a Composer vendor/ dir given in DLOCK_BRIDGES_VENDOR (the
 * Composer legs of scripts/runners/test_bridges.sh), PSR-4 for the two bridges, and the
 * ZooKeeper under test from DLOCK_TEST_HOSTS.
 */
declare(strict_types=1);

if (!extension_loaded('dlock')) {
    fwrite(STDERR, "bridges/tests: the dlock extension is not loaded (php -d extension=.../modules/dlock.so)\n");
    exit(1);
}
if ((string) getenv('DLOCK_TEST_HOSTS') === '') {
    fwrite(STDERR, "bridges/tests: set DLOCK_TEST_HOSTS to a ZooKeeper (scripts/servers/zk.sh start prints one)\n");
    exit(1);
}
$vendor = (string) getenv('DLOCK_BRIDGES_VENDOR');
if ($vendor !== '') {
    // a Composer leg of scripts/runners/test_bridges.sh: frameworks and PHPUnit from Packagist
    require_once $vendor . '/autoload.php';
} else {
    require_once 'Symfony/Component/Lock/autoload.php';
    require_once 'Symfony/Component/Semaphore/autoload.php';
    require_once 'Illuminate/Cache/autoload.php';
    foreach (['Illuminate/Container/autoload.php', 'Illuminate/Config/autoload.php'] as $optional) {
        if (stream_resolve_include_path($optional)) {
            require_once $optional;
        }
    }
}

spl_autoload_register(function (string $class): void {
    foreach (['Dlock\\Bridge\\Symfony\\' => '/symfony/src/', 'Dlock\\Bridge\\Laravel\\' => '/laravel/src/',
              'Dlock\\Bridge\\Tests\\' => '/tests/'] as $ns => $dir) {
        if (str_starts_with($class, $ns)) {
            $file = dirname(__DIR__) . $dir . str_replace('\\', '/', substr($class, strlen($ns))) . '.php';
            if (is_file($file)) {
                require $file;
            }
        }
    }
});
