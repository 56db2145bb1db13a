<?php
/*
 * The symfony/lock store contract of Dlock\Bridge\Symfony\DlockStore against a
 * real ZooKeeper: conflicts, idempotent saves, blocking without polling,
 * shared reads, promotion and demotion, lost locks, fencing tokens.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Symfony\DlockStore;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\UnserializableKeyException;
use Symfony\Component\Lock\Key;
use Symfony\Component\Lock\LockFactory;

final class SymfonyStoreTest extends DlockTestCase
{
    private function store(array $options = []): DlockStore
    {
        return new DlockStore(['hosts' => self::hosts(), 'prefix' => $this->prefix] + $options);
    }

    private string $prefix;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
    }

    public function testTwoKeysOnOneResourceConflictWithinOneProcess(): void
    {
        $store = $this->store();
        $a = new Key('orders');
        $b = new Key('orders');
        $store->save($a);
        try {
            $store->save($b);
            $this->fail('a second key on the same resource was saved');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($store->exists($a));
        $this->assertFalse($store->exists($b));
        $store->delete($a);
        $this->assertFalse($store->exists($a));
        $store->save($b);
        $this->assertTrue($store->exists($b));
        $store->delete($b);
    }

    public function testTwoStoresConflictToo(): void
    {
        $a = new Key('x');
        $b = new Key('x');
        $this->store()->save($a);
        $this->expectException(LockConflictedException::class);
        $this->store()->save($b);
    }

    public function testSavingAgainInTheSameModeIsANoOp(): void
    {
        $store = $this->store();
        $key = new Key('again');
        $store->save($key);
        $token = DlockStore::fencingToken($key);
        $store->save($key);
        $store->waitAndSave($key);
        $this->assertSame($token, DlockStore::fencingToken($key));
        $this->assertCount(1, \DistributedReadWriteLock::participants($store->pathOf('again'), ['hosts' => self::hosts()]));
        $store->delete($key);
        $this->assertFalse($store->exists($key));

        $store->saveRead($key);
        $store->saveRead($key);
        $store->waitAndSaveRead($key);
        $this->assertCount(1, \DistributedReadWriteLock::participants($store->pathOf('again'), ['hosts' => self::hosts()]));
        $store->delete($key);
        $this->assertSame([], \DistributedReadWriteLock::participants($store->pathOf('again'), ['hosts' => self::hosts()]));
    }

    public function testDeleteOfAnUnknownKeyIsANoOp(): void
    {
        $store = $this->store();
        $key = new Key('never-saved');
        $store->delete($key);
        $this->assertFalse($store->exists($key));
        $store->save($key);
        $store->delete($key);
        $store->delete($key);
        $this->assertFalse($store->exists($key));
    }

    public function testWaitAndSaveBlocksWhileAForkedChildHolds(): void
    {
        $options = ['hosts' => self::hosts(), 'prefix' => $this->prefix];
        $sock = $this->fork(function ($sock) use ($options): void {
            $store = new DlockStore($options);
            $key = new Key('blocking');
            $store->save($key);
            self::send($sock, 'held');
            usleep(1_000_000);
            $released = microtime(true);
            $store->delete($key);
            self::send($sock, sprintf('released %.6f', $released));
            self::childRead($sock);
        });
        $this->assertSame('held', $this->expect($sock));
        $store = $this->store();
        $key = new Key('blocking');
        $t0 = microtime(true);
        $store->waitAndSave($key);
        $got = microtime(true);
        $this->assertTrue($store->exists($key));
        $line = $this->expect($sock);
        $this->assertMatchesRegularExpression('/^released [0-9.]+$/', $line);
        $released = (float) substr($line, 9);
        $this->assertGreaterThanOrEqual($released, $got, 'acquired before the child released');
        $this->assertGreaterThan(0.7, $got - $t0);
        $this->assertLessThan(5.0, $got - $t0);
        self::send($sock, 'bye');
        $store->delete($key);
    }

    public function testReadersShare(): void
    {
        $store = $this->store();
        $a = new Key('catalog');
        $b = new Key('catalog');
        $store->saveRead($a);
        $store->saveRead($b);
        $this->assertTrue($store->exists($a));
        $this->assertTrue($store->exists($b));

        // and across processes
        $options = ['hosts' => self::hosts(), 'prefix' => $this->prefix];
        $sock = $this->fork(function ($sock) use ($options): void {
            $store = new DlockStore($options);
            $k = new Key('catalog');
            $store->saveRead($k);
            self::send($sock, $store->exists($k) ? 'reading' : 'not reading');
            self::childRead($sock);
            $store->delete($k);
        });
        $this->assertSame('reading', $this->expect($sock));
        self::send($sock, 'bye');
        $store->delete($a);
        $store->delete($b);
    }

    public function testAWriterExcludesReadersAndReadersExcludeAWriter(): void
    {
        $store = $this->store();
        $w = new Key('doc');
        $r = new Key('doc');
        $store->save($w);
        try {
            $store->saveRead($r);
            $this->fail('a reader got in beside a writer');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($store->exists($w));
        $this->assertFalse($store->exists($r));
        $store->delete($w);

        $store->saveRead($r);
        try {
            $store->save($w);
            $this->fail('a writer got in beside a reader');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($store->exists($r), 'the failed write attempt must not disturb the reader');
        $this->assertFalse($store->exists($w));
        $store->delete($r);
    }

    public function testASoleReaderIsPromoted(): void
    {
        $store = $this->store();
        $a = new Key('promote');
        $b = new Key('promote');
        $store->saveRead($a);
        $store->save($a);
        $this->assertTrue($store->exists($a));
        try {
            $store->saveRead($b);
            $this->fail('a reader got in beside the promoted writer');
        } catch (LockConflictedException $e) {
        }
        $store->delete($a);
        $store->saveRead($b);
        $this->assertTrue($store->exists($b));
        $store->delete($b);
    }

    public function testPromotionBesideAnotherReaderIsAConflictAndKeepsTheRead(): void
    {
        $store = $this->store();
        $a = new Key('promote2');
        $b = new Key('promote2');
        $store->saveRead($a);
        $store->saveRead($b);
        try {
            $store->save($a);
            $this->fail('promoted beside another reader');
        } catch (LockConflictedException $e) {
        }
        $this->assertTrue($store->exists($a));
        $this->assertTrue($store->exists($b));
        // once alone, the promotion goes through
        $store->delete($b);
        $store->save($a);
        $this->assertTrue($store->exists($a));
        $store->delete($a);
    }

    public function testAWriterIsDemotedAndReadersJoin(): void
    {
        $store = $this->store();
        $a = new Key('demote');
        $b = new Key('demote');
        $store->save($a);
        $token = DlockStore::fencingToken($a);
        $store->saveRead($a);
        $store->saveRead($b);
        $this->assertTrue($store->exists($a));
        $this->assertTrue($store->exists($b));
        $this->assertGreaterThan($token, DlockStore::fencingToken($a), 'the read hold is a new node');
        $store->delete($a);
        $store->delete($b);
    }

    public function testDemotionWhileAWriterIsQueuedIsAConflictAndKeepsTheWrite(): void
    {
        // the child is forked before the parent holds anything (a child forked
        // while the parent held was refused as a self-deadlock before 878e6da;
        // tests/06_zk_safety/009 covers that case now)
        $options = ['hosts' => self::hosts(), 'prefix' => $this->prefix];
        $sock = $this->fork(function ($sock) use ($options): void {
            $store = new DlockStore($options);
            $k = new Key('demote2');
            self::childRead($sock);
            self::send($sock, 'queueing');
            $store->waitAndSave($k);
            self::send($sock, 'got it');
            $store->delete($k);
        });
        $store = $this->store();
        $a = new Key('demote2');
        $store->save($a);
        self::send($sock, 'go');
        $this->assertSame('queueing', $this->expect($sock));
        $path = $store->pathOf('demote2');
        $deadline = microtime(true) + 5;
        while (count(\DistributedReadWriteLock::participants($path, ['hosts' => self::hosts()])) < 2 && microtime(true) < $deadline) {
            usleep(20_000);
        }
        try {
            $store->saveRead($a);
            $this->fail('demoted while a writer was queued');
        } catch (LockConflictedException $e) {
            $this->assertStringContainsString('demote', $e->getMessage());
        }
        $this->assertTrue($store->exists($a), 'the write lock is kept');
        $store->delete($a);
        $this->assertSame('got it', $this->expect($sock));
    }

    public function testASavedKeyCannotBeSerialized(): void
    {
        $store = $this->store();
        $key = new Key('ser');
        $this->assertIsString(serialize($key)); // fine before
        $store->save($key);
        try {
            serialize($key);
            $this->fail('a key holding a dlock lock was serialized');
        } catch (UnserializableKeyException $e) {
        } finally {
            $store->delete($key);
        }
    }

    public function testPutOffExpirationOnAHeldLockDoesNothingAndOnAnUnsavedKeyConflicts(): void
    {
        $store = $this->store();
        $key = new Key('ttl');
        try {
            $store->putOffExpiration($key, 10.0);
            $this->fail('put off the expiration of a lock never taken');
        } catch (LockConflictedException $e) {
        }
        $store->save($key);
        $key->reduceLifetime(30.0);
        $left = $key->getRemainingLifetime();
        $store->putOffExpiration($key, 0.001);
        $this->assertTrue($store->exists($key));
        $this->assertLessThanOrEqual($left, $key->getRemainingLifetime(), 'nothing is lengthened behind Symfony\'s back');
        $this->assertGreaterThan(29.0, $key->getRemainingLifetime(), 'nothing is shortened either');
        $store->delete($key);
        $this->expectException(LockConflictedException::class);
        $store->putOffExpiration($key, 10.0);
    }

    public function testPutOffExpirationOnALostLockConflicts(): void
    {
        // the child holds with a 1 s session, is stopped past it, the parent
        // takes the lock, the child is resumed and finds its lock lost
        $options = ['hosts' => self::hosts(), 'prefix' => $this->prefix, 'session_timeout' => 1000];
        $sock = $this->fork(function ($sock) use ($options): void {
            $store = new DlockStore($options);
            $k = new Key('lost');
            $store->save($k);
            self::send($sock, 'held ' . DlockStore::fencingToken($k));
            self::childRead($sock); // stopped here, then told to check
            try {
                $store->putOffExpiration($k, 30.0);
                self::send($sock, 'still held?!');
            } catch (LockConflictedException $e) {
                self::send($sock, 'conflicted ' . ($store->exists($k) ? 'exists' : 'gone'));
            }
        });
        $line = $this->expect($sock);
        $this->assertMatchesRegularExpression('/^held \d+$/', $line);
        $childToken = (int) substr($line, 5);
        $pid = $this->lastChildPid();
        posix_kill($pid, SIGSTOP);
        $store = $this->store();
        $key = new Key('lost');
        $store->waitAndSave($key); // free once the stopped child's session expires
        $this->assertGreaterThan($childToken, DlockStore::fencingToken($key));
        posix_kill($pid, SIGCONT);
        self::send($sock, 'check');
        $this->assertSame('conflicted gone', $this->expect($sock));
        $store->delete($key);
    }

    public function testFencingTokensIncrease(): void
    {
        $store = $this->store();
        $last = 0;
        for ($i = 0; $i < 3; $i++) {
            $key = new Key('fence');
            $store->save($key);
            $t = DlockStore::fencingToken($key);
            $this->assertGreaterThan($last, $t);
            $last = $t;
            $store->delete($key);
        }
        $this->expectException(LockConflictedException::class);
        DlockStore::fencingToken(new Key('fence'));
    }

    public function testWithSymfonyLockFactory(): void
    {
        $factory = new LockFactory($this->store());
        $a = $factory->createLock('job', 30);
        $b = $factory->createLock('job', 30);
        $this->assertTrue($a->acquire());
        $this->assertFalse($b->acquire(false));
        $this->assertTrue($a->isAcquired());
        $a->refresh();
        $this->assertFalse($a->isExpired());
        $a->release();
        $this->assertFalse($a->isAcquired());
        $this->assertTrue($b->acquire(true));
        $b->release();
        $this->assertTrue($a->acquireRead());
        $this->assertTrue($b->acquireRead());
        $this->assertTrue($b->isAcquired());
        $a->release();
        $b->release();
    }

    public function testResourceNamesMapToPathsUnderThePrefix(): void
    {
        $default = new DlockStore(['hosts' => self::hosts()]);
        $this->assertSame('/dlock/symfony/a%2Fb%20c', $default->pathOf('a/b c'));
        $this->assertSame('/dlock/symfony/%2E', $default->pathOf('.'));
        $this->assertSame('/dlock/symfony/%2E%2E', $default->pathOf('..'));
        $this->assertSame('/dlock/symfony/...x', $default->pathOf('...x'));
        $this->assertSame('/dlock/symfony/caf%C3%A9', $default->pathOf('café'));

        $store = $this->store();
        $key = new Key('a/b c');
        $store->save($key);
        $nodes = \DistributedReadWriteLock::participants($this->prefix . '/a%2Fb%20c', ['hosts' => self::hosts()]);
        $this->assertCount(1, $nodes);
        $this->assertSame('write', $nodes[0]['type']);
        $this->assertSame(DlockStore::fencingToken($key), $nodes[0]['token']);
        $store->delete($key);
    }

    public function testTheStoreLockExcludesADistributedLockOnThePath(): void
    {
        // documented: a DlockStore lock is the write part of a read-write
        // lock; on ZooKeeper another kind on the same path is refused while
        // it holds (kinds on one path never hold at once), and gets it after
        $store = $this->store();
        $key = new Key('mutex');
        $store->save($key);
        $mutex = new \DistributedLock($store->pathOf('mutex'), ['hosts' => self::hosts()]);
        try {
            $this->assertFalse($mutex->tryAcquire(), 'a mutex held beside the store\'s write lock');
        } catch (\DistributedLockException $e) {
            $this->assertStringContainsString('another kind', $e->getMessage());
        }
        $this->assertFalse($mutex->isAcquired());
        $store->delete($key);
        $this->assertTrue($mutex->tryAcquire());
        $mutex->release();
    }

    public function testBadInput(): void
    {
        try {
            new DlockStore(['hosts' => self::hosts(), 'no_such_option' => 1]);
            $this->fail('an unknown option was accepted');
        } catch (\ValueError $e) {
        }
        try {
            new DlockStore(['prefix' => 'relative']);
            $this->fail('a relative prefix was accepted');
        } catch (InvalidArgumentException $e) {
        }
        $this->expectException(InvalidArgumentException::class);
        new DlockStore(['prefix' => '/' . str_repeat('p', 900)]); // no room left for a hashed name
    }
}
