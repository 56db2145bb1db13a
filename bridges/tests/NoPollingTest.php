<?php
/*
 * A blocked DlockLock::block() sends nothing to ZooKeeper while it waits: the
 * server's own counters (mntr zk_packets_received, and the waiter's connection
 * in cons) do not move during a 2 s wait, while Laravel's stock polling
 * block() on the same server moves them every 250 ms.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Laravel\DlockStore;
use Illuminate\Cache\ArrayStore;
use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;

/** Laravel's stock block() (a 250 ms polling loop) over a dlock tryAcquire(), for contrast. */
final class PollingLock extends Lock
{
    private \DistributedLock $lock;

    public function __construct(string $path, array $options)
    {
        parent::__construct($path, 0);
        $this->lock = new \DistributedLock($path, $options);
    }

    public function acquire()
    {
        return $this->lock->tryAcquire();
    }

    public function release()
    {
        $this->lock->release();
        return true;
    }

    protected function getCurrentOwner()
    {
        return $this->owner;
    }

    public function forceRelease()
    {
        $this->release();
    }
}

final class NoPollingTest extends DlockTestCase
{
    public function testABlockedWaitSendsNoRequests(): void
    {
        $prefix = $this->root();
        $hosts = self::hosts();
        $holder = $this->fork(function ($sock) use ($prefix, $hosts): void {
            $lock = (new DlockStore(new ArrayStore(), ['hosts' => $hosts], $prefix))->lock('busy', 0, 'holder');
            $lock->get();
            self::send($sock, 'held');
            self::childRead($sock);
            $lock->release();
            self::send($sock, 'released');
        });
        $this->assertSame('held', $this->expect($holder));
        \DistributedLock::participants("$prefix/busy", ['hosts' => $hosts]); // our own session, opened now
        $before = self::connections();

        // the waiter asks for a 60 s session, so its client pings only every 20 s
        $waiter = $this->fork(function ($sock) use ($prefix, $hosts): void {
            $lock = (new DlockStore(new ArrayStore(), ['hosts' => $hosts, 'session_timeout' => 60000], $prefix))->lock('busy', 0, 'waiter');
            self::send($sock, 'waiting');
            self::send($sock, $lock->block(30) ? 'got it' : 'no');
            $lock->release();
        });
        $this->assertSame('waiting', $this->expect($waiter));
        $deadline = microtime(true) + 5;
        do {
            usleep(50_000);
            $queued = count(\DistributedLock::participants("$prefix/busy", ['hosts' => $hosts]));
            $new = array_diff_key(self::connections(), $before);
        } while (($queued < 2 || count($new) !== 1) && microtime(true) < $deadline);
        $this->assertSame(2, $queued, 'the waiter is queued');
        $this->assertCount(1, $new, 'the waiter has one connection of its own');
        $conn = array_key_first($new);
        usleep(200_000); // let its watch request complete

        $c1 = self::connections();
        usleep(2_000_000);
        $c2 = self::connections();
        $r1 = $c1[$conn];
        $r2 = $c2[$conn];

        $this->assertSame(0, $r2 - $r1, "the waiter's connection sent $r1 -> $r2 packets in 2 s");
        // every connection opened since the waiter started (a second one of
        // its own would show here): at most a ping or two. Connections that
        // existed before (other tests' clients on this shared server) are not
        // counted: a lingering client of an earlier test made the whole-server
        // count of the first version fail in CI
        $sent = 0;
        foreach (array_diff_key($c2, $before) as $id => $n) {
            $sent += $n - ($c1[$id] ?? 0);
        }
        $this->assertLessThanOrEqual(2, $sent, "the connections opened since the waiter started sent $sent packets in 2 s");

        // the same measure sees Laravel's polling block(): a try every 250 ms
        $poller = $this->fork(function ($sock) use ($prefix, $hosts): void {
            $lock = new PollingLock("$prefix/busy", ['hosts' => $hosts]);
            self::childRead($sock);
            try {
                $lock->block(2);
                self::send($sock, 'got it?!');
            } catch (LockTimeoutException $e) {
                self::send($sock, 'timed out');
            }
        });
        $p3 = self::packetsReceived();
        self::send($poller, 'go');
        $this->assertSame('timed out', $this->expect($poller));
        $p4 = self::packetsReceived();
        $this->assertGreaterThanOrEqual(8, $p4 - $p3 - 1, "the polling block() sent only $p3 -> $p4 packets in 2 s");

        $t = microtime(true);
        self::send($holder, 'release');
        $this->assertSame('released', $this->expect($holder));
        $this->assertSame('got it', $this->expect($waiter));
        $this->assertLessThan(1.0, microtime(true) - $t, 'the waiter was woken by the release, not by a poll');
    }
}
