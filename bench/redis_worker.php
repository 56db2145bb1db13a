<?php
/*
 * redis_worker.php: one contender process of the Redis benchmark (bench/redis.php).
 * KIND is the lock under test:
 *   seed    the seed recipe: SET key token NX PX ttl; on failure usleep(300 ms) and
 *           retry; unlock with a Lua compare-and-delete (php-redis)
 *   pubsub  a pub/sub wake-all lock: SET NX PX; on failure SUBSCRIBE to the lock's
 *           channel and retry on any message or after a 1 s read timeout; unlock
 *           is one Lua script doing compare-and-delete + PUBLISH, so every
 *           subscribed waiter wakes on every release (php-redis for commands)
 *   dlock   DistributedLock on redis:// (fair queue, one LPUSH per release, watchdog)
 * The seed and pub/sub processes run `php -n -d extension=igbinary -d extension=redis`,
 * the dlock ones `php -n -d extension=dlock.so`.
 *
 * Roles (PORT is the Redis port on 127.0.0.1, LEASE_MS the lease or TTL):
 *   cycle KIND PORT NAME CYCLES COUNTER EVENTS LEASE_MS
 *       bench/worker.php's protocol: prints "ready", waits for a line on stdin,
 *       runs CYCLES acquire / counter read-modify-write / release cycles, writes
 *       "t_request t_acquired t_released" per cycle to EVENTS, prints "done".
 *   herd-holder KIND PORT NAME EVENTS
 *       acquires, prints "held", waits for a line on stdin, releases; writes
 *       "t_acquired t_released woken" to EVENTS, prints "done".
 *   herd-waiter KIND PORT NAME EVENTS
 *       prints "ready", acquires (queues behind the holder), releases at once;
 *       writes "t_acquired t_released woken" to EVENTS, prints "done".
 *       woken: subscribers the release's PUBLISH reached (pub/sub only, else 0).
 *   overlap KIND PORT NAME CYCLES COUNTER OWNER LEASE_MS HOLD_MS EVENTS
 *       as cycle, but each critical section writes this process's id to OWNER,
 *       reads COUNTER, sleeps HOLD_MS, checks that OWNER still holds its id (if
 *       not, another process was inside meanwhile: an overlap), writes the
 *       counter + 1 (an overlap loses an increment), and releases; writes
 *       "overlaps N", "lost_releases N" (release found the lock gone) to EVENTS.
 */

/* php-redis 5.3.7 cannot leave subscribe() from its callback (returning false or
 * throwing takes effect only at the next message or the read timeout), so the
 * pub/sub waiter reads its subscription from a plain socket; every other command
 * goes through php-redis. */
final class Resp
{
    /** @var resource */
    private $s;

    public function __construct(int $port)
    {
        $this->s = stream_socket_client("tcp://127.0.0.1:$port", $errno, $errstr, 5);
        if (!$this->s) {
            throw new RuntimeException("connect: $errstr");
        }
        stream_set_timeout($this->s, 10);
    }

    public function send(string ...$args): void
    {
        $out = '*' . count($args) . "\r\n";
        foreach ($args as $a) {
            $out .= '$' . strlen($a) . "\r\n$a\r\n";
        }
        fwrite($this->s, $out);
    }

    /** Waits up to $seconds for something to read. */
    public function readable(float $seconds): bool
    {
        $r = [$this->s];
        $w = $e = null;
        return stream_select($r, $w, $e, (int) $seconds, (int) (fmod($seconds, 1) * 1e6)) > 0;
    }

    public function read(): mixed
    {
        $line = fgets($this->s);
        if ($line === false) {
            throw new RuntimeException('subscriber connection lost');
        }
        $line = substr($line, 0, -2);
        switch ($line[0]) {
            case '+': return substr($line, 1);
            case '-': throw new RuntimeException(substr($line, 1));
            case ':': return (int) substr($line, 1);
            case '$':
                $n = (int) substr($line, 1);
                if ($n < 0) {
                    return null;
                }
                $data = '';
                while (strlen($data) < $n + 2) {
                    $data .= fread($this->s, $n + 2 - strlen($data));
                }
                return substr($data, 0, $n);
            case '*':
                $a = [];
                for ($i = (int) substr($line, 1); $i > 0; $i--) {
                    $a[] = $this->read();
                }
                return $a;
        }
        throw new RuntimeException("bad reply: $line");
    }
}

abstract class BenchLock
{
    public int $woken = 0; /* subscribers reached by the last release (pub/sub) */

    abstract public function acquire(): void;

    /** false when the lock was found gone (expired or taken by another). */
    abstract public function release(): bool;
}

final class SeedLock extends BenchLock
{
    private const CAD = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
    private Redis $r;
    private string $token = '';

    public function __construct(int $port, private string $key, private int $ttlMs)
    {
        $this->r = new Redis();
        $this->r->connect('127.0.0.1', $port, 5);
    }

    public function acquire(): void
    {
        $token = bin2hex(random_bytes(10));
        while (!$this->r->set($this->key, $token, ['nx', 'px' => $this->ttlMs])) {
            usleep(300000);
        }
        $this->token = $token;
    }

    public function release(): bool
    {
        return $this->r->eval(self::CAD, [$this->key, $this->token], 1) === 1;
    }
}

