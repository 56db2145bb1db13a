<?php
/*
 * A Laravel cache store whose locks are dlock locks: every cache call (tags
 * included) goes to another store given to it; lock() and restoreLock() return
 * a DlockLock.
 */

declare(strict_types=1);

namespace Dlock\Bridge\Laravel;

use Illuminate\Contracts\Cache\LockProvider;
use Illuminate\Contracts\Cache\Store;

class DlockStore implements Store, LockProvider
{
    private Store $store;

    /** the dlock options, kept out of dumps (SecretOptions) */
    private SecretOptions $options;

    private string $prefix;

    /**
     * @param Store                $store   the store that keeps the cached values
     * @param array<string, mixed> $options dlock options for the locks (hosts, session_timeout, auth, ...)
     * @param string               $prefix  ZooKeeper path under which lock names live
     */
    public function __construct(Store $store, #[\SensitiveParameter] array $options = [], string $prefix = '/dlock/laravel')
    {
        if (!str_starts_with($prefix, '/') || str_ends_with($prefix, '/')) {
            throw new \InvalidArgumentException('dlock: the lock prefix must be an absolute ZooKeeper path without a trailing "/"');
        }
        // dlock checks the path and every option without connecting: fail here, not at the first lock
        new \DistributedLock($prefix . '/probe', $options);
        if (\strlen($prefix) > 900) { // leaves room for a hashed name (pathOf())
            throw new \InvalidArgumentException('dlock: the lock prefix must be at most 900 bytes');
        }
        $this->store = $store;
        $this->options = new SecretOptions($options);
        $this->prefix = $prefix;
    }

    /** The store that keeps the cached values. */
    public function getInnerStore(): Store
    {
        return $this->store;
    }

    public function lock($name, $seconds = 0, $owner = null)
    {
        return new DlockLock($name, $seconds, $owner, $this->options->get(), $this->prefix, $this->store);
    }

    /**
     * A lock object for $name with the owner token $owner. In the process that
     * took the lock it shares that hold and can release it. When $owner holds
     * the lock in another process this is a \LogicException: a dlock hold
     * cannot be handed to another process. When nobody holds it under $owner,
     * the lock holds nothing (its release() returns false).
     *
     * @throws \LogicException when $owner holds the lock in another process
     */
    public function restoreLock($name, $owner)
    {
        $lock = $this->lock($name, 0, $owner);
        $lock->refuseForeignHold();
        return $lock;
    }

    /**
     * The inner store's tagged cache (the inner store must support tags, as
     * Redis, memcached and array stores do).
     *
     * @throws \BadMethodCallException when the inner store has no tags
     */
    public function tags($names)
    {
        if (!method_exists($this->store, 'tags')) {
            throw new \BadMethodCallException('This cache store does not support tagging.');
        }
        return $this->store->tags(is_array($names) ? $names : func_get_args());
    }

    public function get($key)
    {
        return $this->store->get($key);
    }

    public function many(array $keys)
    {
        return $this->store->many($keys);
    }

    public function put($key, $value, $seconds)
    {
        return $this->store->put($key, $value, $seconds);
    }

    /**
     * Stores $value only if $key is not there yet. Repository::add() calls
     * this when the store has it (method_exists), which keeps the inner
     * store's atomic add() (Redis, database, memcached) in use, e.g. for the
     * scheduler's onOneServer() mutex in Laravel 8.
     */
    public function add($key, $value, $seconds)
    {
        if (method_exists($this->store, 'add')) {
            return $this->store->add($key, $value, $seconds);
        }
        // what Repository::add() does for a store without add(): not atomic
        if ($this->store->get($key) !== null) {
            return false;
        }
        return $this->store->put($key, $value, $seconds);
    }

    /**
     * Sets a new expiry on $key (Laravel 13's Store contract; earlier contracts
     * do not have it). Passed to the inner store; one without touch() (before
     * Laravel 13) gets false, "not touched", rather than a get-then-put that
     * could overwrite a concurrent write.
     */
    public function touch($key, $seconds)
    {
        return method_exists($this->store, 'touch') ? $this->store->touch($key, $seconds) : false;
    }

    public function putMany(array $values, $seconds)
    {
        return $this->store->putMany($values, $seconds);
    }

    public function increment($key, $value = 1)
    {
        return $this->store->increment($key, $value);
    }

    public function decrement($key, $value = 1)
    {
        return $this->store->decrement($key, $value);
    }

    public function forever($key, $value)
    {
        return $this->store->forever($key, $value);
    }

    public function forget($key)
    {
        return $this->store->forget($key);
    }

    public function flush()
    {
        return $this->store->flush();
    }

    public function getPrefix()
    {
        return $this->store->getPrefix();
    }

    /** Anything else the inner store offers (e.g. a Redis store's connection()). */
    public function __call(string $method, array $arguments)
    {
        return $this->store->{$method}(...$arguments);
    }
}
