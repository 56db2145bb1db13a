--TEST--
dlock command on ZooKeeper: ls names each family (mutex, rw, semaphore) and walks nested names in order; show finds a read-write lock's kind itself; break of a semaphore is refused (exit 4: which leases hold depends on maxLeases, not stored), of a read-write lock ends the readers
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
$o = dlt_opts();
$dsn = 'zookeeper://' . dlt_hosts();
$root = dlt_path('cli-kinds');
$m = new DistributedLock("$root/a/m", $o);
$rw = new DistributedReadWriteLock("$root/b", $o);
$s = new DistributedSemaphore("$root/c", 2, $o);
$deep = new DistributedLock("$root/b/deeper", $o);
var_dump($m->acquire(5), $rw->readLock()->acquire(5), $s->acquire(5), $deep->acquire(5));
[$rc, $out] = dlt_cli(['ls', $root], $dsn);
echo "ls rc=$rc\n", str_replace($root, 'ROOT', $out);
[$rc, $out] = dlt_cli(['--json', 'show', "$root/b"], $dsn);
$j = json_decode($out, true);
echo "show rw rc=$rc ", $j['kind'], ' ', $j['participants'][0]['type'], "\n";
[$rc, , $err] = dlt_cli(['show', "$root/c"], $dsn);
echo "show semaphore rc=$rc ", trim(str_replace($root, 'ROOT', $err)), "\n";
[$rc, $out] = dlt_cli(['--kind', 'semaphore:2', 'show', "$root/c"], $dsn);
echo "show semaphore:2 rc=$rc ", strtok(str_replace([$root, $dsn], ['ROOT', 'DSN'], $out), "\n"), "\n";
[$rc, , $err] = dlt_cli(['break', '--force', "$root/c"], $dsn);
echo "break semaphore rc=$rc ", trim(str_replace($root, 'ROOT', $err)), "\n";
[$rc, $out] = dlt_cli(['--json', 'break', '--force', "$root/b"], $dsn);
echo "break rw rc=$rc ", json_decode($out, true)['broken'], "\n";
try {
    $rw->readLock()->checkHeld();
} catch (DistributedLockException $e) {
    echo get_class($e), "\n";
}
var_dump($s->isAcquired(), $m->isAcquired());
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
ls rc=0
mutex        1  ROOT/a/m
rw           1  ROOT/b
mutex        1  ROOT/b/deeper
semaphore    1  ROOT/c
show rw rc=0 rw read
show semaphore rc=2 dlock: ROOT/c is a semaphore: give --kind semaphore:N (its maxLeases) (dlock --help)
show semaphore:2 rc=0 ROOT/c on DSN (semaphore, 2 leases): held, 0 waiting
break semaphore rc=4 dlock: ROOT/c: a semaphore: which leases hold depends on its maxLeases, which ZooKeeper does not store; not broken
break rw rc=0 1
DistributedLockLostException
bool(true)
bool(true)
