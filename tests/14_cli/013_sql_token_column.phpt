--TEST--
dlock command on PostgreSQL and MySQL: after break --force, show does not present the broken holder's fencing token as the new holder's (SQL issues a token at a holder's first getFencingToken() and records only the name's last one): TOKEN reads "last N"; the new holder's own token, when it asks, is higher
--EXTENSIONS--
dlock
--SKIPIF--
<?php require __DIR__ . '/../inc/contract.inc'; dlt_contract_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/cli.inc';
foreach (dlt_cli_backends() as $b => ['dsn' => $dsn, 'opts' => $o]) {
    if (!in_array($b, ['postgres', 'mysql'], true)) {
        continue;
    }
    $name = dlt_cname('cli-sqltoken', $b);
    $h = dlt_cli_holder($o, $name);
    $t1 = (int) substr(dlt_line($h), 5);
    /* the next holder takes the lock but asks for no token until told */
    $w = dlt_cspawn('
$l = new DistributedLock($argv[2], $opts);
echo $l->acquire(30) ? "held" : "not held", "\n";
fgets(STDIN);
echo "token ", $l->getFencingToken(), "\n";
fgets(STDIN);
$l->release();
', $o, [$name]);
    dlt_until(fn() => count(DistributedLock::participants($name, $o)) >= ($b === 'mysql' ? 1 : 2), 20);
    [$rc] = dlt_cli(['break', '--force', $name], $dsn);
    $line = dlt_line($w);
    [, $show] = dlt_cli(['show', $name], $dsn);
    $row = preg_split('/\s+/', trim(explode("\n", $show)[2] ?? ''));
    dlt_send($w, 'token');
    $t2 = (int) substr(dlt_line($w), 6);
    echo "$b: ", json_encode([$rc, $line, $row[1] ?? null, ($row[4] ?? null) === 'last' && ($row[5] ?? null) === (string) $t1,
        !in_array((string) $t1, array_slice($row, 4, 1), true), $t2 > $t1]), "\n";
    dlt_send($w, 'release');
    dlt_finish($w);
    dlt_finish($h);
}
?>
--EXPECT--
postgres: [0,"held","holds",true,true,true]
mysql: [0,"held","holds",true,true,true]
