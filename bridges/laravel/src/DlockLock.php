<?php
/*
 * A Laravel cache lock on dlock's DistributedLock: get() tries once, block()
 * waits in dlock's acquire($seconds) (a watch or a blocking pop, not Laravel's
 * 250 ms polling loop). Holds live in a registry of the process, not in the
 * lock object, so a lock is held until release(), forceRelease(), its seconds
 * or the end of the request, as with Laravel's own stores.
 */

declare(strict_types=1);

namespace Dlock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;
use Illuminate\Contracts\Cache\Store;

/**
 * The lock "name" is the dlock lock at "<prefix>/" . rawurlencode("name")
 * (prefix "/dlock/laravel" by default; see pathOf() for "", dots and long
 * names). On ZooKeeper the owner string is the lock node's data; on Redis,
 * PostgreSQL and MySQL, which store no data with a hold, the store records the
 * owner in the inner cache store while the lock is held.
 *
 * A hold is kept by the process (self::$holds, keyed by name and owner), not
 * by this object: dropping the object keeps the lock, a second object with the
 * same owner (restoreLock()) shares the hold. It ends with release(),
 * forceRelease(), the end of the request (or process), the loss of its
 * session, or when its $seconds run out: on Redis the lease itself ends then
 * (the server drops the key); on ZooKeeper, PostgreSQL and MySQL the process
 * gives it back at its next call into a dlock store lock (or at request end).
 * Another process cannot release it (restoreLock() there refuses).
 */
class DlockLock extends Lock
{
    /**
     * The holds of this process: slot ("path\0options") => owner =>
     * ['lock' => \DistributedLock, 'until' => float|null (microtime),
     *  'node' => string|null (the hold's participant node where an owner record is written)].
     */
    private static array $holds = [];

    /** The process self::$holds belongs to (a forked child inherits the parent's entries). */
    private static int $pid = 0;

    /** dlock's largest max_hold and acquire() timeout, in seconds (one year). */
    private const MAX_HOLD_LIMIT = 31536000;

    private string $slot;

    /** The key of the options' hash in slots (random, per process). */
    private static ?string $slotKey = null;

    private string $path;

    /** the dlock options, kept out of dumps (SecretOptions) */
    private SecretOptions $options;

    /** Where the owner is recorded on backends that store no data, or null. */
    private ?Store $ownerStore;

    /**
     * @param string               $name       lock name
     * @param int                  $seconds    how long the lock lives at most (0: until released)
     * @param string|null          $owner      owner token, random when null
     * @param array<string, mixed> $options    dlock options (hosts or dsn, session_timeout, auth, ...)
     * @param string               $prefix     path under which lock names live
     * @param Store|null           $ownerStore cache store that records owners on Redis and SQL
     */
    public function __construct($name, $seconds, $owner = null, #[\SensitiveParameter] array $options = [], string $prefix = '/dlock/laravel',
        ?Store $ownerStore = null)
    {
        parent::__construct($name, $seconds, $owner);
        $this->owner = (string) $this->owner;
        $this->options = new SecretOptions($options);
        $this->path = self::pathOf($prefix, (string) $name);
        // the slot names the options without holding them: a keyed hash (the
        // key is random per process), not serialize($options), which would
        // keep the DSN's password in a property var_export() shows
        self::$slotKey ??= random_bytes(32);
        $this->slot = $this->path . "\0" . hash_hmac('sha256', serialize($options), self::$slotKey);
        $this->ownerStore = self::storesData($options) ? null : $ownerStore;
        self::expire();
    }

    /**
     * The dlock path of a lock name under $prefix: "<prefix>/" . rawurlencode($name),
     * a name of only dots written "%2E" per dot, and "" or a name whose path
     * would pass dlock's 1024 bytes as "%~" . sha256($name) ("%~" is never
     * produced by rawurlencode(), so distinct names stay distinct paths).
     */
    public static function pathOf(string $prefix, string $name): string
    {
        $prefix = rtrim($prefix, '/');
        $enc = rawurlencode($name);
        if ($enc !== '' && trim($enc, '.') === '') { // "." and ".." are not valid path segments
            $enc = str_repeat('%2E', \strlen($enc));
        }
        if ($enc === '' || \strlen($prefix) + 1 + \strlen($enc) > 1024) {
            $enc = '%~' . hash('sha256', $name);
        }
        return $prefix . '/' . $enc;
    }