final class PubSubLock extends BenchLock
{
    /* compare-and-delete + PUBLISH in one round trip; returns the subscribers reached, -1 if not ours */
    private const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) "
        . "return redis.call('publish', KEYS[2], '1') end return -1";
    private Redis $r;
    private Resp $sub;
    private string $token = '';
    private string $channel;
    private bool $unsubPending = false;

    public function __construct(private int $port, private string $key, private int $ttlMs)
    {
        $this->r = new Redis();
        $this->r->connect('127.0.0.1', $port, 5);
        $this->channel = "unlocked:$key";
        $this->sub = new Resp($port);
    }

    private function tryOnce(string $token): bool
    {
        return (bool) $this->r->set($this->key, $token, ['nx', 'px' => $this->ttlMs]);
    }

    /** Reads the subscriber connection until the reply of kind $kind (skipping messages). */
    private function until(string $kind): void
    {
        do {
            $m = $this->sub->read();
        } while (!is_array($m) || $m[0] !== $kind);
    }

    public function acquire(): void
    {
        $token = bin2hex(random_bytes(10));
        if (!$this->tryOnce($token)) {
            if ($this->unsubPending) { /* the last wait's UNSUBSCRIBE: its reply, and any messages before it */
                $this->until('unsubscribe');
                $this->unsubPending = false;
            }
            $this->sub->send('SUBSCRIBE', $this->channel);
            $this->until('subscribe');
            /* subscribed before the retry: a release after it is never missed */
            while (!$this->tryOnce($token)) {
                if ($this->sub->readable(1.0)) { /* any message (or the timeout): retry */
                    $this->sub->read();
                }
            }
            $this->sub->send('UNSUBSCRIBE', $this->channel); /* its reply is read at the next wait */
            $this->unsubPending = true;
        }
        $this->token = $token;
    }

    public function release(): bool
    {
        $n = $this->r->eval(self::UNLOCK, [$this->key, $this->channel, $this->token], 2);
        $this->woken = max(0, (int) $n);
        return $n >= 0;
    }
}

final class DlockLock extends BenchLock
{
    private DistributedLock $l;

    public function __construct(int $port, string $name, int $leaseMs)
    {
        $this->l = new DistributedLock($name, ['dsn' => "redis://127.0.0.1:$port", 'lease' => $leaseMs / 1000]);
    }

    public function acquire(): void
    {
        $this->l->acquire();
    }

    public function release(): bool
    {
        try {
            $this->l->release();
            return true;
        } catch (DistributedLockLostException $e) {
            return false;
        }
    }
}

function make_lock(string $kind, int $port, string $name, int $leaseMs): BenchLock
{
    return match ($kind) {
        'seed' => new SeedLock($port, $name, $leaseMs),
        'pubsub' => new PubSubLock($port, $name, $leaseMs),
        'dlock' => new DlockLock($port, $name, $leaseMs),
    };
}

function line(string $s): void
{
    echo "$s\n";
    fflush(STDOUT);
}

$role = $argv[1] ?? '';
$kind = $argv[2] ?? '';
$port = (int) ($argv[3] ?? 0);
$name = $argv[4] ?? '';
switch ($role) {
    case 'cycle':
        [, , , , , $cycles, $counter, $events, $leaseMs] = $argv;
        $lock = make_lock($kind, $port, $name, (int) $leaseMs);
        $lock->acquire(); /* warm up: connection, scripts */
        $lock->release();
        line('ready');
        fgets(STDIN);
        $t = [];
        for ($i = 0; $i < (int) $cycles; $i++) {
            $t0 = microtime(true);
            $lock->acquire();
            $t1 = microtime(true);
            $v = (int) file_get_contents($counter);
            file_put_contents($counter, (string) ($v + 1));
            $lock->release();
            $t[] = sprintf("%.6f %.6f %.6f", $t0, $t1, microtime(true));
        }
        file_put_contents($events, implode("\n", $t) . "\n");
        line('done');
        break;
    case 'herd-holder':
    case 'herd-waiter':
        $events = $argv[5];
        $lock = make_lock($kind, $port, $name, 30000);
        if ($role === 'herd-holder') {
            $lock->acquire();
            $t1 = microtime(true);
            line('held');
            fgets(STDIN);
        } else {
            line('ready');
            $lock->acquire();
            $t1 = microtime(true);
        }
        $lock->release();
        $t2 = microtime(true);
        file_put_contents($events, sprintf("%.6f %.6f %d\n", $t1, $t2, $lock->woken));
        line('done');
        break;
    case 'overlap':
        [, , , , , $cycles, $counter, $owner, $leaseMs, $holdMs, $events] = $argv;
        $lock = make_lock($kind, $port, $name, (int) $leaseMs);
        $me = (string) getmypid();
        line('ready');
        fgets(STDIN);
        $overlaps = $lost = 0;
        for ($i = 0; $i < (int) $cycles; $i++) {
            $lock->acquire();
            file_put_contents($owner, $me);
            $v = (int) file_get_contents($counter);
            usleep((int) $holdMs * 1000);
            if (file_get_contents($owner) !== $me) {
                $overlaps++; /* someone else entered while we were inside */
            }
            file_put_contents($counter, (string) ($v + 1));
            $lost += $lock->release() ? 0 : 1;
        }
        file_put_contents($events, "overlaps $overlaps\nlost_releases $lost\n");
        line('done');
        break;
    default:
        fwrite(STDERR, "usage: see the header of " . __FILE__ . "\n");
        exit(2);
}
