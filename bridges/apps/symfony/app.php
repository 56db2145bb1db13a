<?php
/*
 * A scratch Symfony application: a kernel with FrameworkBundle whose container
 * declares the DlockStore and a LockFactory on it as services (as the bridge's
 * README shows; framework.lock takes DSNs and connections, which StoreFactory
 * turns into its own stores, not a store service), and a service that gets
 * that LockFactory injected, one mode per way of taking the lock:
 *   try    $factory->createLock('report')->acquire()       (skip if held)
 *   block  $factory->createLock('report')->acquire(true)   (wait in dlock)
 * Prints "waiting" before it asks for the lock, "run PID" when the guarded
 * work starts, then waits for a line on stdin before the work ends ("done");
 * "skipped" when try finds the lock held. Driven by
 * bridges/tests/Apps/SymfonyAppTest.php with the vendor/ of a Composer leg:
 *   DLOCK_BRIDGES_VENDOR=.../vendor DLOCK_TEST_HOSTS=... php -d extension=dlock.so app.php MODE
 */
declare(strict_types=1);

namespace DlockScratch;

require getenv('DLOCK_BRIDGES_VENDOR') . '/autoload.php';

use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Bundle\FrameworkBundle\FrameworkBundle;
use Symfony\Bundle\FrameworkBundle\Kernel\MicroKernelTrait;
use Symfony\Component\DependencyInjection\Loader\Configurator\ContainerConfigurator;
use Symfony\Component\Filesystem\Filesystem;
use Symfony\Component\HttpKernel\Kernel as BaseKernel;
use Symfony\Component\Lock\LockFactory;

use function Symfony\Component\DependencyInjection\Loader\Configurator\service;

final class Report
{
    public function __construct(private LockFactory $locks)
    {
    }

    /** Runs $work under the "report" lock; false when $blocking is false and it is held. */
    public function run(bool $blocking, callable $work): bool
    {
        $lock = $this->locks->createLock('report', 300.0);
        if (!$lock->acquire($blocking)) {
            return false;
        }
        try {
            $work();
        } finally {
            $lock->release();
        }
        return true;
    }
}

final class Kernel extends BaseKernel
{
    use MicroKernelTrait;

    public function registerBundles(): iterable
    {
        return [new FrameworkBundle()];
    }

    protected function configureContainer(ContainerConfigurator $c): void
    {
        $framework = ['secret' => 'scratch'];
        if (BaseKernel::MAJOR_VERSION < 7) {
            // 6.4 deprecates leaving these unset
            $framework += ['http_method_override' => false, 'handle_all_throwables' => true, 'php_errors' => ['log' => true]];
        }
        $c->extension('framework', $framework);
        $c->services()
            ->set(DlockStore::class)
            ->args([['hosts' => '%env(DLOCK_TEST_HOSTS)%', 'session_timeout' => 60000, 'prefix' => '%env(DLOCK_APP_PREFIX)%']])
            ->set('app.dlock_factory', LockFactory::class)->args([service(DlockStore::class)])
            ->set(Report::class)->args([service('app.dlock_factory')])->public();
    }

    public function getCacheDir(): string
    {
        return sys_get_temp_dir() . '/dlock-symfony-app-' . getmypid() . '/cache';
    }

    public function getLogDir(): string
    {
        return sys_get_temp_dir() . '/dlock-symfony-app-' . getmypid() . '/log';
    }
}

$say = function (string $line): void {
    fwrite(STDOUT, $line . "\n");
    fflush(STDOUT);
};
$mode = $argv[1] ?? '';
if (!\in_array($mode, ['try', 'block'], true)) {
    fwrite(STDERR, "usage: app.php try|block\n");
    exit(2);
}
$kernel = new Kernel('prod', false);
$kernel->boot();
try {
    $say('waiting');
    $ran = $kernel->getContainer()->get(Report::class)->run($mode === 'block', function () use ($say): void {
        $say('run ' . getmypid());
        fgets(STDIN); // the test says when the guarded work ends
        $say('done');
    });
    if (!$ran) {
        $say('skipped');
    }
} finally {
    $kernel->shutdown();
    (new Filesystem())->remove(\dirname($kernel->getCacheDir()));
}
