<?php

/**
 * @generate-class-entries
 * @undocumentable
 */

/**
 * A fair, reentrant, distributed exclusive lock on Apache ZooKeeper.
 * @strict-properties
 * @not-serializable
 */
final class DistributedLock
{
    public function __construct(string $path, array $options = []) {}

    /** null: wait until held; 0: try once; > 0: wait at most that many seconds. */
    public function acquire(?float $timeout = null): bool {}

    public function tryAcquire(): bool {}

    public function release(): void {}

    public function isAcquired(): bool {}

    public function getFencingToken(): int {}

    public function getPath(): string {}

    /**
     * The queue at $path in order: holder first, then waiters.
     * @return array<int, array{node: string, data: string, token: int, holder: bool}>
     */
    public static function participants(string $path, array $options = []): array {}
}

class DistributedLockException extends RuntimeException
{
}

class DistributedLockConnectionException extends DistributedLockException
{
}

class DistributedLockLostException extends DistributedLockException
{
}
