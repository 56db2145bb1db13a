<?php
/*
 * Dlock\Bridge\Symfony\DlockSemaphoreStore with symfony/semaphore against a
 * real ZooKeeper: the limit holds across keys and processes, weights, release,
 * a lost lease.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Symfony\DlockSemaphoreStore;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\SemaphoreFactory;

/** @group semaphore */
#[\PHPUnit\Framework\Attributes\Group('semaphore')]
final class SymfonySemaphoreStoreTest extends DlockTestCase
{
    private string $prefix;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
    }

    private function store(array $options = []): DlockSemaphoreStore
    {
        return new DlockSemaphoreStore(['hosts' => self::hosts(), 'prefix' => $this->prefix] + $options);
    }

    public function testTheLimitHolds(): void
    {
        $store = $this->store();
        $a = new Key('pdf', 2);
        $b = new Key('pdf', 2);
        $c = new Key('pdf', 2);
        $store->save($a, 30);
        $store->save($b, 30);
        $store->save($a, 30); // again: no second lease
        try {
            $store->save($c, 30);
            $this->fail('a third lease of a semaphore of 2');
        } catch (SemaphoreAcquiringException $e) {
        }
        $this->assertTrue($store->exists($a));
        $this->assertTrue($store->exists($b));
        $this->assertFalse($store->exists($c));
        $this->assertCount(2, \DistributedSemaphore::participants($store->pathOf('pdf'), 2, ['hosts' => self::hosts()]));
        $store->delete($a);
        $store->delete(new Key('pdf', 2)); // unknown key: nothing happens
        $store->save($c, 30);
        $this->assertTrue($store->exists($c));
        $store->delete($b);
        $store->delete($c);
    }

    public function testWeightsTakeSeveralLeasesAllOrNone(): void
    {
        $store = $this->store();
        $one = new Key('w', 3, 1);
        $heavy = new Key('w', 3, 3);
        $store->save($one, 30);
        try {
            $store->save($heavy, 30);
            $this->fail('3 more leases beside 1 of 3');
        } catch (SemaphoreAcquiringException $e) {
        }
        $this->assertCount(1, \DistributedSemaphore::participants($store->pathOf('w'), 3, ['hosts' => self::hosts()]),
            'the leases taken before the shortfall were given back');
        $store->delete($one);
        $store->save($heavy, 30);
        $this->assertTrue($store->exists($heavy));
        $store->delete($heavy);
    }

    public function testWithSemaphoreFactoryAcrossProcesses(): void
    {
        $options = ['hosts' => self::hosts(), 'prefix' => $this->prefix];
        $sock = $this->fork(function ($sock) use ($options): void {
            $sem = (new SemaphoreFactory(new DlockSemaphoreStore($options)))->createSemaphore('jobs', 1);
            self::send($sock, $sem->acquire() ? 'acquired' : 'full');
            self::childRead($sock);
            $sem->release();
            self::send($sock, 'released');
        });
        $this->assertSame('acquired', $this->expect($sock));
        $sem = (new SemaphoreFactory($this->store()))->createSemaphore('jobs', 1);
        $this->assertFalse($sem->acquire());
        self::send($sock, 'release');
        $this->assertSame('released', $this->expect($sock));
        $this->assertTrue($sem->acquire());
        $sem->refresh();
        $this->assertTrue($sem->isAcquired());
        $sem->release();
        $this->assertFalse($sem->isAcquired());
    }

    public function testPutOffExpirationOfALeaseNoLongerHeld(): void
    {
        $store = $this->store();
        $key = new Key('gone', 1);
        $store->save($key, 30);
        $store->putOffExpiration($key, 30);
        // the lease is released behind the store's back: not held any more
        DlockSemaphoreStore::leases($key)[0]->release();
        $this->assertFalse($store->exists($key));
        $this->expectException(SemaphoreExpiredException::class);
        $store->putOffExpiration($key, 30);
    }
}