    /** Tries once; false when anyone holds the lock, also this process under this owner. */
    public function acquire(): bool
    {
        if ($this->hold() !== null) {
            return false; // as a cache lock: taken is taken, also by its owner
        }
        $lock = $this->newLock();
        try {
            if (!$lock->tryAcquire()) {
                return false;
            }
            $this->keep($lock);
        } catch (\Throwable $e) {
            $this->abandon($lock);
            throw $e;
        }
        return true;
    }

    /**
     * Waits at most $seconds for the lock (blocking in dlock, no polling), then
     * runs $callback and releases, as Laravel's block().
     *
     * @throws LockTimeoutException when the lock was not free in time
     */
    public function block($seconds, $callback = null)
    {
        if ($this->hold() !== null) {
            throw new LockTimeoutException(); // held under this owner: it would wait for itself
        }
        $lock = $this->newLock();
        try {
            $seconds = max(0.0, (float) $seconds);
            // past dlock's longest timeout (one year), or INF: wait without
            // one (dlock.max_wait still caps it)
            $ok = $seconds > self::MAX_HOLD_LIMIT ? $lock->acquire() : $lock->acquire($seconds);
            if ($ok) {
                $this->keep($lock);
            }
        } catch (\DistributedLockConnectionException | \DistributedLockLostException $e) {
            $this->abandon($lock);
            throw $e;
        } catch (\DistributedLockException $e) {
            $this->abandon($lock);
            // dlock refused to wait: another lock object of this process holds
            // the name (it would wait for itself); Laravel's stores time out
            throw new LockTimeoutException($e->getMessage(), 0, $e);
        } catch (\Throwable $e) {
            $this->abandon($lock);
            throw $e;
        }
        if (!$ok) {
            throw new LockTimeoutException();
        }
        if (is_callable($callback)) {
            try {
                return $callback();
            } finally {
                $this->release();
            }
        }
        return true;
    }

    /** Releases this owner's hold; false when this process does not hold it under this owner (or lost it). */
    public function release(): bool
    {
        self::expire();
        $h = self::$holds[$this->slot][$this->owner] ?? null;
        if ($h === null) {
            return false;
        }
        $this->forget($this->owner);
        return self::drop($h['lock']);
    }

    /**
     * Releases the name's hold by this process, whatever its owner. A hold of
     * another process is not touched: dlock cannot end it (it ends with that
     * process, its release(), its seconds, or its session).
     */
    public function forceRelease()
    {
        self::expire();
        foreach (array_keys(self::$holds[$this->slot] ?? []) as $owner) {
            $h = self::$holds[$this->slot][$owner];
            $this->forget((string) $owner);
            self::drop($h['lock']);
        }
    }

    /**
     * The owner token of the current holder, or null when nobody holds:
     * this process's holds first, else the holder's node data (ZooKeeper) or
     * the owner recorded in the inner cache store for that hold (Redis,
     * PostgreSQL, MySQL; null when the holder recorded none there).
     */
    public function getCurrentOwner()
    {
        self::expire();
        foreach (array_keys(self::$holds[$this->slot] ?? []) as $owner) {
            if ($this->hold((string) $owner) !== null) {
                return (string) $owner;
            }
        }
        foreach (\DistributedLock::participants($this->path, $this->options->get()) as $p) {
            if ($p['holder']) {
                if ($this->ownerStore === null) {
                    return $p['data'];
                }
                // the record names the owner only if it was written for this
                // very hold (same participant node: the Redis hold, the SQL
                // session): a record left by a holder that ended without
                // release(), or a hold taken by plain dlock code, names nobody
                $record = $this->ownerStore->get($this->ownerKey());
                return \is_array($record) && ($record['node'] ?? null) === $p['node'] ? (string) $record['owner'] : null;
            }
        }
        return null;
    }

