--TEST--
Sessions persist across requests of one worker; dlock.persistent=0 closes them at request end
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = urlencode(dlt_path('shutdown-persistent'));
foreach (['1', '0'] as $persistent) {
    echo "dlock.persistent=$persistent\n";
    $srv = dlt_server(__DIR__ . '/www', "-d dlock.persistent=$persistent");
    echo dlt_get($srv['url'] . "/sessions.php?path=$path");
    echo dlt_get($srv['url'] . "/sessions.php?path=$path");
    dlt_signal($srv, 15);
    dlt_finish($srv);
}
?>
--EXPECT--
dlock.persistent=1
sessions at start: 0
acquired
sessions at start: 1
acquired
dlock.persistent=0
sessions at start: 0
acquired
sessions at start: 0
acquired
