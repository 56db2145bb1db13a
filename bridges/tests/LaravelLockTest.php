<?php
/*
 * The Laravel cache lock contract of Dlock\Bridge\Laravel\DlockLock and the
 * DlockStore / DlockServiceProvider wiring, against a real ZooKeeper.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Laravel\DlockLock;
use Dlock\Bridge\Laravel\DlockServiceProvider;
use Dlock\Bridge\Laravel\DlockStore;
use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\LockTimeoutException;

final class LaravelLockTest extends DlockTestCase
{
    private string $prefix;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
    }

    private function store(): DlockStore
    {
        return new DlockStore(new ArrayStore(), ['hosts' => self::hosts()], $this->prefix);
    }

    /** A child that takes $name, says "held", holds for $hold seconds (or until told), then releases. */
    private function holder(string $name, float $hold, string $owner = 'child-owner')
    {
        $prefix = $this->prefix;
        $hosts = self::hosts();
        $sock = $this->fork(function ($sock) use ($name, $hold, $owner, $prefix, $hosts): void {
            $lock = (new DlockStore(new ArrayStore(), ['hosts' => $hosts], $prefix))->lock($name, 10, $owner);
            if (!$lock->get()) {
                throw new \RuntimeException('child could not take the lock');
            }
            self::send($sock, 'held');
            if ($hold > 0) {
                usleep((int) ($hold * 1e6));
            } else {
                self::childRead($sock);
            }
            $released = microtime(true);
            $lock->release();
            self::send($sock, sprintf('released %.6f', $released));
        });
        $this->assertSame('held', $this->expect($sock));
        return $sock;
    }

    public function testGet(): void
    {
        $store = $this->store();
        $a = $store->lock('report', 10);
        $b = $store->lock('report', 10);
        $this->assertInstanceOf(DlockLock::class, $a);
        $this->assertTrue($a->get());
        $this->assertFalse($b->get());
        $this->assertFalse($a->get(), 'taken is taken, also for the holder');
        $this->assertTrue($a->release());
        $this->assertSame('done', $b->get(fn() => 'done'));
        $this->assertFalse($b->isAcquired(), 'get($callback) releases');
        $this->assertTrue($a->get());
        $a->release();
    }

    public function testGetThroughARepository(): void
    {
        $cache = new Repository($this->store());
        $cache->put('k', 'v', 60);
        $this->assertSame('v', $cache->get('k'));
        $lock = $cache->lock('repo-lock', 5);
        $this->assertTrue($lock->get());
        $this->assertFalse($cache->lock('repo-lock', 5)->get());
        $lock->release();
    }

    public function testBlockWaitsForTheHolderToRelease(): void
    {
        $sock = $this->holder('blocked', 1.0);
        $lock = $this->store()->lock('blocked', 10);
        $t0 = microtime(true);
        try {
            $this->assertTrue($lock->block(10));
        } catch (LockTimeoutException $e) {
            $this->fail(sprintf('timed out after %.3f s', microtime(true) - $t0));
        }
        $got = microtime(true);
        $line = $this->expect($sock);
        $this->assertGreaterThanOrEqual((float) substr($line, 9), $got, 'got the lock before the holder released');
        $this->assertGreaterThan(0.7, $got - $t0);
        $this->assertLessThan(5.0, $got - $t0);
        $this->assertTrue($lock->isAcquired());
        $lock->release();
    }

    public function testBlockTimesOutWithLockTimeoutException(): void
    {
        $sock = $this->holder('timeout', 0);
        $lock = $this->store()->lock('timeout', 10);
        $t0 = microtime(true);
        try {
            $lock->block(1);
            $this->fail('block() returned while another process held the lock');
        } catch (LockTimeoutException $e) {
        }
        $waited = microtime(true) - $t0;
        $this->assertGreaterThan(0.9, $waited);
        $this->assertLessThan(2.5, $waited);
        $this->assertFalse($lock->isAcquired());
        $this->assertSame([], array_values(array_filter(\DistributedLock::participants($this->prefix . '/timeout', ['hosts' => self::hosts()]),
            fn($p) => !$p['holder'])), 'no waiting node is left behind');
        self::send($sock, 'release');
        $this->expect($sock);
        $this->assertTrue($lock->block(1));
        $lock->release();
    }

    public function testBlockRunsTheCallbackAndReleases(): void
    {
        $lock = $this->store()->lock('cb', 10);
        $this->assertSame(42, $lock->block(2, fn() => 42));
        $this->assertFalse($lock->isAcquired());
        try {
            $lock->block(2, function () {
                throw new \DomainException('boom');
            });
            $this->fail('the exception was swallowed');
        } catch (\DomainException $e) {
        }
        $this->assertFalse($lock->isAcquired(), 'released after an exception too');
        $this->assertTrue($lock->block(0));
        $this->expectException(LockTimeoutException::class);
        try {
            $lock->block(1); // held by this very object
        } finally {
            $lock->release();
        }
    }

    public function testRelease(): void
    {
        $store = $this->store();
        $a = $store->lock('rel', 10, 'alice');
        $b = $store->lock('rel', 10, 'bob');
        $this->assertFalse($a->release(), 'nothing to release');
        $this->assertTrue($a->get());
        $this->assertFalse($b->release(), 'bob does not hold it');
        $this->assertTrue($a->isAcquired());
        $this->assertTrue($a->release());
        $this->assertFalse($a->release());
        $this->assertTrue($b->get());
        $b->release();
    }

    public function testOwner(): void
    {
        $store = $this->store();
        $this->assertSame('carol', $store->lock('own', 10, 'carol')->owner());
        $random = $store->lock('own', 10);
        $this->assertIsString($random->owner());
        $this->assertNotSame('', $random->owner());

        $this->assertNull($random->getCurrentOwner());
        $sock = $this->holder('own', 0, 'dave');
        $this->assertSame('dave', $store->lock('own', 10, 'carol')->getCurrentOwner(), 'the holder\'s owner, from another process');
        self::send($sock, 'release');
        $this->expect($sock);

        $lock = $store->lock('own', 10, 'carol');
        $this->assertTrue($lock->block(5)); // the child's delete may still be on its way
        $this->assertSame('carol', $lock->getCurrentOwner());
        $lock->release();
    }

    public function testForceReleaseAndRestoreLockInTheSameProcess(): void
    {
        $store = $this->store();
        $lock = $store->lock('force', 10, 'erin');
        $this->assertTrue($lock->get());
        $lock->forceRelease();
        $this->assertFalse($lock->isAcquired());
        $store->lock('force', 10, 'erin')->forceRelease(); // nothing held: no error

        $this->assertTrue($lock->get());
        $restored = $store->restoreLock('force', 'erin');
        $this->assertSame('erin', $restored->owner());
        $this->assertTrue($restored->isAcquired(), 'the same process finds the hold again');
        $this->assertTrue($restored->release());
        $this->assertFalse($lock->isAcquired());
        $this->assertFalse($store->restoreLock('force', 'someone-else')->isAcquired());
    }

    public function testForceReleaseIgnoresTheOwnerWithinTheProcess(): void
    {
        $store = $this->store();
        $lock = $store->lock('mutex', 60, 'scheduler-run');
        $this->assertTrue($lock->get());
        // what the scheduler's forget() does: a fresh lock object, a random owner
        $store->lock('mutex', 60)->forceRelease();
        $this->assertFalse($lock->isAcquired());
        $this->assertTrue($store->lock('mutex', 60)->get());
    }

    public function testAddKeepsTheInnerStoresAtomicAdd(): void
    {
        $inner = new class extends ArrayStore {
            public int $adds = 0;

            public function add($key, $value, $seconds)
            {
                $this->adds++;
                if ($this->get($key) !== null) {
                    return false;
                }
                return $this->put($key, $value, $seconds);
            }
        };
        $cache = new Repository(new DlockStore($inner, ['hosts' => self::hosts()], $this->prefix));
        $this->assertTrue($cache->add('mutex', 1, 60));
        $this->assertFalse($cache->add('mutex', 1, 60));
        $this->assertSame(2, $inner->adds, 'Repository::add() went to the inner add()');

        $plain = new Repository(new DlockStore(new ArrayStore(), ['hosts' => self::hosts()], $this->prefix));
        $this->assertTrue($plain->add('k', 1, 60));
        $this->assertFalse($plain->add('k', 2, 60));
        $this->assertSame(1, $plain->get('k'));
    }

    public function testRestoreLockInAnotherProcessIsRefused(): void
    {
        $prefix = $this->prefix;
        $hosts = self::hosts();
        $sock = $this->fork(function ($sock) use ($prefix, $hosts): void {
            self::childRead($sock);
            try {
                (new DlockStore(new ArrayStore(), ['hosts' => $hosts], $prefix))->restoreLock('job', 'frank');
                self::send($sock, 'restored');
            } catch (\LogicException $e) {
                self::send($sock, 'refused');
            }
        });
        $lock = $this->store()->lock('job', 10, 'frank');
        $this->assertTrue($lock->get());
        self::send($sock, 'go');
        $this->assertSame('refused', $this->expect($sock));
        $this->assertTrue($lock->isAcquired());
        $lock->release();
    }

    public function testStoreHandsCacheCallsToTheInnerStore(): void
    {
        $inner = new ArrayStore();
        $store = new DlockStore($inner, ['hosts' => self::hosts()], $this->prefix);
        $this->assertTrue($store->put('a', 1, 60));
        $this->assertSame(1, $inner->get('a'));
        $this->assertSame(['a' => 1, 'b' => null], $store->many(['a', 'b']));
        $store->putMany(['b' => 2], 60);
        $this->assertSame(3, $store->increment('a', 2));
        $this->assertSame(2, $store->decrement('a'));
        $store->forever('c', 'x');
        $this->assertTrue($store->forget('c'));
        $this->assertNull($store->get('c'));
        $this->assertSame('', $store->getPrefix());
        $this->assertTrue($store->flush());
        $this->assertNull($inner->get('b'));
        $this->assertSame($inner, $store->getInnerStore());
    }

    /** Laravel 13's Store::touch(): passed to the inner store; false where it has none. */
    public function testTouchGoesToTheInnerStore(): void
    {
        $inner = new ArrayStore();
        $store = new DlockStore($inner, ['hosts' => self::hosts()], $this->prefix);
        $store->put('t', 'v', 60);
        if (!method_exists($inner, 'touch')) {
            $this->assertFalse($store->touch('t', 120), 'no touch() before Laravel 13: not touched');
            $this->assertSame('v', $inner->get('t'));
            return;
        }
        $this->assertTrue($store->touch('t', 120));
        $this->assertSame($inner->touch('missing', 1), $store->touch('missing', 1));
        $this->assertSame('v', $store->get('t'));
    }

    public function testServiceProviderRegistersTheDlockDriver(): void
    {
        if (!class_exists(\Illuminate\Container\Container::class) || !class_exists(\Illuminate\Config\Repository::class)) {
            $this->fail('needs Debian\'s php-illuminate-container and php-illuminate-config');
        }
        $app = new \Illuminate\Container\Container();
        $app->instance('config', new \Illuminate\Config\Repository(['cache' => [
            'default' => 'dlock',
            'stores' => [
                'array' => ['driver' => 'array'],
                'dlock' => ['driver' => 'dlock', 'store' => 'array', 'options' => ['hosts' => self::hosts()], 'prefix' => $this->prefix],
                'loop' => ['driver' => 'dlock', 'store' => 'dlock'],
            ],
        ]]));
        (new \Illuminate\Cache\CacheServiceProvider($app))->register();
        (new DlockServiceProvider($app))->register();

        $cache = $app['cache']->store('dlock');
        $this->assertInstanceOf(DlockStore::class, $cache->getStore());
        $cache->put('answer', 42, 60);
        $this->assertSame(42, $app['cache']->store('array')->get('answer'), 'values live in the inner store');
        $lock = $cache->lock('provider', 10);
        $this->assertInstanceOf(DlockLock::class, $lock);
        $this->assertTrue($lock->get());
        $this->assertFalse($app['cache']->lock('provider', 10)->get(), 'the default store is dlock');
        $lock->release();
        $this->assertCount(0, \DistributedLock::participants($this->prefix . '/provider', ['hosts' => self::hosts()]));

        $this->expectException(\InvalidArgumentException::class);
        $app['cache']->store('loop');
    }

    public function testLockNamesMapToPaths(): void
    {
        $this->assertSame('/dlock/laravel/user%3A42%2Fsync', DlockLock::pathOf('/dlock/laravel', 'user:42/sync'));
        $this->assertSame('/x/%2E%2E', DlockLock::pathOf('/x', '..'));
        $lock = $this->store()->lock('user:42/sync', 10, 'gina');
        $lock->get();
        $p = \DistributedLock::participants($this->prefix . '/user%3A42%2Fsync', ['hosts' => self::hosts()]);
        $this->assertSame('gina', $p[0]['data']);
        $this->assertSame($lock->fencingToken(), $p[0]['token']);
        $lock->release();
    }
}
