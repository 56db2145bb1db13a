<?php
/*
 * A symfony/lock store on dlock's DistributedReadWriteLock: save() and
 * waitAndSave() take the write part, saveRead() and waitAndSaveRead() the read
 * part of one read-write lock per resource. Blocking calls block in dlock's
 * acquire() (a ZooKeeper watch, no polling loop).
 */

declare(strict_types=1);

namespace Dlock\Bridge\Symfony;

use Symfony\Component\Lock\BlockingSharedLockStoreInterface;
use Symfony\Component\Lock\BlockingStoreInterface;
use Symfony\Component\Lock\Exception\InvalidArgumentException;
use Symfony\Component\Lock\Exception\LockAcquiringException;
use Symfony\Component\Lock\Exception\LockConflictedException;
use Symfony\Component\Lock\Exception\LockReleasingException;
use Symfony\Component\Lock\Key;

/**
 * Each (store, Key) pair gets its own \DistributedReadWriteLock, kept in the
 * key's state under the store's own id (so the key is marked unserializable)
 * and, while it holds, in a registry of the process (so the hold outlives the
 * Key, as autoRelease: false wants). The state is per store instance because
 * one Key goes through several stores under Symfony's CombinedStore (one store
 * per server): each must take its own lock on its own server. The
 * resource "r" maps to the path "<prefix>/" . rawurlencode("r") (see
 * pathOf()), prefix "/dlock/symfony" by default.
 *
 * A DlockStore lock is the *write part of a read-write lock*: it excludes
 * readers and writers of DlockStore on the same resource, but it is not the
 * same lock as `new \DistributedLock($path)` on the same path (that one uses
 * different node names and does not see the read-write lock's nodes).
 *
 * Signatures fit symfony/lock 5.4 (interfaces without return types), 6.4
 * (return types in docblocks only) and 7.x/8.x (native `: void` / `: bool`,
 * commit a250774 "[Components] Convert to native return types"): an
 * implementation may add a return type the interface does not declare.
 */
class DlockStore implements BlockingStoreInterface, BlockingSharedLockStoreInterface
{
    /**
     * The key state's name. Its value maps a store's id to that store's
     * [\DistributedReadWriteLock, 'read'|'write'|null] for the key.
     */
    private const STATE = self::class;

    /** The last id given to a store instance. */
    private static int $lastId = 0;

    /** This instance's id in the key state (unique in the process, never reused). */
    private int $id;

    private const DEFAULT_PREFIX = '/dlock/symfony';

    /**
     * Every read-write lock of this process that holds a part, by object id:
     * the hold lasts until delete() (or request end, or the loss of its
     * session), not until its Key is collected, so a Lock created with
     * autoRelease: false keeps it, as with Symfony's own stores.
     *
     * @var array<int, \DistributedReadWriteLock>
     */
    private static array $kept = [];

    /** the dlock options, kept out of dumps (SecretOptions) */
    private SecretOptions $options;

    private string $prefix;

    /**
     * @param array<string, mixed> $options what dlock's lock constructors take
     *        (hosts, session_timeout, connect_timeout, auth, data, ...), plus
     *        "prefix": the ZooKeeper path under which resources live.
     *        Invalid options are a \ValueError or \TypeError here, before any
     *        network traffic.
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        $prefix = $options['prefix'] ?? self::DEFAULT_PREFIX;
        unset($options['prefix']);
        if (!\is_string($prefix) || !str_starts_with($prefix, '/') || str_ends_with($prefix, '/') || \strlen($prefix) > 900) {
            throw new InvalidArgumentException('DlockStore: "prefix" must be an absolute path without a trailing "/", at most 900 bytes.');
        }
        $this->prefix = $prefix;
        $this->options = new SecretOptions($options);
        $this->id = ++self::$lastId;
        // dlock validates the path and every option in the constructor, without
        // connecting: a bad option fails here rather than at the first save()
        new \DistributedReadWriteLock($prefix . '/probe', $options);
    }

    /** A copy holds nothing of the original's keys: it gets an id of its own. */
    public function __clone()
    {
        $this->id = ++self::$lastId;
    }

