<?php
/*
 * dlock options (a DSN with user:password@, "auth", "password", ...) kept out
 * of dumps: var_dump()/print_r() show them with the secrets masked,
 * var_export() and json_encode() see no raw value (the options live in a
 * closure's scope; only a masked copy is a property), serialize() refuses.
 */

declare(strict_types=1);

namespace Dlock\Bridge\Symfony;

/** @internal */
final class SecretOptions
{
    /** @var array<string, mixed> the options with every secret replaced by "***" */
    private array $masked;

    /** Returns the options as given. */
    private \Closure $get;

    /** @param array<string, mixed> $options dlock options */
    public function __construct(#[\SensitiveParameter] array $options)
    {
        $this->get = static fn(): array => $options;
        $this->masked = self::mask($options);
    }

    /** @return array<string, mixed> the options as given */
    public function get(): array
    {
        return ($this->get)();
    }

    /** @return array<string, mixed> */
    public function __debugInfo(): array
    {
        return ['options' => $this->masked];
    }

    /** @return never */
    public function __serialize(): array
    {
        throw new \LogicException('dlock options are not serializable: they may carry a password');
    }

    /**
     * $options with the password of a DSN's user:password@ (and of a
     * password=/auth= query parameter) and every option whose name says
     * pass, auth, secret, token or key replaced by "***".
     *
     * @param array<string, mixed> $options
     * @return array<string, mixed>
     */
    public static function mask(#[\SensitiveParameter] array $options): array
    {
        foreach ($options as $k => $v) {
            if ($k === 'dsn' && \is_string($v)) {
                $v = (string) preg_replace('~^([a-z][a-z0-9+.-]*://[^:@/?#]*:)[^@/?#]*@~i', '$1***@', $v);
                $options[$k] = (string) preg_replace('~([?&][a-z_-]*(?:pass|auth|secret)[a-z_-]*=)[^&]*~i', '$1***', $v);
            } elseif (\is_string($k) && preg_match('~pass|auth|secret|token|key~i', $k) && $v !== null && $v !== '') {
                $options[$k] = '***';
            }
        }
        return $options;
    }
}
