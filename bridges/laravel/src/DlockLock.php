<?php
/*
 * A Laravel cache lock on dlock's DistributedLock: get() tries once, block()
 * waits in dlock's acquire($seconds) (a ZooKeeper watch, not Laravel's 250 ms
 * polling loop).
 */

declare(strict_types=1);

namespace Dlock\Bridge\Laravel;

use Illuminate\Cache\Lock;
use Illuminate\Contracts\Cache\LockTimeoutException;

/**
 * The lock "name" lives at the ZooKeeper path "<prefix>/" . rawurlencode("name")
 * (prefix "/dlock/laravel" by default); the owner string is the lock node's
 * data, so DistributedLock::participants() shows who holds it.
 *
 * What differs from a cache lock: the lock has no time to live ($seconds is
 * ignored): it is held until release(), the end of the request (or process),
 * or the loss of its ZooKeeper session. Only the process that took it can
 * release it; restoreLock() with the owner finds the hold again in that same
 * process only.
 */
class DlockLock extends Lock
{
    /**
     * The DistributedLock of every live DlockLock of this process:
     * "path\0options" => owner => WeakReference. restoreLock() finds a hold
     * here by owner, forceRelease() by path.
     */
    private static array $live = [];

    private string $slot;

    private \DistributedLock $lock;

    /** @var array<string, mixed> the dlock options given (for participants()) */
    private array $options;

    /**
     * @param string               $name    lock name
     * @param int                  $seconds ignored: a dlock lock does not expire
     * @param string|null          $owner   owner token, random when null
     * @param array<string, mixed> $options dlock options (hosts, session_timeout, auth, ...)
     * @param string               $prefix  ZooKeeper path under which lock names live
     */
    public function __construct($name, $seconds, $owner = null, array $options = [], string $prefix = '/dlock/laravel')
    {
        parent::__construct($name, $seconds, $owner);
        $this->options = $options;
        $path = self::pathOf($prefix, (string) $name);
        $this->slot = $path . "\0" . serialize($options);
        $owner = (string) $this->owner;
        $found = isset(self::$live[$this->slot][$owner]) ? self::$live[$this->slot][$owner]->get() : null;
        if ($found instanceof \DistributedLock) {
            $this->lock = $found; // restoreLock() in the same process: the same hold
        } else {
            $this->lock = new \DistributedLock($path, ['data' => $owner, 'reentrant' => false] + $options);
            foreach (self::$live as $slot => $owners) {
                self::$live[$slot] = array_filter($owners, fn(\WeakReference $r): bool => $r->get() !== null);
            }
            self::$live = array_filter(self::$live);
            self::$live[$this->slot][$owner] = \WeakReference::create($this->lock);
        }
    }

    /** The ZooKeeper path of a lock name under $prefix. */
    public static function pathOf(string $prefix, string $name): string
    {
        if ($name === '') {
            throw new \InvalidArgumentException('dlock: the lock name must not be empty');
        }
        $enc = rawurlencode($name);
        if (trim($enc, '.') === '') { // "." and ".." are not valid path segments
            $enc = str_repeat('%2E', \strlen($enc));
        }
        return rtrim($prefix, '/') . '/' . $enc;
    }

    /** Tries once; false when someone else holds the lock, or this object already does. */
    public function acquire(): bool
    {
        if ($this->lock->isAcquired()) {
            return false; // as a cache lock: taken is taken, also by ourselves
        }
        return $this->lock->tryAcquire();
    }

    /**
     * Waits at most $seconds for the lock (blocking in dlock, no polling), then
     * runs $callback and releases, as Laravel's block().
     *
     * @throws LockTimeoutException when the lock was not free in time
     */
    public function block($seconds, $callback = null)
    {
        if ($this->lock->isAcquired() || !$this->lock->acquire(max(0.0, (float) $seconds))) {
            // held by this very object: waiting would only wait for itself
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

    /** Releases the hold; false when this process does not hold it (or lost it). */
    public function release(): bool
    {
        if (!$this->lock->isAcquired()) {
            try {
                $this->lock->release(); // clears a lost hold; throws when not held
            } catch (\DistributedLockException $e) {
            }
            return false;
        }
        try {
            $this->lock->release();
            return true;
        } catch (\DistributedLockLostException $e) {
            return false;
        }
    }

    /**
     * Releases regardless of the owner token: the hold of any lock object of
     * this process on this name. dlock can only release holds of its own
     * process: another process's hold is not touched (it goes when that
     * process releases it, ends, or loses its ZooKeeper session).
     */
    public function forceRelease()
    {
        foreach (self::$live[$this->slot] ?? [] as $ref) {
            $lock = $ref->get();
            if ($lock instanceof \DistributedLock && $lock->isAcquired()) {
                try {
                    $lock->release();
                } catch (\DistributedLockLostException $e) {
                }
            }
        }
    }

    /** The owner token of the current holder (from its lock node), or null when nobody holds. */
    public function getCurrentOwner()
    {
        foreach (\DistributedLock::participants($this->lock->getPath(), $this->options) as $p) {
            if ($p['holder']) {
                return $p['data'];
            }
        }
        return null;
    }

    /** True while this object certainly holds the lock. */
    public function isAcquired(): bool
    {
        return $this->lock->isAcquired();
    }

    /** The fencing token of the current hold (DistributedLockException when not held). */
    public function fencingToken(): int
    {
        return $this->lock->getFencingToken();
    }

    /** The dlock lock behind this lock. */
    public function dlock(): \DistributedLock
    {
        return $this->lock;
    }
}
