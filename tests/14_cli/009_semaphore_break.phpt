--TEST--
dlock command, every backend: break --force of a held semaphore never says "not held": Redis and PostgreSQL end the lease holder (exit 0; on SQL a lease lives on the semaphore's slot keys, not the name's), whose checkHeld() then finds it lost; ZooKeeper refuses (exit 4) and the lease stays held; MySQL offers no semaphores
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    $name = dlt_cname('cli-sembreak', $b);
    if ($b === 'mysql') {
        try {
            new DistributedSemaphore($name, 3, $o);
        } catch (DistributedLockException $e) {
            echo "$b: no semaphores: ", str_contains($e->getMessage(), 'not offered') ? 'refused' : $e->getMessage(), "\n";
        }
        continue;
    }
    $h = dlt_cspawn('
$s = new DistributedSemaphore($argv[2], 3, $opts);
echo $s->acquire(30) ? "held " . $s->getFencingToken() : "not held", "\n";
while (($cmd = trim((string) fgets(STDIN))) !== "") {
    try { $s->checkHeld(); echo "still held\n"; }
    catch (DistributedLockException $e) { echo get_class($e), "\n"; }
}
', $o, [$name]);
    $held = str_starts_with(dlt_line($h), 'held ');
    [$rc, $out, $err] = dlt_cli(['break', '--force', $name], $dsn);
    dlt_send($h, 'check');
    echo "$b: rc=$rc ", json_encode([$held, str_contains($out, 'ended 1 hold'),
        str_contains($out . $err, 'not held')]), ' ', dlt_line($h), "\n";
    dlt_finish($h);
}
?>
--EXPECTF--
zookeeper: rc=4 [true,false,false] still held
redis: rc=0 [true,true,false] DistributedLock%sException
postgres: rc=0 [true,true,false] DistributedLock%sException
mysql: no semaphores: refused
