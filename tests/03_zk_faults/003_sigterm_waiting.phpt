--TEST--
SIGTERM to a process blocked in acquire(): it ends promptly; its queued node goes at once on a clean exit, otherwise at session expiry
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('faults-sigterm');
$holder = new DistributedLock($path, dlt_opts());
$holder->acquire();
$code = '
if ($argv[2] === "handler") {
    pcntl_async_signals(true);
    pcntl_signal(SIGTERM, function () { echo "exiting\n"; exit(0); });
}
$l = new DistributedLock($argv[1], dlt_opts(["session_timeout" => (int) $argv[3]]));
echo "waiting\n";
$l->acquire();
';
/* with a handler that exits: request shutdown deletes the node at once
   (the session timeout is 30 s, so expiry cannot be what removes it) */
$c = dlt_spawn($code, [$path, 'handler', 30000]);
echo dlt_line($c), "\n";
var_dump(dlt_until(fn() => dlt_nodes($path) === 2, 20));
$t = microtime(true);
dlt_signal($c, 15);
echo dlt_line($c, 5), "\n";
var_dump(dlt_finish($c, 5));
var_dump(dlt_until(fn() => dlt_nodes($path) === 1, 5), microtime(true) - $t < 5);

/* no handler: SIGTERM kills the process outright; the node goes with the session */
$c = dlt_spawn($code, [$path, 'none', 2000]);
echo dlt_line($c), "\n";
var_dump(dlt_until(fn() => dlt_nodes($path) === 2, 20));
dlt_signal($c, 15);
var_dump(dlt_finish($c, 5));
var_dump(dlt_until(fn() => dlt_nodes($path) === 1, 15));
$holder->release();
?>
--EXPECT--
waiting
bool(true)
exiting
int(0)
bool(true)
bool(true)
waiting
bool(true)
int(-1)
bool(true)
