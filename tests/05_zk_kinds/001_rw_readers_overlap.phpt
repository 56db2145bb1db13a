--TEST--
Read-write lock: two readers in two processes hold the read lock at the same time
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('kinds-rw-overlap');
$code = '
$rw = new DistributedReadWriteLock($argv[1], dlt_opts());
var_export($rw->readLock() === $rw->readLock()); echo "\n";
$ok = $rw->readLock()->acquire(10);
echo $ok ? "reading\n" : "not acquired\n";
fgets(STDIN);
$rw->readLock()->release();
echo "done\n";
';
$a = dlt_spawn($code, [$path]);
$b = dlt_spawn($code, [$path]);
echo dlt_line($a), "\n", dlt_line($b), "\n";
/* both report holding before either is told to let go: they overlap */
echo dlt_line($a), "\n", dlt_line($b), "\n";
$q = DistributedReadWriteLock::participants($path, dlt_opts());
var_dump(count($q), $q[0]['holder'] && $q[1]['holder'], $q[0]['type'], $q[1]['type']);
dlt_send($a, 'go');
dlt_send($b, 'go');
echo dlt_line($a), "\n", dlt_line($b), "\n";
dlt_finish($a);
dlt_finish($b);
?>
--EXPECT--
true
true
reading
reading
int(2)
bool(true)
string(4) "read"
string(4) "read"
done
done
