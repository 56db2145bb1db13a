--TEST--
dlock.max_wait, dlock.connect_timeout, dlock.max_hold and dlock.lease: a value that is not wholly a number in range is refused (nan, inf, abc, 0x1, 1s, -0.5, empty), never read as 0 or as no cap
--EXTENSIONS--
dlock
--FILE--
<?php
foreach (['dlock.max_wait', 'dlock.connect_timeout', 'dlock.max_hold', 'dlock.lease'] as $ini) {
    $before = ini_get($ini);
    foreach (['nan', 'inf', '-inf', 'abc', '0x1', '1s', '-0.5', ''] as $bad) {
        $r = @ini_set($ini, $bad);
        if ($r !== false || ini_get($ini) !== $before) {
            echo "$ini accepted '$bad'\n";
        }
    }
}
var_dump(ini_set('dlock.max_wait', '-1') !== false, ini_set('dlock.max_wait', '0') !== false,
         ini_set('dlock.max_wait', '2.5') !== false, ini_get('dlock.max_wait'));
var_dump(@ini_set('dlock.connect_timeout', '0') !== false, ini_set('dlock.connect_timeout', '1.5') !== false);
echo "done\n";
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
string(3) "2.5"
bool(false)
bool(true)
done
