--TEST--
dlock.slow_wait_ms and dlock.slow_hold_ms: 0 (off) or whole milliseconds up to a day; a negative, fractional, non-numeric or too large value is refused with a warning and the old value kept
--EXTENSIONS--
dlock
--FILE--
<?php
foreach (['dlock.slow_wait_ms', 'dlock.slow_hold_ms'] as $ini) {
    var_dump(ini_set($ini, '-1'), ini_get($ini));
    foreach (['abc', '1.5', '10ms', '0x10', '', '86400001'] as $bad) {
        $r = @ini_set($ini, $bad);
        if ($r !== false || ini_get($ini) !== '0') {
            echo "$ini accepted '$bad'\n";
        }
    }
    var_dump(ini_set($ini, '250') !== false, ini_get($ini), ini_set($ini, '0') !== false,
             ini_set($ini, '86400000') !== false);
}
?>
--EXPECTF--
Warning: ini_set(): dlock.slow_wait_ms must be 0 (off) or a whole number of milliseconds up to 86400000 in %s on line %d
bool(false)
string(1) "0"
bool(true)
string(3) "250"
bool(true)
bool(true)

Warning: ini_set(): dlock.slow_hold_ms must be 0 (off) or a whole number of milliseconds up to 86400000 in %s on line %d
bool(false)
string(1) "0"
bool(true)
string(3) "250"
bool(true)
bool(true)
