<?php
/*
 * How long a Laravel lock of Dlock\Bridge\Laravel\DlockStore is held, on every
 * backend: past the life of its lock object (the `if (Cache::lock(..)->get())`
 * idiom, a helper, ShouldBeUnique's unique lock), until release(),
 * forceRelease() or its seconds; a lost hold gives a bool, not an exception;
 * the owner is seen from another process; restoreLock() refuses a hand-over
 * dlock cannot do; tags() reach the inner store.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Laravel\DlockStore;
use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Repository;
use Illuminate\Contracts\Cache\LockTimeoutException;

final class LaravelHoldTest extends DlockTestCase
{
    private string $prefix;

    private string $dir;

    protected function setUp(): void
    {
        $this->prefix = $this->root();
        $this->dir = sys_get_temp_dir() . '/dlock-bridge-cache-' . getmypid() . '-' . bin2hex(random_bytes(4));
    }

    protected function tearDown(): void
    {
        parent::tearDown();
        array_map('unlink', glob($this->dir . '/*') ?: []);
        @rmdir($this->dir);
    }

    /** A store on $backend whose values live in a cache directory shared with the children. */
    private function store(string $backend, array $extra = []): DlockStore
    {
        return new DlockStore(new SharedFileStore($this->dir), $this->backendOptions($backend) + $extra, $this->prefix);
    }

    /**
     * Forks a child that answers "free" or "taken" for each line it reads:
     * "try" tries $name once, "wait" waits up to 10 s for it (a release sent
     * without waiting for its reply may still be on its way).
     */
    private function prober(string $backend, string $name)
    {
        $options = $this->backendOptions($backend);
        $prefix = $this->prefix;
        $dir = $this->dir;
        return $this->fork(function ($sock) use ($options, $prefix, $dir, $name): void {
            $store = new DlockStore(new SharedFileStore($dir), $options, $prefix);
            while (($cmd = self::childRead($sock)) !== 'quit') {
                $lock = $store->lock($name, 0, 'prober');
                try {
                    $ok = $cmd === 'wait' ? $lock->block(10) : $lock->get();
                } catch (LockTimeoutException $e) {
                    $ok = false;
                }
                if ($ok) {
                    $lock->release();
                }
                self::send($sock, $ok ? 'free' : 'taken');
            }
        });
    }

    private static function takeInAHelper(DlockStore $store, string $name): bool
    {
        return $store->lock($name, 600)->get();
    }

    /** @dataProvider backends */
    #[\PHPUnit\Framework\Attributes\DataProvider('backends')]
    public function testALockOutlivesItsObject(string $backend): void
    {
        $store = $this->store($backend);
        $probe = $this->prober($backend, 'report');
        $this->assertTrue($store->lock('report', 600)->get(), 'if (Cache::lock(...)->get())');
        self::send($probe, 'try');
        $this->assertSame('taken', $this->expect($probe), 'held inside the if, after the temporary is gone');
        $this->assertFalse($store->lock('report', 600)->get(), 'and by this process too');

        $this->assertTrue(self::takeInAHelper($store, 'helper'));
        $this->assertFalse($store->lock('helper', 600)->get(), 'a lock taken in a helper is held after it returns');
        $store->lock('helper')->forceRelease();
        $this->assertTrue($store->lock('helper', 600)->get());
        $store->lock('helper')->forceRelease();

        $lock = $store->lock('report', 600);
        $this->assertFalse($lock->release(), 'another owner releases nothing');
        $store->lock('report')->forceRelease();
        self::send($probe, 'wait');
        $this->assertSame('free', $this->expect($probe, 15));
        self::send($probe, 'quit');
    }

    /** @dataProvider backends */
    #[\PHPUnit\Framework\Attributes\DataProvider('backends')]
    public function testTheUniqueJobLockAdmitsAJobOnce(string $backend): void
    {
        // what Illuminate\Bus\UniqueLock::acquire() and the worker's release do
        $cache = new Repository($this->store($backend));
        $key = 'laravel_unique_job:App\Jobs\SendInvoice42';
        $this->assertTrue((bool) $cache->lock($key, 60)->get(), 'first dispatch');
        $this->assertFalse((bool) $cache->lock($key, 60)->get(), 'the same job again is refused');
        $cache->lock($key)->forceRelease(); // the job ran
        $this->assertTrue((bool) $cache->lock($key, 60)->get(), 'dispatchable again');
        $cache->lock($key)->forceRelease();
    }

    /** @dataProvider backends */
    #[\PHPUnit\Framework\Attributes\DataProvider('backends')]
    public function testTheSecondsRunOut(string $backend): void
    {
        $store = $this->store($backend);
        $lock = $store->lock('ttl', 1, 'short');
        $this->assertTrue($lock->get());
        $this->assertTrue($store->lock('forever', 0, 'long')->get());
        $until = microtime(true) + 1.05;
        while (microtime(true) < $until) {
            usleep(50000); // the lock's own second, not a guess about some event
        }
        $this->assertFalse($lock->isAcquired(), 'its second is over');
        $this->assertTrue($store->lock('ttl', 1, 'next')->get(), 'and anyone may take it');
        $this->assertFalse($store->lock('forever', 0, 'other')->get(), 'a lock without seconds is still held');
        $store->lock('ttl')->forceRelease();
        $store->lock('forever')->forceRelease();
    }

    /** Data provider: the test Redis's DSN as given, and with an upper-case scheme (dlock accepts both). */
    public static function redisSchemes(): array
    {
        return ['redis://' => ['redis'], 'REDIS://' => ['REDIS'], 'unix:// (a Unix socket)' => ['unix']];
    }

    /** The test Redis's options with the DSN's scheme written $scheme. */
    private function redisOptions(string $scheme = 'redis'): array
    {
        $options = $this->backendOptions('redis');
        if ($scheme === 'unix') {
            // the socket scripts/servers/redis.sh gives every server it starts
            $port = parse_url($options['dsn'])['port'] ?? 6379;
            $sock = (getenv('DLOCK_REDIS_STATE') ?: '/tmp/dlock-redis') . "/$port/sock";
            $this->assertFileExists($sock, 'the test Redis has no Unix socket where scripts/servers/redis.sh puts it');
            $options['dsn'] = "unix://$sock";
            return $options;
        }
        $options['dsn'] = $scheme . substr($options['dsn'], \strlen('redis'));
        return $options;
    }

    /** Sends one command to the test Redis (RESP, no client library) and returns the reply's first line. */
    private function redisCommand(string ...$args): string
    {
        $addr = parse_url($this->backendOptions('redis')['dsn']);
        $s = stream_socket_client('tcp://' . $addr['host'] . ':' . ($addr['port'] ?? 6379), $errno, $errstr, 5.0);
        $this->assertNotFalse($s, "cannot reach the test Redis: $errstr");
        $cmd = '*' . \count($args) . "\r\n";
        foreach ($args as $a) {
            $cmd .= '$' . \strlen($a) . "\r\n" . $a . "\r\n";
        }
        fwrite($s, $cmd);
        stream_set_timeout($s, 5);
        $reply = rtrim((string) fgets($s), "\r\n");
        fclose($s);
        return $reply;
    }

    /**
     * @dataProvider redisSchemes
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('redisSchemes')]
    public function testOnRedisTheLeaseEndsWithTheSecondsInTheServer(string $scheme): void
    {
        // the lock's seconds win over the store's lease, whatever case the DSN's scheme is in
        $store = new DlockStore(new SharedFileStore($this->dir), $this->redisOptions($scheme) + ['lease' => 30], $this->prefix);
        $this->assertTrue($store->lock('lease', 1, 'short')->get());
        $options = $this->backendOptions('redis');
        $path = $store->lock('lease')->getPath();
        // another process waits and is granted once the lease ends, while this one sleeps in no dlock call
        $sock = $this->fork(function ($sock) use ($options, $path): void {
            $t = microtime(true);
            $ok = (new \DistributedLock($path, $options))->acquire(20);
            self::send($sock, $ok ? sprintf('granted %.3f', microtime(true) - $t) : 'timeout');
        });
        $line = $this->expect($sock, 25);
        $this->assertMatchesRegularExpression('/^granted /', $line);
        $this->assertLessThan(10.0, (float) substr($line, 8), 'freed after about a second, not one 30 s lease');
    }

    /**
     * A Redis lock with seconds whose key is lost in the server (a restart
     * without persistence, an eviction, a fail-over, here a DEL) is noticed
     * by the watchdog within a third of its lease, not only when the seconds
     * end.
     */
    public function testOnRedisALostKeyIsNoticedBeforeTheSecondsEnd(): void
    {
        $store = $this->store('redis');
        $lock = $store->lock('lost', 60, 'holder');
        $this->assertTrue($lock->get());
        $this->assertSame(':1', $this->redisCommand('DEL', $lock->getPath()));
        $t = microtime(true);
        while ($lock->isAcquired()) {
            if (microtime(true) - $t > 15) {
                $this->fail('a lock whose key is gone was still reported held 15 s later (its seconds are 60)');
            }
            usleep(50000); // the watchdog's next renewal, which finds the key gone
        }
        $this->assertTrue($store->lock('lost', 60, 'next')->get(), 'and anyone may take it');
        $store->lock('lost')->forceRelease();
    }

    /** Data provider: the backends whose owner record lives in the inner cache store. */
    public static function ownerRecordBackends(): array
    {
        return ['redis' => ['redis'], 'postgres' => ['postgres'], 'mysql' => ['mysql']];
    }

    /** In a forked child: what restoreLock($name, $owner) does, as one line. */
    private function restoreInAChild(string $backend, string $name, string $owner): string
    {
        $sock = $this->fork(function ($sock) use ($backend, $name, $owner): void {
            try {
                $this->store($backend)->restoreLock($name, $owner);
                self::send($sock, 'restored');
            } catch (\LogicException $e) {
                self::send($sock, 'refused');
            }
        });
        return $this->expect($sock, 20);
    }

    /**
     * A forked child of the holder inherits the process's registry of holds
     * but holds nothing: its restoreLock() of the parent's hold refuses and
     * leaves the parent's owner record alone (review finding 6).
     *
     * @dataProvider ownerRecordBackends
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('ownerRecordBackends')]
    public function testAForkedChildLeavesTheParentsOwnerRecord(string $backend): void
    {
        $store = $this->store($backend);
        $lock = $store->lock('forked', 0, 'parent-owner');
        $this->assertTrue($lock->get());
        $this->assertSame('refused', $this->restoreInAChild($backend, 'forked', 'parent-owner'), 'the child restored the parent\'s hold');
        $this->assertTrue($lock->isAcquired());
        $this->assertSame('refused', $this->restoreInAChild($backend, 'forked', 'parent-owner'), 'the owner record is gone');
        $this->assertSame('parent-owner', $store->lock('forked')->getCurrentOwner());
        $this->assertTrue($lock->release());
    }

    /**
     * An owner record left by a holder that ended without release() (dlock
     * released at request end) names nobody once someone else holds the lock,
     * e.g. plain dlock code (review finding 7a).
     *
     * @dataProvider ownerRecordBackends
     */
    #[\PHPUnit\Framework\Attributes\DataProvider('ownerRecordBackends')]
    public function testAStaleOwnerRecordNamesNobody(string $backend): void
    {
        $sock = $this->fork(function ($sock) use ($backend): void {
            $lock = $this->store($backend)->lock('stale', 0, 'gone-owner');
            $lock->get();
            $lock->dlock()->release(); // what request end does: the bridge's record stays
            self::send($sock, 'ended');
        });
        $this->assertSame('ended', $this->expect($sock, 20));
        $store = $this->store($backend);
        $plain = new \DistributedLock($store->lock('stale')->getPath(), $this->backendOptions($backend));
        $this->assertTrue($plain->tryAcquire());
        $this->assertNull($store->lock('stale')->getCurrentOwner(), 'a dead owner is named for a hold it does not have');
        $this->assertFalse($store->restoreLock('stale', 'gone-owner')->isAcquired(), 'restoreLock() of the dead owner gives a lock that holds nothing');
        $plain->release();
    }

    /** block() with a timeout past dlock's longest (one year), or INF, waits without one instead of a ValueError. */
    public function testBlockAcceptsAnyTimeout(): void
    {
        $store = $this->store('zookeeper');
        foreach ([31536001, 1e12, INF] as $seconds) {
            $this->assertSame('done', $store->lock('long-wait', 0, 'w')->block($seconds, fn () => 'done'), "block($seconds)");
        }
    }

    /** Seconds past dlock's longest max_hold (one year) still give a lock on Redis, held until released. */
    public function testOnRedisHugeSecondsAreAccepted(): void
    {
        $store = $this->store('redis');
        foreach ([31536000, 31536001, 400000000] as $seconds) {
            $lock = $store->lock('huge', $seconds, 'h');
            $this->assertTrue($lock->get(), "seconds $seconds");
            $this->assertTrue($lock->isAcquired());
            $this->assertTrue($lock->release());
        }
    }

    /** @dataProvider backends */
    #[\PHPUnit\Framework\Attributes\DataProvider('backends')]
    public function testTheOwnerIsSeenFromAnotherProcess(string $backend): void
    {
        $store = $this->store($backend);
        $options = $this->backendOptions($backend);
        $prefix = $this->prefix;
        $dir = $this->dir;
        $sock = $this->fork(function ($sock) use ($options, $prefix, $dir): void {
            $store = new DlockStore(new SharedFileStore($dir), $options, $prefix);
            $store->lock('own', 60, 'dave')->get();
            self::send($sock, 'held');
            self::childRead($sock);
            $store->lock('own')->forceRelease();
            self::send($sock, 'released');
        });
        $this->assertSame('held', $this->expect($sock));
        $this->assertSame('dave', $store->lock('own', 10, 'carol')->getCurrentOwner());
        self::send($sock, 'release');
        $this->assertSame('released', $this->expect($sock));
        $this->assertNull($store->lock('own', 10, 'carol')->getCurrentOwner());
        $lock = $store->lock('own', 10, 'carol');
        $this->assertTrue($lock->get());
        $this->assertSame('carol', $store->lock('own')->getCurrentOwner());
        $lock->release();
    }

    /** @dataProvider backends */
    #[\PHPUnit\Framework\Attributes\DataProvider('backends')]
    public function testRestoreLockOfAHoldInAnotherProcessRefuses(string $backend): void
    {
        $options = $this->backendOptions($backend);
        $prefix = $this->prefix;
        $dir = $this->dir;
        $sock = $this->fork(function ($sock) use ($options, $prefix, $dir): void {
            $store = new DlockStore(new SharedFileStore($dir), $options, $prefix);
            $store->lock('job', 60, 'frank')->get();
            self::send($sock, 'held');
            self::childRead($sock);
        });
        $this->assertSame('held', $this->expect($sock));
        $store = $this->store($backend);
        try {
            $store->restoreLock('job', 'frank');
            $this->fail('restoreLock() of a hold in another process');
        } catch (\LogicException $e) {
            $this->assertStringContainsString('another process', $e->getMessage());
        }
        $nobody = $store->restoreLock('job', 'nobody');
        $this->assertFalse($nobody->release(), 'an owner that holds nothing releases nothing');
        $store->lock('job')->forceRelease(); // not this process's hold: untouched
        $this->assertFalse($store->lock('job', 10)->get(), 'still held by the other process');
    }

    /** @dataProvider lostHolds */
    #[\PHPUnit\Framework\Attributes\DataProvider('lostHolds')]
    public function testAGetAfterALostHoldIsABool(string $backend): void
    {
        if ($backend === 'redis') {
            // a lease of 0.2 s that is never renewed (max_hold): lost, not expired by its seconds
            $store = $this->store('redis', ['lease' => 0.2, 'max_hold' => 0.001]);
            $lock = $store->lock('lost', 0, 'me');
            $this->assertTrue($lock->get());
            $until = microtime(true) + 0.5;
            while (microtime(true) < $until) {
                usleep(50000);
            }
            $this->assertFalse($lock->isAcquired());
            $this->assertTrue($lock->get(), 'the lost hold is cleared and the free lock taken');
            $this->assertFalse($lock->get());
            $this->assertTrue($lock->release());
            return;
        }
        // ZooKeeper: a child holds on a 1 s session and is stopped past it
        $options = $this->backendOptions('zookeeper') + ['session_timeout' => 1000];
        $prefix = $this->prefix;
        $dir = $this->dir;
        $sock = $this->fork(function ($sock) use ($options, $prefix, $dir): void {
            $lock = (new DlockStore(new SharedFileStore($dir), $options, $prefix))->lock('lost', 0, 'me');
            $lock->get();
            self::send($sock, 'held');
            self::childRead($sock);
            try {
                $first = $lock->get() ? 'true' : 'false';
                $lock->release();
                $second = $lock->block(5) ? 'true' : 'false';
                self::send($sock, "get $first block $second");
            } catch (\Throwable $e) {
                self::send($sock, get_class($e) . ': ' . $e->getMessage());
            }
        });
        $this->assertSame('held', $this->expect($sock));
        posix_kill($this->lastChildPid(), SIGSTOP);
        $store = $this->store('zookeeper');
        $this->assertTrue($store->lock('lost', 0, 'parent')->block(20)); // once the stopped child's session expired
        $store->lock('lost')->forceRelease();
        posix_kill($this->lastChildPid(), SIGCONT);
        self::send($sock, 'go');
        $line = $this->expect($sock, 20);
        $this->assertSame('get true block true', $line, 'the lost hold is cleared: a bool, no exception');
    }

    public static function lostHolds(): array
    {
        return ['zookeeper' => ['zookeeper'], 'redis' => ['redis']];
    }

    /** @dataProvider backends */
    #[\PHPUnit\Framework\Attributes\DataProvider('backends')]
    public function testEveryNameIsADistinctLock(string $backend): void
    {
        $store = $this->store($backend);
        $names = ['', str_repeat('я', 200), str_repeat('x', 1100), str_repeat('x', 1101), '.', '%2E', '%~'];
        foreach ($names as $name) {
            $this->assertTrue($store->lock($name, 60, 'a')->get(), 'length ' . \strlen($name));
        }
        $this->assertCount(\count($names), array_unique(array_map(fn($n) => $store->lock($n)->getPath(), $names)));
        foreach ($names as $name) {
            $this->assertLessThanOrEqual(1024, \strlen($store->lock($name)->getPath()));
            $this->assertFalse($store->lock($name, 60, 'b')->get());
            $this->assertTrue($store->lock($name, 60, 'a')->release());
        }
    }

    public function testTagsReachTheInnerStore(): void
    {
        $cache = new Repository(new DlockStore(new ArrayStore(), $this->backendOptions('zookeeper'), $this->prefix));
        $cache->tags(['people', 'authors'])->put('anne', 'Anne', 60);
        $this->assertSame('Anne', $cache->tags(['people', 'authors'])->get('anne'));
        $cache->tags('people')->flush();
        $this->assertNull($cache->tags(['people', 'authors'])->get('anne'));

        $plain = new Repository(new DlockStore(new class extends SharedFileStore {
            public function __construct()
            {
                parent::__construct(sys_get_temp_dir() . '/dlock-bridge-notags-' . getmypid());
            }
        }, $this->backendOptions('zookeeper'), $this->prefix));
        $this->expectException(\BadMethodCallException::class);
        $plain->tags('x');
    }
}
