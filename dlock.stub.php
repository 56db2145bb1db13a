<?php

/**
 * @generate-class-entries
 * @undocumentable
 * @generate-legacy-arginfo 80100
 */

/** What every dlock lock object can do. */
interface DistributedLockInterface
{
    /** null: wait until held; 0: try once; > 0: wait at most that many seconds. */
    public function acquire(?float $timeout = null): bool;

    public function tryAcquire(): bool;

    public function release(): void;

    public function isAcquired(): bool;

    public function checkHeld(): void;

    public function getFencingToken(): int;

    public function getPath(): string;

    /** Acquires, runs $callback, releases in every case; returns what $callback returned. */
    public function synchronized(callable $callback, ?float $timeout = null): mixed;
}

/**
 * A fair, reentrant, distributed exclusive lock (Curator InterProcessMutex compatible).
 * @strict-properties
 * @not-serializable
 */
final class DistributedLock implements DistributedLockInterface
{
    public function __construct(string $path, #[\SensitiveParameter] array $options = []) {}

    public function acquire(?float $timeout = null): bool {}

    public function tryAcquire(): bool {}

    public function release(): void {}

    public function isAcquired(): bool {}

    public function checkHeld(): void {}

    public function getFencingToken(): int {}

    public function getPath(): string {}

    public function synchronized(callable $callback, ?float $timeout = null): mixed {}

    /**
     * The queue at $path in order: holder first, then waiters.
     * @return array<int, array{node: string, data: string, token: int, holder: bool, session: ?string, since: ?float}>
     */
    public static function participants(string $path, #[\SensitiveParameter] array $options = []): array {}

    /**
     * For operators: the locks whose names start with $prefix, as a string on every backend.
     * @return array<int, array{name: string, kind: string, contenders: int}>
     */
    public static function listLocks(string $prefix, #[\SensitiveParameter] array $options = []): array {}

    /**
     * For operators: ends the current holds of $path whoever has them; returns how many.
     * The old holder is not told: only a resource that checks fencing tokens refuses it.
     */
    public static function forceBreak(string $path, #[\SensitiveParameter] array $options = []): int {}

    /**
     * For operators: blocks until the queue at $path changes (true) or $timeout seconds pass
     * (false), on a server event; null where the backend cannot wait for one (look again later).
     */
    public static function waitForChange(string $path, float $timeout, #[\SensitiveParameter] array $options = []): ?bool {}

    /**
     * Sets the listener run (with this object) at the next safe point of the program after a
     * revocation request reaches this object's hold; null removes it. Makes the lock revocable.
     */
    public function onRevocation(?callable $listener): void {}

    /** Whether a revocation request reached the current hold (false when not held). */
    public function isRevocationRequested(): bool {}

    /**
     * Asks every current holder of the lock at $path to give it up (it never releases anything);
     * returns how many holders were asked, 0 when the lock is free.
     */
    public static function requestRevocation(string $path, #[\SensitiveParameter] array $options = []): int {}
}

/**
 * A fair distributed read-write lock (Curator InterProcessReadWriteLock compatible).
 * @strict-properties
 * @not-serializable
 */
final class DistributedReadWriteLock
{
    public function __construct(string $path, #[\SensitiveParameter] array $options = []) {}

    public function readLock(): DistributedLock {}

    public function writeLock(): DistributedLock {}

    public function getPath(): string {}

    /** @return array<int, array{node: string, data: string, token: int, holder: bool, session: ?string, since: ?float, type: string}> */
    public static function participants(string $path, #[\SensitiveParameter] array $options = []): array {}
}

/**
 * At most $maxLeases holders at once; each object holds at most one lease.
 * @strict-properties
 * @not-serializable
 */
final class DistributedSemaphore implements DistributedLockInterface
{
    public function __construct(string $path, int $maxLeases, #[\SensitiveParameter] array $options = []) {}

    /** @implementation-alias DistributedLock::acquire */
    public function acquire(?float $timeout = null): bool {}

    /** @implementation-alias DistributedLock::tryAcquire */
    public function tryAcquire(): bool {}

    /** @implementation-alias DistributedLock::release */
    public function release(): void {}

    /** @implementation-alias DistributedLock::isAcquired */
    public function isAcquired(): bool {}

    /** @implementation-alias DistributedLock::checkHeld */
    public function checkHeld(): void {}

    /** @implementation-alias DistributedLock::getFencingToken */
    public function getFencingToken(): int {}

    /** @implementation-alias DistributedLock::getPath */
    public function getPath(): string {}

    /** @implementation-alias DistributedLock::synchronized */
    public function synchronized(callable $callback, ?float $timeout = null): mixed {}

    public function getMaxLeases(): int {}

    /** @implementation-alias DistributedLock::onRevocation */
    public function onRevocation(?callable $listener): void {}

    /** @implementation-alias DistributedLock::isRevocationRequested */
    public function isRevocationRequested(): bool {}

    /** @return array<int, array{node: string, data: string, token: int, holder: bool, session: ?string, since: ?float}> */
    public static function participants(string $path, int $maxLeases, #[\SensitiveParameter] array $options = []): array {}
}

/**
 * All of several locks or none, taken in one canonical order.
 * @strict-properties
 * @not-serializable
 */
final class DistributedMultiLock implements DistributedLockInterface
{
    /** $locks: DistributedLock or DistributedSemaphore objects (not multi-locks) */
    public function __construct(array $locks) {}

    public function acquire(?float $timeout = null): bool {}

    public function tryAcquire(): bool {}

    public function release(): void {}

    public function isAcquired(): bool {}

    public function checkHeld(): void {}

    /** The highest fencing token among the locks. */
    public function getFencingToken(): int {}

    /** The paths of the locks, in acquisition order, joined by ",". */
    public function getPath(): string {}

    public function synchronized(callable $callback, ?float $timeout = null): mixed {}

    /** The locks, in acquisition order. */
    public function getLocks(): array {}
}

/**
 * This process's lock numbers (a php-fpm worker's own, since it started or
 * since dlock_stats_reset()): per backend built and lock kind, acquire() calls
 * by result, holds released and lost, holds now, and wait-time and hold-time
 * histograms (cumulative "le" buckets in seconds, sum and count), shaped for a
 * Prometheus exporter (docs/observability.md).
 */
function dlock_stats(): array {}

/** Zeroes this process's lock numbers (holds now are kept). */
function dlock_stats_reset(): void {}

class DistributedLockException extends RuntimeException
{
}

class DistributedLockConnectionException extends DistributedLockException
{
}

class DistributedLockLostException extends DistributedLockException
{
}