    /**
     * The dlock path of a resource name: "<prefix>/" . rawurlencode($resource),
     * a name of only dots written "%2E" per dot, and "" or a name whose path
     * would pass dlock's 1024 bytes as "%~" . sha256($resource). Distinct
     * names stay distinct paths: rawurlencode() never produces "%2E" or "%~".
     */
    public function pathOf(string $resource): string
    {
        $name = rawurlencode($resource);
        // rawurlencode() leaves "." alone, and "." or ".." is not a valid path segment
        if ($name !== '' && trim($name, '.') === '') {
            $name = str_repeat('%2E', \strlen($name));
        }
        if ($name === '' || \strlen($this->prefix) + 1 + \strlen($name) > 1024) {
            $name = '%~' . hash('sha256', $resource);
        }
        return $this->prefix . '/' . $name;
    }

    public function save(Key $key): void
    {
        $this->lock($key, 'write', false);
    }

    public function waitAndSave(Key $key): void
    {
        $this->lock($key, 'write', true);
    }

    public function saveRead(Key $key): void
    {
        $this->lock($key, 'read', false);
    }

    public function waitAndSaveRead(Key $key): void
    {
        $this->lock($key, 'read', true);
    }

    public function delete(Key $key): void
    {
        $state = $this->state($key);
        if ($state === null) {
            return;
        }
        [$rw, $mode] = $state;
        $this->forget($key);
        unset(self::$kept[spl_object_id($rw)]);
        if ($mode === null) {
            return;
        }
        try {
            self::part($rw, $mode)->release();
        } catch (\DistributedLockLostException $e) {
            // no longer held: what delete() wants is already true
        } catch (\DistributedLockException $e) {
            // e.g. the server is unreachable: released locally, the delete is
            // retried by dlock in the background after the reconnect
            throw new LockReleasingException(sprintf('Failed to release the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        }
    }

    public function exists(Key $key): bool
    {
        $state = $this->state($key);
        if ($state === null) {
            return false;
        }
        [$rw, $mode] = $state;
        return $mode !== null && self::part($rw, $mode)->isAcquired();
    }

    /**
     * A dlock lock does not expire while its session lives, so there is
     * nothing to extend, and the Key's lifetime is never reduced
     * (Lock::getRemainingLifetime() stays null, isExpired() false); this only
     * checks that the lock is still certainly held.
     */
    public function putOffExpiration(Key $key, float $ttl): void
    {
        if (!$this->exists($key)) {
            throw new LockConflictedException(sprintf('The "%s" lock is no longer held.', $key));
        }
    }

    /**
     * The fencing token of the hold behind $key (see dlock's docs/api.md, "Fencing
     * tokens"): strictly increasing across successive holders of a resource.
     * $store names the store whose hold is meant; without it the key must
     * hold through exactly one DlockStore (a key saved through several, as
     * under CombinedStore, has one token per server: pass the store).
     *
     * @throws LockConflictedException when $key does not hold its lock, or
     *         holds through several stores and $store is null
     */
    public static function fencingToken(Key $key, ?self $store = null): int
    {
        $held = [];
        foreach ($key->hasState(self::STATE) ? $key->getState(self::STATE) : [] as $id => $state) {
            if ($state[1] !== null && ($store === null || $id === $store->id)) {
                $held[] = $state;
            }
        }
        if (\count($held) > 1) {
            throw new LockConflictedException(sprintf('The "%s" lock is held through several DlockStores: pass the store whose token is meant.', $key));
        }
        if ($held !== []) {
            [$rw, $mode] = $held[0];
            try {
                return self::part($rw, $mode)->getFencingToken();
            } catch (\DistributedLockException $e) {
                throw new LockConflictedException(sprintf('The "%s" lock is not held: %s', $key, $e->getMessage()), 0, $e);
            }
        }
        throw new LockConflictedException(sprintf('The "%s" lock is not held.', $key));
    }

    private static function part(\DistributedReadWriteLock $rw, string $mode): \DistributedLock
    {
        return $mode === 'write' ? $rw->writeLock() : $rw->readLock();
    }

    /** This store's [\DistributedReadWriteLock, mode] for $key, or null. */
    private function state(Key $key): ?array
    {
        return $key->hasState(self::STATE) ? ($key->getState(self::STATE)[$this->id] ?? null) : null;
    }

    /** Drops this store's entry from $key's state (other stores' entries stay). */
    private function forget(Key $key): void
    {
        $all = $key->hasState(self::STATE) ? $key->getState(self::STATE) : [];
        unset($all[$this->id]);
        if ($all === []) {
            $key->removeState(self::STATE);
        } else {
            $key->setState(self::STATE, $all);
        }
    }

    /** save/saveRead/waitAndSave/waitAndSaveRead: take $want ('read'|'write') for $key. */
    private function lock(Key $key, string $want, bool $blocking): void
    {
        $state = $this->state($key);
        if ($state !== null) {
            [$rw, $mode] = $state;
        } else {
            try {
                $rw = new \DistributedReadWriteLock($this->pathOf((string) $key), $this->options->get());
            } catch (\ValueError $e) {
                throw new InvalidArgumentException(sprintf('DlockStore: cannot lock "%s": %s', $key, $e->getMessage()), 0, $e);
            }
            $mode = null;
            $this->setMode($key, $rw, null);
            $key->markUnserializable();
        }

        if ($mode !== null && !self::part($rw, $mode)->isAcquired()) {
            // the hold was lost (session expired): forget it and start over
            try {
                self::part($rw, $mode)->release();
            } catch (\DistributedLockException $e) {
                // expected: release() of a lost lock throws and clears it
            }
            $mode = null;
            $this->setMode($key, $rw, null);
        }

        if ($mode === $want) {
            return; // saving again in the same mode
        }
        try {
            if ($mode === 'read') {
                $this->promote($key, $rw, $blocking);
            } elseif ($mode === 'write') {
                $this->demote($key, $rw, $blocking);
            } else {
                $this->take($key, self::part($rw, $want), $blocking);
            }
            $this->setMode($key, $rw, $want);
        } catch (\Throwable $e) {
            $this->settle($key, $rw);
            throw $e;
        }
    }

    /**
     * After a save ended by an exception (ours, or a throwing pcntl signal
     * handler run at any point after dlock took a part): releases every part
     * of $rw that dlock holds but $key's state does not record, so nothing
     * is held that exists() and delete() do not know of.
     */
    private function settle(Key $key, \DistributedReadWriteLock $rw): void
    {
        $state = $this->state($key);
        $mode = $state !== null && $state[0] === $rw ? $state[1] : null;
        foreach (['read', 'write'] as $part) {
            if ($part !== $mode && self::part($rw, $part)->isAcquired()) {
                self::releaseQuietly(self::part($rw, $part));
            }
        }
    }

    /** Records in $key which part this store holds, and keeps $rw alive while it holds one. */
    private function setMode(Key $key, \DistributedReadWriteLock $rw, ?string $mode): void
    {
        $all = $key->hasState(self::STATE) ? $key->getState(self::STATE) : [];
        $all[$this->id] = [$rw, $mode];
        $key->setState(self::STATE, $all);
        if ($mode === null) {
            unset(self::$kept[spl_object_id($rw)]);
        } else {
            self::$kept[spl_object_id($rw)] = $rw;
        }
    }

    /** Takes a part that $key does not hold yet. */
    private function take(Key $key, \DistributedLock $part, bool $blocking): void
    {
        try {
            $ok = $blocking ? $part->acquire() : $part->tryAcquire();
        } catch (\DistributedLockConnectionException | \DistributedLockLostException $e) {
            throw new LockAcquiringException(sprintf('Failed to acquire the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        } catch (\DistributedLockException $e) {
            // dlock refused to wait: this process already holds the lock through
            // another key (it would wait for itself), or dlock.max_wait ran out
            throw new LockConflictedException(sprintf('The "%s" lock cannot be taken: %s', $key, $e->getMessage()), 0, $e);
        }
        if (!$ok) {
            throw new LockConflictedException(sprintf('The "%s" lock is held by someone else.', $key));
        }
    }

    /**
     * Read to write. dlock has no atomic upgrade (a write node queued behind
     * our own read would wait for itself, which dlock refuses): the read lock
     * is released and the write lock taken, as flock() converts a lock (and so
     * Symfony's FlockStore). Non-blocking, a promotion while anyone else reads
     * or waits is refused up front and the read lock kept (a waiting writer
     * would be granted before us, and our read could not be taken back behind
     * it); if a newcomer slips in between the release and the take, the read
     * lock is taken back when it can be.
     */
    private function promote(Key $key, \DistributedReadWriteLock $rw, bool $blocking): void
    {
        if (!$blocking) {
            try {
                $others = \count(\DistributedReadWriteLock::participants($rw->getPath(), $this->options->get())) - 1;
            } catch (\DistributedLockException $e) {
                throw new LockAcquiringException(sprintf('Failed to promote the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
            }
            if ($others > 0) {
                throw new LockConflictedException(sprintf('The "%s" lock is read or awaited by others: it cannot be promoted now.', $key));
            }
        }
        self::releaseQuietly($rw->readLock());
        $this->setMode($key, $rw, null);
        try {
            $this->take($key, $rw->writeLock(), $blocking);
        } catch (LockConflictedException | LockAcquiringException $e) {
            if (!$blocking && $this->retake($rw->readLock())) {
                $this->setMode($key, $rw, 'read');
            }
            throw $e;
        }
    }

    /**
     * Write to read: take the read lock while holding the write lock, then
     * release the write lock. dlock refuses this while another writer is
     * queued behind ours (it would hold beside our read lock): that is a
     * LockConflictedException, and the key keeps its write lock.
     */
    private function demote(Key $key, \DistributedReadWriteLock $rw, bool $blocking): void
    {
        // refused up front on every backend: on PostgreSQL dlock grants a
        // blocking read beside this session's write lock at once, queued
        // writer or not
        try {
            $queued = array_filter(\DistributedReadWriteLock::participants($rw->getPath(), $this->options->get()),
                fn (array $p): bool => $p['type'] === 'write' && !$p['holder']);
        } catch (\DistributedLockException $e) {
            throw new LockAcquiringException(sprintf('Failed to demote the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        }
        if ($queued !== []) {
            throw new LockConflictedException(sprintf('The "%s" lock cannot be demoted now: a writer is queued behind it.', $key));
        }
        try {
            $ok = $blocking ? $rw->readLock()->acquire() : $rw->readLock()->tryAcquire();
        } catch (\DistributedLockConnectionException | \DistributedLockLostException $e) {
            throw new LockAcquiringException(sprintf('Failed to demote the "%s" lock: %s', $key, $e->getMessage()), 0, $e);
        } catch (\DistributedLockException $e) {
            throw new LockConflictedException(sprintf('The "%s" lock cannot be demoted now: %s', $key, $e->getMessage()), 0, $e);
        }
        if (!$ok) {
            throw new LockConflictedException(sprintf('The "%s" lock cannot be demoted now.', $key));
        }
        self::releaseQuietly($rw->writeLock());
    }

    private function retake(\DistributedLock $part): bool
    {
        try {
            return $part->tryAcquire();
        } catch (\DistributedLockException $e) {
            return false;
        }
    }

    private static function releaseQuietly(\DistributedLock $part): void
    {
        try {
            $part->release();
        } catch (\DistributedLockException $e) {
            // lost or released locally: not held either way
        }
    }
}
