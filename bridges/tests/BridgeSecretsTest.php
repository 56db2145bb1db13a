<?php
/*
 * The bridges keep the DSN's password out of what a debug page, an error
 * tracker or a log renders (review 20 F3): var_dump()/print_r()/var_export()/
 * json_encode() of their stores and locks, and the arguments of stack-trace
 * frames (#[\SensitiveParameter] on every options parameter). Nothing here
 * connects: the objects are only built.
 */
declare(strict_types=1);

namespace Dlock\Bridge\Tests;

use Dlock\Bridge\Laravel\DlockStore as LaravelStore;
use Dlock\Bridge\Symfony\DlockSemaphoreStore;
use Dlock\Bridge\Symfony\DlockStore;
use Illuminate\Cache\ArrayStore;

final class BridgeSecretsTest extends DlockTestCase
{
    private const SECRET = 'TopS3cretPW';

    /** A DSN with the secret as its password, and the secret as a query parameter and "auth". */
    private static function options(): array
    {
        return ['dsn' => 'redis://:' . self::SECRET . '@127.0.0.1:1', 'connect_timeout' => 1];
    }

    /** Every way of showing $value a PHP program or framework uses. */
    private static function renderings(mixed $value): array
    {
        ob_start();
        var_dump($value);
        $dump = (string) ob_get_clean();
        return [
            'var_dump' => $dump,
            'print_r' => print_r($value, true),
            'var_export' => var_export($value, true),
            'json_encode' => (string) json_encode($value),
            'debug_zval (array cast)' => print_r((array) $value, true),
        ];
    }

    private function assertHidden(string $what, mixed $value): void
    {
        foreach (self::renderings($value) as $how => $text) {
            $this->assertStringNotContainsString(self::SECRET, $text, "$what, $how shows the password");
        }
    }

    public function testStoresAndLocksDoNotShowThePassword(): void
    {
        $symfony = new DlockStore(self::options());
        $laravel = new LaravelStore(new ArrayStore(), self::options());
        $lock = $laravel->lock('r', 10);
        foreach (['symfony DlockStore' => $symfony, 'laravel DlockStore' => $laravel,
                  'laravel DlockLock' => $lock] as $what => $o) {
            $this->assertHidden($what, $o);
        }
        // a dump still says which server: the DSN is there, its password masked
        $this->assertStringContainsString('redis://:***@127.0.0.1:1', print_r($symfony, true));
        $this->assertStringContainsString('redis://:***@127.0.0.1:1', print_r($lock, true));
    }

    /**
     * symfony/semaphore is a Debian package but not on the Packagist mirror:
     * like every semaphore test, this runs in the distribution leg only.
     * @group semaphore
     */
    #[\PHPUnit\Framework\Attributes\Group('semaphore')]
    public function testTheSemaphoreStoreDoesNotShowThePassword(): void
    {
        $this->assertHidden('symfony DlockSemaphoreStore', new DlockSemaphoreStore(self::options()));
        $this->assertTraceHidden(fn() => new DlockSemaphoreStore(self::options() + ['no_such_option' => 1]));
    }

    public function testSerializingAStoreRefusesRatherThanWritingThePassword(): void
    {
        $this->expectException(\LogicException::class);
        serialize(new DlockStore(self::options()));
    }

    public static function badConstructions(): array
    {
        return [
            'symfony DlockStore bad option' => [fn() => new DlockStore(self::options() + ['no_such_option' => 1])],
            'symfony DlockStore bad prefix' => [fn() => new DlockStore(self::options() + ['prefix' => 'relative'])],
            'laravel DlockStore bad option' => [fn() => new LaravelStore(new ArrayStore(), self::options() + ['no_such_option' => 1])],
            'laravel DlockStore bad prefix' => [fn() => new LaravelStore(new ArrayStore(), self::options(), 'relative')],
        ];
    }

    /** @dataProvider badConstructions */
    #[\PHPUnit\Framework\Attributes\DataProvider('badConstructions')]
    public function testStackTraceArgumentsDoNotShowThePassword(\Closure $build): void
    {
        $this->assertTraceHidden($build);
    }

    private function assertTraceHidden(\Closure $build): void
    {
        $old = ini_set('zend.exception_ignore_args', '0');
        try {
            $build();
            $this->fail('no exception');
        } catch (\Throwable $e) {
            $this->assertStringNotContainsString(self::SECRET, $e->getMessage());
            $this->assertStringNotContainsString(self::SECRET, $e->getTraceAsString());
            // the frames of the bridges and of dlock (the runner's frames carry PHPUnit's objects)
            $ours = array_values(array_filter($e->getTrace(), fn(array $f) => preg_match(
                '~^(Dlock\\\\Bridge\\\\(Symfony|Laravel)\\\\|Distributed)~', $f['class'] ?? '') === 1));
            $this->assertNotEmpty($ours, 'the exception passed through a bridge constructor');
            $args = array_map(fn(array $f) => $f['args'] ?? [], $ours);
            $this->assertStringNotContainsString(self::SECRET, print_r($args, true));
            $this->assertStringNotContainsString(self::SECRET, var_export($args, true));
            // the frames do carry arguments: the checks above are not vacuous
            $this->assertStringContainsString('SensitiveParameterValue', print_r($args, true));
        } finally {
            ini_set('zend.exception_ignore_args', (string) $old);
        }
    }
}
