--TEST--
Fencing tokens strictly increase across successive holders, in this and other processes
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('basic-fencing');
$tokens = [];
$l = new DistributedLock($path, dlt_opts());
for ($i = 0; $i < 3; $i++) {
    $l->acquire();
    $tokens[] = $l->getFencingToken();
    $l->release();
    $c = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts());
$l->acquire();
echo $l->getFencingToken(), "\n";
$l->release();
', [$path]);
    $tokens[] = (int) dlt_line($c);
    dlt_finish($c);
}
$sorted = $tokens;
sort($sorted);
var_dump(count(array_unique($tokens)), $sorted === $tokens, min($tokens) > 0);
?>
--EXPECT--
int(6)
bool(true)
bool(true)
