--TEST--
dlock command on PostgreSQL: ls names the held locks whose name the token table knows (after a getFencingToken()), not one never asked for a token; show gives the holder's client address; break --force ends the holder's session, and with it every other lock that session held
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
$o = dlt_backends()['postgres'];
$dsn = $o['dsn'];
$root = dlt_cname('cli-pg-names', 'postgres');
/* one child holds three locks on its one session: two with tokens, one without */
$c = dlt_cspawn('
$a = new DistributedLock($argv[2] . "/a", $opts); $a->acquire(5); $a->getFencingToken();
$rw = new DistributedReadWriteLock($argv[2] . "/rw", $opts); $rw->readLock()->acquire(5); $rw->readLock()->getFencingToken();
$n = new DistributedLock($argv[2] . "/no-token", $opts); $n->acquire(5);
echo "ready\n";
fgets(STDIN);
foreach ([$a, $rw->readLock(), $n] as $l) {
    try { $l->checkHeld(); echo "held\n"; } catch (DistributedLockException $e) { echo get_class($e), "\n"; }
}
', $o, [$root]);
echo dlt_line($c), "\n";
[$rc, $out] = dlt_cli(['ls', $root], $dsn);
echo "ls rc=$rc\n", str_replace($root, 'ROOT', $out);
[$rc, $out] = dlt_cli(['--json', 'show', "$root/a"], $dsn);
$j = json_decode($out, true);
echo "show rc=$rc ", preg_match('/^127\.0\.0\.1:\d+ dlock$/', $j['participants'][0]['session']) ? 'client address' : $out, "\n";
[$rc, $out] = dlt_cli(['break', '--force', "$root/a"], $dsn);
echo "break rc=$rc ", str_contains($out, 'ended 1 hold') ? 'one session' : $out, "\n";
dlt_send($c, 'go');
echo dlt_line($c), "\n", dlt_line($c), "\n", dlt_line($c), "\n";
dlt_finish($c);
[$rc, $out] = dlt_cli(['ls', $root], $dsn);
echo "after rc=$rc '$out'\n";
?>
--EXPECT--
ready
ls rc=0
mutex        1  ROOT/a
rw           1  ROOT/rw
show rc=0 client address
break rc=0 one session
DistributedLockLostException
DistributedLockLostException
DistributedLockLostException
after rc=1 ''