    /** True while this owner's hold in this process is certainly held. */
    public function isAcquired(): bool
    {
        return $this->hold() !== null;
    }

    /** The fencing token of this owner's hold (DistributedLockException when not held). */
    public function fencingToken(): int
    {
        $h = $this->hold();
        if ($h === null) {
            throw new \DistributedLockException(sprintf('dlock: the lock "%s" is not held by owner "%s"', $this->name, $this->owner));
        }
        return $h['lock']->getFencingToken();
    }

    /** The dlock lock behind this owner's hold, or a fresh one (not held) when there is none. */
    public function dlock(): \DistributedLock
    {
        return ($this->hold() ?? ['lock' => $this->newLock()])['lock'];
    }

    /** The dlock path of this lock. */
    public function getPath(): string
    {
        return $this->path;
    }

    /**
     * Refuses a hand-over that dlock cannot do: $owner holds the lock in
     * another process (a dlock hold belongs to the session that took it).
     *
     * @throws \LogicException when the lock is held under this owner elsewhere
     */
    public function refuseForeignHold(): void
    {
        if ($this->hold() === null && $this->getCurrentOwner() === $this->owner) {
            throw new \LogicException(sprintf('dlock: the lock "%s" is held by owner "%s" in another process; a dlock hold '
                . 'ends with the process that took it and cannot be restored or released elsewhere', $this->name, $this->owner));
        }
    }

    /**
     * This owner's live hold, or null. A hold found lost (session or lease
     * gone) or past its seconds is given back and forgotten first.
     */
    private function hold(?string $owner = null): ?array
    {
        $owner ??= $this->owner;
        self::expire();
        $h = self::$holds[$this->slot][$owner] ?? null;
        if ($h !== null && !$h['lock']->isAcquired()) {
            $this->forget($owner);
            self::drop($h['lock']); // clears the lost hold, so the name can be taken again
            return null;
        }
        return $h;
    }

    private function newLock(): \DistributedLock
    {
        $options = ['data' => $this->owner, 'reentrant' => false] + $this->options->get();
        if (!self::storesData($this->options->get())) {
            unset($options['data']); // accepted but not stored: the owner is recorded in the cache store
        }
        if ($this->seconds > 0 && self::isRedis($this->options->get())) {
            // a renewed lease of at most a third of the seconds (and at most
            // the lease the options give), so the watchdog checks the key
            // every lease/3 and a lost key is noticed long before the
            // seconds end; renewals stop at the seconds (max_hold, capped by
            // the options' own), so a hung process's lock ends in the server
            // at most one lease later. Past dlock's longest max_hold (one
            // year) there is no cap: the process gives it back at its seconds.
            $lease = max(0.1, min((float) ($this->options->get()['lease'] ?? ini_get('dlock.lease')), $this->seconds / 3));
            $maxHold = $this->seconds <= self::MAX_HOLD_LIMIT ? (float) $this->seconds : 0.0;
            $given = (float) ($this->options->get()['max_hold'] ?? ini_get('dlock.max_hold'));
            if ($given > 0 && ($maxHold === 0.0 || $given < $maxHold)) {
                $maxHold = $given;
            }
            $options = ['lease' => $lease, 'max_hold' => $maxHold] + $options;
        }
        return new \DistributedLock($this->path, $options);
    }

    private function keep(\DistributedLock $lock): void
    {
        self::$holds[$this->slot][$this->owner] = [
            'lock' => $lock,
            'until' => $this->seconds > 0 ? microtime(true) + $this->seconds : null,
            'node' => null,
        ];
        if ($this->ownerStore !== null) {
            // our hold's node (one round trip): what getCurrentOwner() matches
            foreach (\DistributedLock::participants($this->path, $this->options->get()) as $p) {
                if ($p['holder']) {
                    self::$holds[$this->slot][$this->owner]['node'] = $p['node'];
                    $record = ['owner' => $this->owner, 'node' => $p['node']];
                }
            }
            if (!isset($record)) {
                throw new \DistributedLockLostException(sprintf('dlock: the lock "%s" was lost right after it was taken', $this->name));
            }
            if ($this->seconds > 0) {
                $this->ownerStore->put($this->ownerKey(), $record, max(1, (int) ceil($this->seconds)));
            } else {
                $this->ownerStore->forever($this->ownerKey(), $record);
            }
        }
    }

