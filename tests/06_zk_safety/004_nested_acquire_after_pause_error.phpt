--TEST--
Nested acquire after a pause past the session timeout: reports the hold lost instead of counting it, while another process holds
--EXTENSIONS--
dlock
posix
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-nested-pause');
$a = dlt_spawn('
$l = new DistributedLock($argv[1], dlt_opts(["session_timeout" => 1500]));
$l->acquire();
echo "held\n";
fgets(STDIN);
try {
    $r = $l->acquire();
    echo "nested acquire: ", var_export($r, true), "\n";
} catch (DistributedLockException $e) {
    echo "nested acquire: refused (", get_class($e), ")\n";
}
echo "isAcquired: ", var_export($l->isAcquired(), true), "\n";
', [$path]);
echo dlt_line($a), "\n";
posix_kill($a['pid'], SIGSTOP);
$b = new DistributedLock($path, dlt_opts());
var_dump($b->acquire(20)); /* A's session expired while it was stopped */
posix_kill($a['pid'], SIGCONT);
dlt_send($a, 'go');
echo dlt_line($a), "\n", dlt_line($a), "\n";
var_dump(dlt_finish($a));
var_dump($b->isAcquired());
$b->release();
?>
--EXPECT--
held
bool(true)
nested acquire: refused (DistributedLockLostException)
isAcquired: false
int(0)
bool(true)
