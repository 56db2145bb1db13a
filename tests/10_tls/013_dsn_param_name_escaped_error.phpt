--TEST--
A DSN parameter name written with a %-escape or other odd characters is a ValueError that says what a parameter name may be, instead of naming parameter "" (review 20 F8); the odd name itself is not echoed
--EXTENSIONS--
dlock
--FILE--
<?php
foreach (['postgres://u:p@h/db?sslmode=require&%73slmode=disable', 'mysql://u:p@h/db?ssl%2Dmode=DISABLED',
          'postgres://u:p@h/db?ssl mode=disable'] as $dsn) {
    try {
        new DistributedLock('/x', ['dsn' => $dsn]);
        echo "accepted\n";
    } catch (ValueError $e) {
        $m = $e->getMessage();
        echo str_contains($m, 'parameter names are letters, digits') && !str_contains($m, 'parameter ""')
            && !str_contains($m, '%73') && !str_contains($m, '%2D') ? "refused, saying what a name may be\n" : "$m\n";
    }
}
?>
--EXPECT--
refused, saying what a name may be
refused, saying what a name may be
refused, saying what a name may be
