--TEST--
INI entries and their defaults (the README's table must match) and the phpinfo() section
--EXTENSIONS--
dlock
--INI--
dlock.hosts=127.0.0.1:2181
--FILE--
<?php
foreach (ini_get_all('dlock') as $name => $e) {
    printf("%s | %s | %s\n", $name, var_export($e['global_value'], true),
        $e['access'] === INI_ALL ? 'PHP_INI_ALL' : ($e['access'] === INI_SYSTEM ? 'PHP_INI_SYSTEM' : $e['access']));
}
var_dump(ini_set('dlock.session_timeout', '5'));
var_dump(ini_set('dlock.hosts', 'not a host list'));
var_dump(ini_set('dlock.connect_timeout', '-1'));
var_dump(ini_set('dlock.max_wait', '2.5'), ini_get('dlock.max_wait'));
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
var_dump(str_contains($info, 'dlock support => enabled'));
var_dump((bool) preg_match('/Extension version => \d+\.\d+\.\d+/', $info));
var_dump((bool) preg_match('/ZooKeeper client library => ZooKeeper C client 3\.\d+\.\d+/', $info));
var_dump((bool) preg_match('/^zookeeper => \d+ \/ \d+ \/ \d+ \/ \d+ => \d+ \/ \d+ => \d+ => [\d.]+ => [\d.]+$/m', $info));
?>
--EXPECTF--
dlock.async_release | '1' | PHP_INI_ALL
dlock.connect_timeout | '5' | PHP_INI_ALL
dlock.dsn | '' | PHP_INI_ALL
dlock.hosts | '127.0.0.1:2181' | PHP_INI_ALL
dlock.idle_close | '0' | PHP_INI_ALL
dlock.lease | '30' | PHP_INI_ALL
dlock.log_file | '' | PHP_INI_SYSTEM
dlock.max_hold | '0' | PHP_INI_ALL
dlock.max_wait | '-1' | PHP_INI_ALL
dlock.persistent | '1' | PHP_INI_ALL
dlock.session_timeout | '10000' | PHP_INI_ALL
dlock.slow_hold_ms | '0' | PHP_INI_ALL
dlock.slow_wait_ms | '0' | PHP_INI_ALL

Warning: ini_set(): dlock.session_timeout must be between 100 and 3600000 ms in %s on line %d
bool(false)

Warning: ini_set(): Invalid dlock.hosts: must be "host:port[,host:port...][/chroot]"; server 1 is malformed in %s on line %d
bool(false)

Warning: ini_set(): dlock.connect_timeout must be a positive number of seconds in %s on line %d
bool(false)
string(2) "-1"
string(3) "2.5"
bool(true)
bool(true)
bool(true)
bool(true)
