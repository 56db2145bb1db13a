<?php
/*
 * A Laravel cache store in files of one directory, shared by the test and its
 * forked children (Illuminate's FileStore needs illuminate/filesystem, which
 * the tests do not install): what a Redis or database cache store is to the
 * processes of an application.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Illuminate\Contracts\Cache\Store;

class SharedFileStore implements Store
{
    private string $dir;

    public function __construct(string $dir)
    {
        $this->dir = $dir;
        if (!is_dir($dir)) {
            mkdir($dir, 0700, true);
        }
    }

    private function file(string $key): string
    {
        return $this->dir . '/' . hash('sha256', $key);
    }

    public function get($key)
    {
        $raw = @file_get_contents($this->file((string) $key));
        if ($raw === false) {
            return null;
        }
        [$until, $value] = unserialize($raw);
        if ($until !== 0 && $until <= microtime(true)) {
            @unlink($this->file((string) $key));
            return null;
        }
        return $value;
    }

    public function many(array $keys)
    {
        $r = [];
        foreach ($keys as $k) {
            $r[$k] = $this->get($k);
        }
        return $r;
    }

    public function put($key, $value, $seconds)
    {
        $tmp = $this->file((string) $key) . '.' . getmypid();
        file_put_contents($tmp, serialize([$seconds > 0 ? microtime(true) + $seconds : 0, $value]));
        return rename($tmp, $this->file((string) $key));
    }

    /** Laravel 13's Store::touch(): a new expiry for a value still there. */
    public function touch($key, $seconds)
    {
        $value = $this->get($key);
        return $value !== null && $this->put($key, $value, $seconds);
    }

    public function putMany(array $values, $seconds)
    {
        foreach ($values as $k => $v) {
            $this->put($k, $v, $seconds);
        }
        return true;
    }

    public function increment($key, $value = 1)
    {
        $v = (int) $this->get($key) + $value;
        $this->put($key, $v, 0);
        return $v;
    }

    public function decrement($key, $value = 1)
    {
        return $this->increment($key, -$value);
    }

    public function forever($key, $value)
    {
        return $this->put($key, $value, 0);
    }

    public function forget($key)
    {
        @unlink($this->file((string) $key));
        return true;
    }

    public function flush()
    {
        array_map('unlink', glob($this->dir . '/*') ?: []);
        return true;
    }

    public function getPrefix()
    {
        return '';
    }
}
