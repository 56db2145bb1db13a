<?php
/*
 * Symfony's CombinedStore (a Redlock-style quorum over independent servers)
 * with one DlockStore per "server" (three prefixes of the backend's test
 * server, which dlock treats as three unrelated resources): each store must
 * take its own lock, so a second process, listing the stores in another order,
 * finds every one of them held and reaches no quorum.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;
use Symfony\Component\Lock\Store\CombinedStore;
use Symfony\Component\Lock\Strategy\ConsensusStrategy;
use Symfony\Component\Lock\Strategy\UnanimousStrategy;

final class SymfonyCombinedStoreTest extends DlockTestCase
{
    private string $prefix;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
    }

    /** Data provider: the backends with read-write locks (MySQL has none). */
    public static function symfonyBackends(): array
    {
        return array_diff_key(self::backends(), ['mysql' => 1]);
    }

    /** @return list<DlockStore> the stores of "servers" $order (1..3), in that order */
    private function stores(string $backend, array $order): array
    {
        return array_map(fn (int $i) => new DlockStore($this->backendOptions($backend) + ['prefix' => "$this->prefix/server$i"]), $order);
    }

    /** Holders queued on each "server" for $name: [1 => n, 2 => n, 3 => n]. */
    private function holdersPerServer(string $backend, string $name): array
    {
        $r = [];
        foreach ($this->stores($backend, [1, 2, 3]) as $i => $store) {
            $r[$i + 1] = \count(\DistributedReadWriteLock::participants($store->pathOf($name), $this->backendOptions($backend)));
        }
        return $r;
    }

    /** @dataProvider symfonyBackends */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testEachStoreOfACombinedStoreHoldsOnItsOwnServer(string $backend): void
    {
        $lock = (new LockFactory(new CombinedStore($this->stores($backend, [1, 2, 3]), new ConsensusStrategy())))->createLock('job');
        $this->assertTrue($lock->acquire());

        // another process lists the same servers in another order: every one
        // is held, so it must not reach a quorum (nor hold anywhere)
        $sock = $this->fork(function ($sock) use ($backend): void {
            $lock = (new LockFactory(new CombinedStore($this->stores($backend, [2, 3, 1]), new ConsensusStrategy())))->createLock('job');
            self::send($sock, 'acquired ' . var_export($lock->acquire(false), true) . ' ' . var_export($lock->isAcquired(), true));
            self::childRead($sock);
        });
        $this->assertSame('acquired false false', $this->expect($sock, 30.0), 'a second process reached a quorum: two holders');
        $this->assertSame([1 => 1, 2 => 1, 3 => 1], $this->holdersPerServer($backend, 'job'), 'one hold per server, none of the refused process');
        self::send($sock, 'done');
        $this->assertTrue($lock->isAcquired());

        $lock->release();
        $this->assertSame([1 => 0, 2 => 0, 3 => 0], $this->holdersPerServer($backend, 'job'), 'release() frees every server');
        $sock = $this->fork(function ($sock) use ($backend): void {
            $lock = (new LockFactory(new CombinedStore($this->stores($backend, [3, 1, 2]), new UnanimousStrategy())))->createLock('job');
            self::send($sock, 'acquired ' . var_export($lock->acquire(false), true));
            $lock->release();
            self::send($sock, 'released');
        });
        $this->assertSame('acquired true', $this->expect($sock, 30.0));
        $this->assertSame('released', $this->expect($sock, 30.0));
    }

    /** @dataProvider symfonyBackends */
    #[\PHPUnit\Framework\Attributes\DataProvider('symfonyBackends')]
    public function testAKeySavedThroughTwoStoresHasOneTokenPerStore(string $backend): void
    {
        [$s1, $s2] = $this->stores($backend, [1, 2]);
        $key = new Key('fence');
        $s1->save($key);
        $this->assertTrue($s1->exists($key));
        $this->assertFalse($s2->exists($key), 'a key saved through one store is not held through another');
        $t1 = DlockStore::fencingToken($key);
        $s2->save($key);
        $this->assertSame([1 => 1, 2 => 1, 3 => 0], $this->holdersPerServer($backend, 'fence'));
        $this->assertSame($t1, DlockStore::fencingToken($key, $s1));
        $this->assertIsInt(DlockStore::fencingToken($key, $s2));
        try {
            DlockStore::fencingToken($key);
            $this->fail('fencingToken() without a store picked one of two holds');
        } catch (LockConflictedException $e) {
        }
        $s1->delete($key);
        $this->assertFalse($s1->exists($key));
        $this->assertTrue($s2->exists($key), "deleting through one store keeps the other's hold");
        $this->assertSame([1 => 0, 2 => 1, 3 => 0], $this->holdersPerServer($backend, 'fence'));
        $s2->delete($key);
        $this->assertSame([1 => 0, 2 => 0, 3 => 0], $this->holdersPerServer($backend, 'fence'));
    }
}
