<?php
/*
 * Autoloading for the bridge examples without Composer: Debian's packaged
 * symfony/lock and illuminate/cache (php-symfony-lock, php-illuminate-cache),
 * and the bridges' own classes from bridges/ (PSR-4, as their composer.json
 * says). In an application, Composer's vendor/autoload.php does all of this.
 */
require_once 'Symfony/Component/Lock/autoload.php';
require_once 'Illuminate/Cache/autoload.php';
spl_autoload_register(function (string $class): void {
    foreach (['Dlock\\Bridge\\Symfony\\' => 'symfony', 'Dlock\\Bridge\\Laravel\\' => 'laravel'] as $ns => $dir) {
        if (str_starts_with($class, $ns)) {
            $file = dirname(__DIR__) . "/bridges/$dir/src/" . str_replace('\\', '/', substr($class, strlen($ns))) . '.php';
            if (is_file($file)) {
                require $file;
            }
        }
    }
});
