<?php
/*
 * Run by php-fpm for FpmRequestEndTest: takes a Laravel DlockLock and ends the
 * request without releasing it (dlock releases it at request end), or asks
 * whether a restored lock holds. GET: do=take|restore, hosts, prefix.
 */
declare(strict_types=1);

require_once 'Illuminate/Cache/autoload.php';
require_once __DIR__ . '/../../laravel/src/SecretOptions.php';
require_once __DIR__ . '/../../laravel/src/DlockLock.php';
require_once __DIR__ . '/../../laravel/src/DlockStore.php';

use Dlock\Bridge\Laravel\DlockStore;
use Illuminate\Cache\ArrayStore;

header('Content-Type: text/plain');
$store = new DlockStore(new ArrayStore(), ['hosts' => (string) $_GET['hosts']], (string) $_GET['prefix']);
switch ($_GET['do'] ?? '') {
    case 'take':
        $GLOBALS['kept'] = $lock = $store->lock('request', 0, 'fpm-owner');
        echo $lock->get() ? 'took' : 'busy', ' ', getmypid();
        break; // no release(): the request ends holding it
    case 'restore':
        $lock = $store->restoreLock('request', 'fpm-owner');
        echo $lock->isAcquired() ? 'held' : 'not held', ' ', getmypid();
        break;
    default:
        echo 'usage: do=take|restore';
}
