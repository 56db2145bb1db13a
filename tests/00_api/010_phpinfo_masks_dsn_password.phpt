--TEST--
phpinfo() shows dlock.dsn with its password masked (at startup and after ini_set()); ini_get() returns the value as set
--EXTENSIONS--
dlock
--INI--
dlock.dsn=postgres://app:S3CRETPW@127.0.0.1:5432/dlock
--FILE--
<?php
function info(): string
{
    ob_start();
    phpinfo(INFO_MODULES);
    $out = ob_get_clean();
    preg_match('/^dlock\.dsn => .*$/m', $out, $m);
    return ($m[0] ?? 'no dlock.dsn row') . ' (' . substr_count($out, 'S3CRET') . " secrets)\n";
}
echo info();
var_dump(ini_get('dlock.dsn'));
ini_set('dlock.dsn', 'redis-sentinel://user:S3CRET:with%40at@127.0.0.1:26379/mymaster');
echo info();
ini_set('dlock.dsn', 'mysql://app@127.0.0.1/dlock');
echo info();
ini_set('dlock.dsn', '');
echo info();
?>
--EXPECT--
dlock.dsn => postgres://app:***@127.0.0.1:5432/dlock => postgres://app:***@127.0.0.1:5432/dlock (0 secrets)
string(44) "postgres://app:S3CRETPW@127.0.0.1:5432/dlock"
dlock.dsn => redis-sentinel://user:***@127.0.0.1:26379/mymaster => postgres://app:***@127.0.0.1:5432/dlock (0 secrets)
dlock.dsn => mysql://app@127.0.0.1/dlock => postgres://app:***@127.0.0.1:5432/dlock (0 secrets)
dlock.dsn => no value => postgres://app:***@127.0.0.1:5432/dlock (0 secrets)