    /**
     * After acquire() or block() ended by an exception (a pcntl signal
     * handler that throws, a failing owner store, ...) at any point after
     * dlock took $lock: forgets the hold if it was recorded and releases
     * $lock, so nothing stays held that the bridge does not report held.
     */
    private function abandon(\DistributedLock $lock): void
    {
        if ((self::$holds[$this->slot][$this->owner]['lock'] ?? null) === $lock) {
            try {
                $this->forget($this->owner); // also the owner record, if it was written
            } catch (\Throwable $e) {
                // the inner store failing again: the entry is gone, the lock goes below
                unset(self::$holds[$this->slot][$this->owner]);
                if ((self::$holds[$this->slot] ?? []) === []) {
                    unset(self::$holds[$this->slot]);
                }
            }
        }
        if ($lock->isAcquired()) {
            self::drop($lock);
        }
    }

    /** Drops $owner's entry and the owner record written for that hold. */
    private function forget(string $owner): void
    {
        $node = self::$holds[$this->slot][$owner]['node'] ?? null;
        unset(self::$holds[$this->slot][$owner]);
        if ((self::$holds[$this->slot] ?? []) === []) {
            unset(self::$holds[$this->slot]);
        }
        if ($this->ownerStore !== null && $node !== null
            && $this->ownerStore->get($this->ownerKey()) === ['owner' => $owner, 'node' => $node]) {
            $this->ownerStore->forget($this->ownerKey());
        }
    }

    private function ownerKey(): string
    {
        return 'dlock_lock_owner:' . $this->path;
    }

    /** Releases a hold; true when it was still certainly held. */
    private static function drop(\DistributedLock $lock): bool
    {
        $held = $lock->isAcquired();
        try {
            $lock->release();
        } catch (\DistributedLockException $e) {
            return false; // lost (now cleared) or not held
        }
        return $held;
    }

    /**
     * Gives back every hold of the process whose seconds ran out. In a
     * forked child, first forgets the parent's holds (inherited copies that
     * dlock reports not held there) without touching their owner records:
     * they are the parent's, which still holds.
     */
    private static function expire(): void
    {
        if (self::$pid !== getmypid()) {
            self::$holds = [];
            self::$pid = getmypid();
        }
        $now = microtime(true);
        foreach (self::$holds as $slot => $owners) {
            foreach ($owners as $owner => $h) {
                if ($h['until'] !== null && $h['until'] <= $now) {
                    unset(self::$holds[$slot][$owner]);
                    self::drop($h['lock']);
                }
            }
            if (!self::$holds[$slot]) {
                unset(self::$holds[$slot]);
            }
        }
    }

    /** The lower-case scheme of the DSN the options select ('' for ZooKeeper through "hosts"). */
    private static function scheme(#[\SensitiveParameter] array $options): string
    {
        $dsn = self::dsn($options);
        $end = strpos($dsn, '://');
        return $end === false ? '' : strtolower(substr($dsn, 0, $end));
    }

    /** The DSN the options select ('' for ZooKeeper through "hosts"). */
    private static function dsn(#[\SensitiveParameter] array $options): string
    {
        if (isset($options['dsn'])) {
            return (string) $options['dsn'];
        }
        return isset($options['hosts']) ? '' : (string) ini_get('dlock.dsn');
    }

    private static function isRedis(#[\SensitiveParameter] array $options): bool
    {
        // dlock reads the scheme case-insensitively (REDIS:// is Redis too); rediss:// is Redis
        // over TLS, unix:///path.sock Redis over a Unix socket
        return \in_array(self::scheme($options), ['redis', 'rediss', 'redis-sentinel', 'unix'], true);
    }

    /** Whether the backend stores a hold's data (ZooKeeper only). */
    private static function storesData(#[\SensitiveParameter] array $options): bool
    {
        return self::dsn($options) === '' || self::scheme($options) === 'zookeeper';
    }
}
