<?php
/*
 * Under php-fpm a Laravel DlockLock still held when the request ends is
 * released then (not when a session expires), and a later request of the same
 * worker cannot restore it: the behaviour bridges/laravel/README.md describes.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Laravel\DlockStore;
use Illuminate\Cache\ArrayStore;

final class FpmRequestEndTest extends DlockTestCase
{
    private static ?string $dir = null;

    public static function setUpBeforeClass(): void
    {
        // the php-fpm of this PHP (php-fpm8.2, 8.4, ...), or DLOCK_FPM_BIN
        $fpm = (string) getenv('DLOCK_FPM_BIN');
        if ($fpm === '') {
            $fpm = trim((string) shell_exec('command -v php-fpm' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . ' || command -v php-fpm'));
        }
        $so = (string) getenv('DLOCK_SO');
        if ($fpm === '' || trim((string) shell_exec('command -v cgi-fcgi')) === '' || !is_file($so)) {
            return; // the test then fails, saying why
        }
        self::$dir = $dir = sys_get_temp_dir() . '/dlock-bridges-fpm-' . getmypid();
        @mkdir($dir);
        // one worker, so both requests of a test meet the same process
        file_put_contents("$dir/fpm.conf", implode("\n", [
            '[global]', "pid = $dir/fpm.pid", "error_log = $dir/fpm.log", 'daemonize = yes',
            '[bridges]', "listen = $dir/fpm.sock", 'pm = static', 'pm.max_children = 1',
            'request_terminate_timeout = 20s', 'catch_workers_output = yes',
            "php_admin_value[extension] = $so", '',
        ]));
        exec(escapeshellarg($fpm) . (posix_getuid() === 0 ? ' -R' : '') . ' -y ' . escapeshellarg("$dir/fpm.conf") . ' 2>&1', $out, $rc);
        $deadline = microtime(true) + 10;
        while (!file_exists("$dir/fpm.sock") && microtime(true) < $deadline) {
            usleep(20_000);
        }
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$dir === null) {
            return;
        }
        $pid = (int) @file_get_contents(self::$dir . '/fpm.pid');
        if ($pid > 0) {
            posix_kill($pid, SIGQUIT);
            for ($i = 0; $i < 100 && posix_kill($pid, 0); $i++) {
                usleep(20_000);
            }
        }
        array_map('unlink', glob(self::$dir . '/*') ?: []);
        @rmdir(self::$dir);
        self::$dir = null;
    }

    /** The body of a GET of bridges/tests/fpm/lock.php through php-fpm. */
    private function request(array $query): string
    {
        if (self::$dir === null || !file_exists(self::$dir . '/fpm.sock')) {
            $this->fail('php-fpm did not start (needs php' . PHP_MAJOR_VERSION . '.' . PHP_MINOR_VERSION . '-fpm, libfcgi-bin and DLOCK_SO; see '
                . (self::$dir ?? sys_get_temp_dir()) . '/fpm.log)');
        }
        $env = ['SCRIPT_FILENAME' => __DIR__ . '/fpm/lock.php', 'REQUEST_METHOD' => 'GET',
                'QUERY_STRING' => http_build_query($query), 'PATH' => (string) getenv('PATH')];
        $p = proc_open(['cgi-fcgi', '-bind', '-connect', self::$dir . '/fpm.sock'], [1 => ['pipe', 'w']], $pipes, null, $env);
        $out = (string) stream_get_contents($pipes[1]);
        proc_close($p);
        $parts = preg_split("/\r?\n\r?\n/", $out, 2);
        return trim($parts[1] ?? $out);
    }

    public function testALockHeldAtRequestEndIsReleasedAndCannotBeRestored(): void
    {
        $prefix = $this->root();
        $q = ['hosts' => self::hosts(), 'prefix' => $prefix];
        $took = $this->request($q + ['do' => 'take']);
        $this->assertMatchesRegularExpression('/^took \d+$/', $took);

        // free at once: released at request end, not by a session expiry (10 s)
        $lock = (new DlockStore(new ArrayStore(), ['hosts' => self::hosts()], $prefix))->lock('request', 0, 'test');
        $t = microtime(true);
        $this->assertTrue($lock->block(5));
        $this->assertLessThan(1.0, microtime(true) - $t);
        $lock->release();

        // the same worker, a later request: restoreLock() finds nothing to restore
        $restored = $this->request($q + ['do' => 'restore']);
        $this->assertSame('not held ' . substr($took, 5), $restored);

        // and the worker can take it again
        $this->assertSame($took, $this->request($q + ['do' => 'take']));
    }
}
