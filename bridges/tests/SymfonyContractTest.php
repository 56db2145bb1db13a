<?php
/*
 * Dlock\Bridge\Symfony\DlockStore and DlockSemaphoreStore held to what
 * Symfony's own stores do, on every backend: autoRelease: false keeps a hold
 * past its Lock and Key, a server outage makes Semaphore::acquire() throw, a
 * semaphore is not held past its TTL (isExpired() and isAcquired() agree), a
 * lock's Key never expires, every name Symfony accepts is a distinct
 * resource, and a refused non-blocking promotion keeps the read lock.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Symfony\DlockSemaphoreStore;
use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Semaphore\Exception\RuntimeException as SemaphoreRuntimeException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Key as SemaphoreKey;
use Symfony\Component\Semaphore\SemaphoreFactory;

final class SymfonyContractTest extends DlockTestCase
{
    private string $prefix;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
    }

    private function store(string $backend): DlockStore
    {
        return new DlockStore($this->backendOptions($backend) + ['prefix' => $this->prefix]);
    }

    private function semaphores(string $backend): DlockSemaphoreStore
    {
        return new DlockSemaphoreStore($this->backendOptions($backend) + ['prefix' => $this->prefix]);
    }

    /** Waits (bounded) until $n participants are queued at $path. */
    private function waitForParticipants(string $backend, string $path, int $n): void
    {
        $deadline = microtime(true) + 20;
        while (\count(\DistributedReadWriteLock::participants($path, $this->backendOptions($backend))) < $n) {
            if (microtime(true) > $deadline) {
                $this->fail("$n participants never queued at $path");
            }
            usleep(20000);
        }
    }

    private static function pause(float $seconds): void
    {
        $until = microtime(true) + $seconds;
        while (microtime(true) < $until) {
            usleep(20000); // the TTL under test passing, not a guess about an event
        }
    }

    /** @dataProvider symfonyBackends */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testAutoReleaseFalseKeepsTheLockPastItsLockAndKey(string $backend): void
    {
        $store = $this->store($backend);
        $factory = new LockFactory($store);
        $key = new Key('batch');
        (function () use ($factory, $key): void {
            $this->assertTrue($factory->createLockFromKey($key, 300.0, false)->acquire());
        })();
        (function () use ($factory): void {
            $this->assertTrue($factory->createLock('orphan', 300.0, false)->acquire());
        })();
        gc_collect_cycles();
        foreach (['batch', 'orphan'] as $name) {
            try {
                $store->save(new Key($name));
                $this->fail("$name: the lock ended with its Lock object despite autoRelease: false");
            } catch (LockConflictedException $e) {
            }
        }
        $this->assertTrue($store->exists($key));
        $store->delete($key);
        $this->assertTrue($factory->createLock('batch')->acquire(), 'delete() of the kept key frees it');

        $auto = new Key('auto');
        (function () use ($factory, $auto): void {
            $this->assertTrue($factory->createLockFromKey($auto, 300.0, true)->acquire());
        })();
        $this->assertFalse($store->exists($auto), 'autoRelease: true still releases on destruction');
    }

    /**
     * @dataProvider symfonyBackends
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testAutoReleaseFalseKeepsTheSemaphore(string $backend): void
    {
        $store = $this->semaphores($backend);
        $factory = new SemaphoreFactory($store);
        (function () use ($factory): void {
            $this->assertTrue($factory->createSemaphore('cron', 1, 1, 300.0, false)->acquire());
        })();
        gc_collect_cycles();
        $this->assertFalse($factory->createSemaphore('cron', 1)->acquire(), 'the lease outlives its Semaphore');
    }

    /** MySQL has neither read-write locks nor semaphores: both stores refuse it up front. */
    public static function symfonyBackends(): array
    {
        return ['zookeeper' => ['zookeeper'], 'redis' => ['redis'], 'postgres' => ['postgres']];
    }

    /**
     * DlockSemaphoreStore needs symfony/semaphore.
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testBothStoresRefuseMysqlAtConstruction(): void
    {
        foreach ([DlockStore::class, DlockSemaphoreStore::class] as $class) {
            try {
                new $class($this->backendOptions('mysql'));
                $this->fail("$class accepted MySQL");
            } catch (\DistributedLockException $e) {
                $this->assertStringContainsString('not offered on mysql', $e->getMessage());
            }
        }
    }

    public static function unreachable(): array
    {
        return [
            'zookeeper' => [['hosts' => '127.0.0.1:1', 'connect_timeout' => 1]],
            'redis' => [['dsn' => 'redis://127.0.0.1:1', 'connect_timeout' => 1]],
            'postgres' => [['dsn' => 'postgres://dlock:dlock@127.0.0.1:1/dlock', 'connect_timeout' => 1]],
        ];
    }

    /**
     * @dataProvider unreachable
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('unreachable')]
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testASemaphoreOnAnUnreachableServerThrows(array $options): void
    {
        $semaphore = (new SemaphoreFactory(new DlockSemaphoreStore($options)))->createSemaphore('down', 2);
        try {
            $semaphore->acquire();
            $this->fail('an outage looked like a full semaphore');
        } catch (SemaphoreRuntimeException $e) {
            $this->assertNotInstanceOf(SemaphoreAcquiringException::class, $e->getPrevious());
        }
        $this->assertFalse($semaphore->isAcquired());
    }

    /**
     * @dataProvider symfonyBackends
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testASemaphoreIsNotHeldPastItsTtl(string $backend): void
    {
        $store = $this->semaphores($backend);
        $factory = new SemaphoreFactory($store);
        $short = $factory->createSemaphore('ttl', 1, 1, 0.5);
        $this->assertTrue($short->acquire());
        $kept = $factory->createSemaphore('refreshed', 1, 1, 0.8);
        $this->assertTrue($kept->acquire());
        self::pause(0.4);
        $kept->refresh(); // 0.8 s more from now
        self::pause(0.4);
        $this->assertTrue($short->isExpired());
        $this->assertFalse($short->isAcquired(), 'expired means not held');
        $this->assertTrue($factory->createSemaphore('ttl', 1)->acquire(), 'and the lease was given back');
        $this->assertFalse($kept->isExpired());
        $this->assertTrue($kept->isAcquired(), 'refresh() moved the end on');
        $kept->release();
    }

    /**
     * @dataProvider symfonyBackends
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testLeasesAreNotHandedOutPastTheTtl(string $backend): void
    {
        $store = $this->semaphores($backend);
        $key = new SemaphoreKey('leases', 2, 2);
        $store->save($key, 0.5);
        $this->assertCount(2, DlockSemaphoreStore::leases($key));
        self::pause(0.6);
        $this->assertSame([], DlockSemaphoreStore::leases($key), 'a lease past its TTL was handed out');
        $this->assertFalse($store->exists($key));
    }

    /** @dataProvider symfonyBackends */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testALockKeyDoesNotExpire(string $backend): void
    {
        $lock = (new LockFactory($this->store($backend)))->createLock('ttl', 0.3);
        $this->assertTrue($lock->acquire());
        self::pause(0.5);
        $this->assertNull($lock->getRemainingLifetime());
        $this->assertFalse($lock->isExpired());
        $this->assertTrue($lock->isAcquired());
        $lock->refresh();
        $lock->release();
    }

    /** @dataProvider symfonyBackends */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testEveryNameSymfonyAcceptsIsADistinctResource(string $backend): void
    {
        $store = $this->store($backend);
        $names = ['', str_repeat('я', 200), str_repeat('x', 1100), str_repeat('x', 1101), '.', '%2E', '%~'];
        $keys = [];
        foreach ($names as $name) {
            $keys[$name] = new Key($name);
            $store->save($keys[$name]); // none conflicts with another
        }
        $this->assertCount(\count($names), array_unique(array_map([$store, 'pathOf'], $names)));
        foreach ($names as $name) {
            $this->assertLessThanOrEqual(1024, \strlen($store->pathOf($name)));
            try {
                $store->save(new Key($name));
                $this->fail("a second key on the resource of length " . \strlen($name));
            } catch (LockConflictedException $e) {
            }
            $store->delete($keys[$name]);
        }
    }

    /**
     * @dataProvider symfonyBackends
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testEveryNameSymfonyAcceptsIsADistinctSemaphore(string $backend): void
    {
        $semaphores = $this->semaphores($backend);
        foreach (['', str_repeat('я', 200)] as $name) {
            $a = new SemaphoreKey($name, 1);
            $semaphores->save($a, 30);
            try {
                $semaphores->save(new SemaphoreKey($name, 1), 30);
                $this->fail('a second lease of a semaphore of 1');
            } catch (SemaphoreAcquiringException $e) {
                $this->assertTrue($semaphores->exists($a), 'the first lease is kept');
            }
            $semaphores->delete($a);
        }
    }

    /** @dataProvider symfonyBackends */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testARefusedPromotionKeepsTheReadLockWhileAWriterWaits(string $backend): void
    {
        $store = $this->store($backend);
        $key = new Key('promote');
        $store->saveRead($key);
        $options = $this->backendOptions($backend) + ['prefix' => $this->prefix];
        $sock = $this->fork(function ($sock) use ($options): void {
            $store = new DlockStore($options);
            $k = new Key('promote');
            $store->waitAndSave($k);
            self::send($sock, 'writer holds');
        });
        $this->waitForParticipants($backend, $store->pathOf('promote'), 2);
        try {
            $store->save($key);
            $this->fail('promoted past a waiting writer');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($store->exists($key), 'the read lock is kept');
        $rw = \DistributedReadWriteLock::participants($store->pathOf('promote'), $this->backendOptions($backend));
        $this->assertSame('read', $rw[0]['type']);
        $this->assertTrue($rw[0]['holder']);
        $store->delete($key);
        $this->assertSame('writer holds', $this->expect($sock, 20));
    }

    /**
     * Demotion while another process's writer is queued behind our write
     * lock is refused on every backend, blocking or not, and the key keeps
     * its write lock (on PostgreSQL dlock itself grants the blocking read
     * beside our own write lock at once).
     *
     * @dataProvider symfonyBackends
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testARefusedDemotionKeepsTheWriteLockWhileAWriterWaits(string $backend): void
    {
        $store = $this->store($backend);
        $key = new Key('demote');
        $store->save($key);
        $options = $this->backendOptions($backend) + ['prefix' => $this->prefix];
        $sock = $this->fork(function ($sock) use ($options): void {
            $store = new DlockStore($options);
            $k = new Key('demote');
            $store->waitAndSave($k);
            self::send($sock, 'writer holds');
        });
        $this->waitForParticipants($backend, $store->pathOf('demote'), 2);
        foreach (['saveRead', 'waitAndSaveRead'] as $how) {
            try {
                $store->$how($key);
                $this->fail("$how() demoted past a waiting writer");
            } catch (LockConflictedException $e) {
            }
            $this->assertTrue($store->exists($key), 'the write lock is kept');
            $rw = \DistributedReadWriteLock::participants($store->pathOf('demote'), $this->backendOptions($backend));
            $this->assertSame(['write', true], [$rw[0]['type'], $rw[0]['holder']], $how);
            $this->assertCount(2, $rw, "$how: no read lock taken beside the write lock");
        }
        $store->delete($key);
        $this->assertSame('writer holds', $this->expect($sock, 20));
    }
}
