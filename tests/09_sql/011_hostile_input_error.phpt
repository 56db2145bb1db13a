--TEST--
SQL (postgres, mysql): hostile input: empty name, NUL in the name, a 1025-byte name and bad DSNs are ValueErrors (never echoing the password); a 1024-byte name and names with quotes, backslashes, %, _ and unicode lock for real and do not collide with each other
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif(); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$bad = [
    'postgres://', 'postgres://u:s3cr3t-pw@h:99999/db', 'postgres://u:s3cr3t-pw@:5432/db',
    'postgres://u:s3cr3t-pw@127.0.0.1:5432/bad db', 'postgres://u:s3cr3t-pw@127.0.0.1:5432/db?password=s3cr3t-pw',
    'mysql://', 'mysql://h/bad db name', 'mysql://u:s3cr3t-pw@h:0/db', 'mysql://u:s3cr3t-pw@h:5432/db/x',
    'mysql://u:s3cr3t-pw@127.0.0.1:3306/' . str_repeat('d', 65),
];
foreach ($bad as $i => $dsn) {
    [$cls] = dlt_throws(fn() => new DistributedLock('dlock-tests:x', ['dsn' => $dsn]), $msg);
    dlt_check($cls === 'ValueError' && !str_contains((string) $msg, 's3cr3t'), "bad dsn $i: ValueError without the password", [$dsn, $cls, $msg]);
}
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    foreach (['empty' => '', 'NUL' => "dlock-tests:a\0b", '1025 bytes' => str_repeat('n', 1025)] as $what => $name) {
        [$cls] = dlt_throws(fn() => new DistributedLock($name, dlt_sopts($b)));
        [$pcls] = dlt_throws(fn() => DistributedLock::participants($name, dlt_sopts($b)));
        dlt_check($cls === 'ValueError' && $pcls === 'ValueError', "$what name: ValueError (constructor and participants)", [$cls, $pcls]);
    }
    $names = [
        str_repeat('n', 1024 - strlen("dlock-tests:s11:$b:")),
        "dlock-tests:s11:$b:quote'd", "dlock-tests:s11:$b:dquote\"d", "dlock-tests:s11:$b:back\\slash",
        "dlock-tests:s11:$b:back\\\\slash", "dlock-tests:s11:$b:pct%", "dlock-tests:s11:$b:pct_",
        "dlock-tests:s11:$b:ünïcödé-ロック", "dlock-tests:s11:$b:semi;--", "dlock-tests:s11:$b:" . str_repeat('x', 200),
        "dlock-tests:s11:$b:" . str_repeat('x', 201),
    ];
    $names[0] = "dlock-tests:s11:$b:" . $names[0];
    dlt_check(strlen($names[0]) === 1024, 'a 1024-byte name');
    $held = [];
    foreach ($names as $i => $n) {
        $held[$i] = new DistributedLock($n, dlt_sopts($b));
        if (!$held[$i]->tryAcquire()) {
            echo "name $i: not acquired\n";
        }
    }
    dlt_check(count(array_filter($held, fn($l) => $l->isAcquired())) === count($names), 'every name acquired in one process (no two collide)');
    /* another process finds each of them held, and a name they are all prefixes or variants of free */
    $c = dlt_sspawn('
$names = json_decode($argv[2], true);
$out = [];
foreach ($names as $n) {
    $l = new DistributedLock($n, dlt_sopts($argv[1]));
    $out[] = $l->tryAcquire() ? "free" : "held";
}
$l = new DistributedLock($names[1] . "x", dlt_sopts($argv[1]));
$out[] = $l->tryAcquire() ? "free" : "held";
echo implode(" ", $out), "\n";
', [$b, json_encode($names)]);
    dlt_check(dlt_line($c) === str_repeat('held ', count($names)) . 'free', 'another process finds each held, and a similar name free');
    dlt_finish($c);
    foreach ($held as $l) {
        $l->release();
    }
    dlt_check(dlt_sql_holders($b, $names[1]) === [], 'released');
}
?>
--EXPECT--
bad dsn 0: ValueError without the password
bad dsn 1: ValueError without the password
bad dsn 2: ValueError without the password
bad dsn 3: ValueError without the password
bad dsn 4: ValueError without the password
bad dsn 5: ValueError without the password
bad dsn 6: ValueError without the password
bad dsn 7: ValueError without the password
bad dsn 8: ValueError without the password
bad dsn 9: ValueError without the password
-- postgres
empty name: ValueError (constructor and participants)
NUL name: ValueError (constructor and participants)
1025 bytes name: ValueError (constructor and participants)
a 1024-byte name
every name acquired in one process (no two collide)
another process finds each held, and a similar name free
released
-- mysql
empty name: ValueError (constructor and participants)
NUL name: ValueError (constructor and participants)
1025 bytes name: ValueError (constructor and participants)
a 1024-byte name
every name acquired in one process (no two collide)
another process finds each held, and a similar name free
released
