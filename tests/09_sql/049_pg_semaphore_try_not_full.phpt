--TEST--
SQL: a PostgreSQL semaphore's tryAcquire(), acquire(0) and a short acquire(0.001) say false only when every lease is taken: 5 processes hammering them and release() on a semaphore of 50 all succeed (the gate another try or waiter holds for a moment does not make a try fail), a try on a full one is false and leaves no gate held
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
$name = dlt_skey('s49-try-not-full', 'postgres');
$kids = [];
for ($i = 0; $i < 5; $i++) {
    $kids[] = dlt_sspawn('
$s = new DistributedSemaphore($argv[1], 50, dlt_sopts("postgres"));
$s->acquire(30);   /* connected before the race starts */
$s->release();
echo "ready\n";
fgets(STDIN);
$ok = $no = $max = 0;
for ($i = 0; $i < 300; $i++) {
    $got = [fn() => $s->tryAcquire(), fn() => $s->acquire(0), fn() => $s->acquire(0.001)][$i % 3]();
    if ($got) {
        $ok++;
        $s->release();
    } else {
        $no++;
    }
}
echo "$ok $no\n";
', [$name]);
}
$ready = [];
foreach ($kids as &$c) {
    $ready[] = dlt_line($c, 60);
}
unset($c);
dlt_check($ready === array_fill(0, 5, 'ready'), 'five processes connected', $ready);
foreach ($kids as &$c) {
    dlt_send($c, 'go');
}
unset($c);
$res = [];
foreach ($kids as &$c) {
    $res[] = dlt_line($c, 120);
    dlt_finish($c);
}
unset($c);
dlt_check($res === array_fill(0, 5, '300 0'), 'every try of every process got a lease (the semaphore was never more than 5 of 50 full)', $res);

/* full: a try is false, and holds nothing afterwards (no gate, no slot) */
$full = dlt_skey('s49-full', 'postgres');
$h = dlt_sspawn('
$a = new DistributedSemaphore($argv[1], 2, dlt_sopts("postgres"));
$b = new DistributedSemaphore($argv[1], 2, dlt_sopts("postgres"));
echo var_export($a->acquire(30) && $b->acquire(30), true), "\n";
fgets(STDIN);
', [$full]);
dlt_check(dlt_line($h, 60) === 'true', 'another process holds both leases of a semaphore of 2');
$t = new DistributedSemaphore($full, 2, dlt_sopts('postgres'));
dlt_check(!$t->tryAcquire() && !$t->acquire(0), 'tryAcquire() and acquire(0) on the full semaphore are false');
$gate = dlt_sql_name_locks('postgres', "$full\0gate");
dlt_check($gate === [], 'nobody holds or waits for the gate after the failed tries', $gate);
dlt_send($h, 'go');
dlt_finish($h);
dlt_check($t->tryAcquire(), 'once the holder left, a try gets a lease');
$t->release();
?>
--EXPECT--
five processes connected
every try of every process got a lease (the semaphore was never more than 5 of 50 full)
another process holds both leases of a semaphore of 2
tryAcquire() and acquire(0) on the full semaphore are false
nobody holds or waits for the gate after the failed tries
once the holder left, a try gets a lease
