<?php
/*
 * A symfony/semaphore store on dlock's DistributedSemaphore: a key of limit L
 * and weight W holds W leases of a DistributedSemaphore with L leases, until
 * delete(), its TTL or request end.
 */

declare(strict_types=1);

namespace Dlock\Bridge\Symfony;

use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\RuntimeException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Exception\SemaphoreReleasingException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * The resource "r" maps to the path "<prefix>/" . rawurlencode("r") (see
 * pathOf()), prefix "/dlock/semaphore" by default. The leases are kept in the
 * key's state, so a held key cannot be serialized (dlock's objects refuse
 * it), and in a registry of the process, so they outlive the Key (a Semaphore
 * with autoRelease: false keeps them).
 *
 * The TTL is honoured as far as the process can: Semaphore::acquire() and
 * refresh() set the Key's expiry to the TTL, and once it has passed the store
 * gives the leases back (at its next call in this process, whatever the key,
 * or at request end) and exists() is false, so isExpired() and isAcquired()
 * never disagree. putOffExpiration() moves the end on while every lease is
 * still held. A lease also ends with delete(), request end or the loss of its
 * session. Every process must use one limit per resource (see dlock's
 * docs/api.md on semaphores). A weight above 1 takes its leases one after the other (all
 * or none: on a shortfall those taken are given back). A full semaphore is a
 * SemaphoreAcquiringException (acquire() false); an unreachable server or a
 * lost session is a RuntimeException (acquire() throws), as with Symfony's
 * RedisStore.
 *
 * Signatures fit symfony/semaphore 5.4 and the native return types of 7.x.
 */
class DlockSemaphoreStore implements PersistingStoreInterface
{
    private const STATE = self::class;

    /**
     * The leases of every key of this process that holds: id => ['leases' =>
     * list<\DistributedSemaphore>, 'until' => float (microtime)].
     */
    private static array $kept = [];

    private static int $ids = 0;

    /** the dlock options, kept out of dumps (SecretOptions) */
    private SecretOptions $options;

    private string $prefix;

    /**
     * @param array<string, mixed> $options what dlock's lock constructors take, plus
     *        "prefix": the path under which resources live
     */
    public function __construct(#[\SensitiveParameter] array $options = [])
    {
        $prefix = $options['prefix'] ?? '/dlock/semaphore';
        unset($options['prefix']);
        if (!\is_string($prefix) || !str_starts_with($prefix, '/') || str_ends_with($prefix, '/') || \strlen($prefix) > 900) {
            throw new InvalidArgumentException('DlockSemaphoreStore: "prefix" must be an absolute path without a trailing "/", at most 900 bytes.');
        }
        new \DistributedSemaphore($prefix . '/probe', 1, $options); // checks the options, no network
        $this->prefix = $prefix;
        $this->options = new SecretOptions($options);
    }

    /**
     * The dlock path of a resource name: "<prefix>/" . rawurlencode($resource),
     * a name of only dots written "%2E" per dot, and "" or a name whose path
     * would pass dlock's 1024 bytes as "%~" . sha256($resource) (distinct
     * names stay distinct paths).
     */
    public function pathOf(string $resource): string
    {
        $name = rawurlencode($resource);
        if ($name !== '' && trim($name, '.') === '') { // "." and ".." are not valid path segments
            $name = str_repeat('%2E', \strlen($name));
        }
        if ($name === '' || \strlen($this->prefix) + 1 + \strlen($name) > 1024) {
            $name = '%~' . hash('sha256', $resource);
        }
        return $this->prefix . '/' . $name;
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        if ($this->exists($key)) {
            return;
        }
        $this->forget($key); // a lost or expired hold
        $taken = [];
        $id = ++self::$ids;
        try {
            for ($i = 0; $i < $key->getWeight(); $i++) {
                // in $taken before it is taken: whatever ends save() early
                // (also a throwing pcntl signal handler) gives it back below
                $taken[] = $lease = new \DistributedSemaphore($this->pathOf((string) $key), $key->getLimit(), $this->options->get());
                if (!$lease->tryAcquire()) {
                    throw new SemaphoreAcquiringException($key, 'the semaphore is full');
                }
            }
            self::$kept[$id] = ['leases' => $taken, 'until' => microtime(true) + $ttlInSecond];
            $key->setState(self::STATE, $id);
        } catch (\Throwable $e) {
            unset(self::$kept[$id]);
            if ($key->hasState(self::STATE) && $key->getState(self::STATE) === $id) {
                $key->removeState(self::STATE);
            }
            self::releaseAll($taken);
            if ($e instanceof \DistributedLockException) {
                // not "full": Semaphore::acquire() throws instead of returning false
                throw new RuntimeException(sprintf('DlockSemaphoreStore: cannot acquire the "%s" semaphore: %s', $key, $e->getMessage()), 0, $e);
            }
            throw $e;
        }
    }

    public function delete(Key $key): void
    {
        if (!$key->hasState(self::STATE)) {
            return;
        }
        $id = $key->getState(self::STATE);
        $key->removeState(self::STATE);
        $h = self::$kept[$id] ?? null;
        unset(self::$kept[$id]);
        $failure = $h === null ? null : self::releaseAll($h['leases']);
        if ($failure !== null) {
            throw new SemaphoreReleasingException($key, $failure);
        }
    }

    public function exists(Key $key): bool
    {
        self::expire();
        if (!$key->hasState(self::STATE)) {
            return false;
        }
        $h = self::$kept[$key->getState(self::STATE)] ?? null;
        if ($h === null) {
            return false;
        }
        foreach ($h['leases'] as $lease) {
            if (!$lease->isAcquired()) {
                return false;
            }
        }
        return true;
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        if (!$this->exists($key)) {
            $this->forget($key);
            throw new SemaphoreExpiredException($key, 'the semaphore is no longer held');
        }
        self::$kept[$key->getState(self::STATE)]['until'] = microtime(true) + $ttlInSecond;
    }

    /**
     * The dlock leases $key holds (empty when it holds none), e.g. for their
     * fencing tokens.
     *
     * @return list<\DistributedSemaphore>
     */
    public static function leases(Key $key): array
    {
        self::expire(); // past its TTL a lease is given back, never handed out as held
        return $key->hasState(self::STATE) ? (self::$kept[$key->getState(self::STATE)]['leases'] ?? []) : [];
    }

    /** Gives back and forgets whatever $key still has. */
    private function forget(Key $key): void
    {
        if ($key->hasState(self::STATE)) {
            $id = $key->getState(self::STATE);
            $key->removeState(self::STATE);
            if (isset(self::$kept[$id])) {
                self::releaseAll(self::$kept[$id]['leases']);
                unset(self::$kept[$id]);
            }
        }
    }

    /** Gives back the leases of every key of the process whose TTL has passed. */
    private static function expire(): void
    {
        $now = microtime(true);
        foreach (self::$kept as $id => $h) {
            if ($h['until'] <= $now) {
                unset(self::$kept[$id]);
                self::releaseAll($h['leases']);
            }
        }
    }

    /** Releases every lease; the message of a failure other than "lost", or null. */
    private static function releaseAll(array $leases): ?string
    {
        $failure = null;
        foreach ($leases as $lease) {
            try {
                $lease->release();
            } catch (\DistributedLockLostException $e) {
                // not held any more either way
            } catch (\DistributedLockException $e) {
                $failure ??= $e->getMessage();
            }
        }
        return $failure;
    }
}
