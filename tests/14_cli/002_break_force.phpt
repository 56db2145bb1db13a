--TEST--
dlock command, every backend: break refuses without --force (exit 2, the lock still held); break --force ends the hold (exit 0), the waiter gets the lock with a higher fencing token, the old holder's checkHeld() finds it lost; a free lock has nothing to break (exit 1)
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    $name = dlt_cname('cli-break', $b);
    $h = dlt_cli_holder($o, $name);
    $t1 = (int) substr(dlt_line($h), 5);
    $w = dlt_cli_holder($o, $name);
    $nq = dlt_cli_caps($b)['waiters'] ? 2 : 1;
    $queued = dlt_until(fn() => count(DistributedLock::participants($name, $o)) === $nq, 20);

    [$rc, , $err] = dlt_cli(['break', $name], $dsn);
    $q = DistributedLock::participants($name, $o);
    echo "$b: no --force rc=$rc ", json_encode([$queued, str_contains($err, 'needs --force'), $q[0]['holder'] ?? null, count($q) === $nq]), "\n";

    [$rc, $out] = dlt_cli(['break', '--force', $name], $dsn);
    $t2 = (int) substr($line = dlt_line($w), 5);
    echo "$b: --force rc=$rc ", json_encode([str_contains($out, 'ended 1 hold'), str_starts_with($line, 'held '), $t2 > $t1]), "\n";
    dlt_send($h, 'check');
    echo "$b: old holder: ", dlt_line($h), "\n";
    dlt_send($w, 'release');
    echo "$b: new holder: ", dlt_line($w), "\n";
    dlt_finish($h);
    dlt_finish($w);
    [$rc, $out] = dlt_cli(['--json', 'break', '--force', $name], $dsn);
    echo "$b: free rc=$rc ", trim(str_replace($name, 'NAME', $out)), "\n";
}
?>
--EXPECTF--
zookeeper: no --force rc=2 [true,true,true,true]
zookeeper: --force rc=0 [true,true,true]
zookeeper: old holder: DistributedLock%sException
zookeeper: new holder: free
zookeeper: free rc=1 {"server":"zookeeper://%s","name":"NAME","broken":0}
redis: no --force rc=2 [true,true,true,true]
redis: --force rc=0 [true,true,true]
redis: old holder: DistributedLock%sException
redis: new holder: free
redis: free rc=1 {"server":"redis://%s","name":"NAME","broken":0}
postgres: no --force rc=2 [true,true,true,true]
postgres: --force rc=0 [true,true,true]
postgres: old holder: DistributedLock%sException
postgres: new holder: free
postgres: free rc=1 {"server":"postgres://%s","name":"NAME","broken":0}
mysql: no --force rc=2 [true,true,true,true]
mysql: --force rc=0 [true,true,true]
mysql: old holder: DistributedLock%sException
mysql: new holder: free
mysql: free rc=1 {"server":"mysql://%s","name":"NAME","broken":0}
