--TEST--
Read-write lock: a writer excludes readers and writers in other processes
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-rw-exclude');
$rw = new DistributedReadWriteLock($path, dlt_opts());
var_dump($rw->writeLock()->acquire(), $rw->getPath());
$c = dlt_spawn('
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
for (;;) {
    $cmd = trim((string) fgets(STDIN));
    if ($cmd === "" || $cmd === "quit") break;
    $l = $cmd === "read" ? $rw->readLock() : $rw->writeLock();
    echo $cmd, ": ", $l->tryAcquire() ? "got" : "busy", "\n";
    if ($l->isAcquired()) $l->release();
}
', [$path]);
dlt_send($c, 'read');
echo dlt_line($c), "\n";
dlt_send($c, 'write');
echo dlt_line($c), "\n";
$rw->writeLock()->release();
var_dump(dlt_nodes_rw($path));
dlt_send($c, 'read');
echo dlt_line($c), "\n";
dlt_send($c, 'write');
echo dlt_line($c), "\n";
dlt_send($c, 'quit');
var_dump(dlt_finish($c));

function dlt_nodes_rw(string $path): int
{
    return count(DistributedReadWriteLock::participants($path, dlt_opts()));
}
?>
--EXPECT--
bool(true)
string(29) "/dlock-tests/kinds-rw-exclude"
read: busy
write: busy
int(0)
read: got
write: got
int(0)
