<?php
/*
 * A symfony/semaphore store on dlock's DistributedSemaphore: a key of limit L
 * and weight W holds W leases of a DistributedSemaphore with L leases.
 */

declare(strict_types=1);

namespace Dlock\Bridge\Symfony;

use Symfony\Component\Semaphore\Exception\InvalidArgumentException;
use Symfony\Component\Semaphore\Exception\SemaphoreAcquiringException;
use Symfony\Component\Semaphore\Exception\SemaphoreExpiredException;
use Symfony\Component\Semaphore\Exception\SemaphoreReleasingException;
use Symfony\Component\Semaphore\Key;
use Symfony\Component\Semaphore\PersistingStoreInterface;

/**
 * The resource "r" maps to the ZooKeeper path "<prefix>/" . rawurlencode("r"),
 * prefix "/dlock/semaphore" by default. The leases are kept in the key's state,
 * so a held key cannot be serialized (dlock's objects refuse it).
 *
 * The TTL is ignored: a lease is held until delete(), the end of the request
 * or the loss of the ZooKeeper session; putOffExpiration() only checks that
 * every lease is still certainly held. Every process must use one limit per
 * resource (see dlock's README on semaphores). A weight above 1 takes its
 * leases one after the other (all or none: on a shortfall those taken are
 * given back).
 *
 * Signatures fit symfony/semaphore 5.4 and the native return types of 7.x.
 */
class DlockSemaphoreStore implements PersistingStoreInterface
{
    private const STATE = self::class;

    /** @var array<string, mixed> */
    private array $options;

    private string $prefix;

    /**
     * @param array<string, mixed> $options what dlock's lock constructors take, plus
     *        "prefix": the ZooKeeper path under which resources live
     */
    public function __construct(array $options = [])
    {
        $prefix = $options['prefix'] ?? '/dlock/semaphore';
        unset($options['prefix']);
        if (!\is_string($prefix) || !str_starts_with($prefix, '/') || str_ends_with($prefix, '/')) {
            throw new InvalidArgumentException('DlockSemaphoreStore: "prefix" must be an absolute ZooKeeper path without a trailing "/".');
        }
        new \DistributedSemaphore($prefix . '/probe', 1, $options); // checks the options, no network
        $this->prefix = $prefix;
        $this->options = $options;
    }

    public function pathOf(string $resource): string
    {
        if ($resource === '') {
            throw new InvalidArgumentException('DlockSemaphoreStore: the resource name must not be empty.');
        }
        $name = rawurlencode($resource);
        if (trim($name, '.') === '') { // "." and ".." are not valid path segments
            $name = str_repeat('%2E', \strlen($name));
        }
        return $this->prefix . '/' . $name;
    }

    public function save(Key $key, float $ttlInSecond): void
    {
        if ($this->exists($key)) {
            return;
        }
        if ($key->hasState(self::STATE)) { // a lost hold: forget it
            self::releaseAll($key->getState(self::STATE));
            $key->removeState(self::STATE);
        }
        $taken = [];
        try {
            for ($i = 0; $i < $key->getWeight(); $i++) {
                $lease = new \DistributedSemaphore($this->pathOf((string) $key), $key->getLimit(), $this->options);
                if (!$lease->tryAcquire()) {
                    throw new SemaphoreAcquiringException($key, 'the semaphore is full');
                }
                $taken[] = $lease;
            }
        } catch (\DistributedLockException $e) {
            self::releaseAll($taken);
            throw new SemaphoreAcquiringException($key, $e->getMessage());
        } catch (SemaphoreAcquiringException $e) {
            self::releaseAll($taken);
            throw $e;
        }
        $key->setState(self::STATE, $taken);
    }

    public function delete(Key $key): void
    {
        if (!$key->hasState(self::STATE)) {
            return;
        }
        $leases = $key->getState(self::STATE);
        $key->removeState(self::STATE);
        $failure = self::releaseAll($leases);
        if ($failure !== null) {
            throw new SemaphoreReleasingException($key, $failure);
        }
    }

    public function exists(Key $key): bool
    {
        if (!$key->hasState(self::STATE)) {
            return false;
        }
        foreach ($key->getState(self::STATE) as $lease) {
            if (!$lease->isAcquired()) {
                return false;
            }
        }
        return true;
    }

    public function putOffExpiration(Key $key, float $ttlInSecond): void
    {
        if (!$this->exists($key)) {
            throw new SemaphoreExpiredException($key, 'the semaphore is no longer held');
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
