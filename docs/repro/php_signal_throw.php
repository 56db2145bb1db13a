<?php
/*
 * PHP 8.2 itself, with no extension of ours loaded: a pcntl async signal
 * handler that throws, flooded while Laravel's lock code runs, leaves freed
 * memory in use. dlock's class is replaced by a userland stand-in below, so
 * whatever valgrind reports is PHP's, not dlock's. Run:
 *   USE_ZEND_ALLOC=0 valgrind php docs/repro/php_signal_throw.php 30
 * (Debian's Illuminate packages; the bridge from bridges/laravel/src). Here,
 * PHP 8.2.36: hundreds of thousands of invalid reads (php_var_serialize()
 * reading a string zend_array_destroy() freed, in a 30 s run).
 */
class DistributedLockException extends Exception {}
class DistributedLockConnectionException extends DistributedLockException {}
class DistributedLockLostException extends DistributedLockException {}
class DistributedLock
{
    private bool $held = false;
    public function __construct(string $path, array $options = []) {}
    public function tryAcquire(): bool { usleep(100); return $this->held = true; }
    public function acquire($timeout = null): bool { return $this->tryAcquire(); }
    public function isAcquired(): bool { return $this->held; }
    public function release(): void { $this->held = false; }
    public static function participants(string $path, array $options = []): array
    {
        usleep(100);
        return [['node' => 'n1', 'holder' => true, 'data' => '', 'token' => 1]];
    }
}
require_once 'Illuminate/Cache/autoload.php';
spl_autoload_register(function (string $class): void {
    if (str_starts_with($class, 'Dlock\\Bridge\\Laravel\\')) {
        require dirname(__DIR__, 2) . '/bridges/laravel/src/' . substr($class, 21) . '.php';
    }
});

class SignalThrown extends Exception {}
$store = new Dlock\Bridge\Laravel\DlockStore(new Illuminate\Cache\ArrayStore(), ['dsn' => 'redis://127.0.0.1:6379'], '/flood');
$armed = false;
pcntl_async_signals(true);
pcntl_signal(SIGUSR1, function () use (&$armed) {
    if ($armed) {
        $armed = false;
        throw new SignalThrown('signal');
    }
});
$me = getmypid();
if (pcntl_fork() === 0) {
    pcntl_signal(SIGUSR1, SIG_IGN);
    while (posix_getppid() === $me) {
        posix_kill($me, SIGUSR1);
        usleep(mt_rand(50, 2000));
    }
    exit(0);
}
$end = microtime(true) + (float) ($argv[1] ?? 10);
for ($n = 0; microtime(true) < $end; $n++) {
    $lock = $store->lock('r');
    try {
        $armed = true;
        $lock->get();
        $armed = false;
        $lock->release();
    } catch (SignalThrown $e) {
    }
    $armed = false;
}
echo "$n iterations\n";
