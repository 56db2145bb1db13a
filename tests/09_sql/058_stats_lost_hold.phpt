--TEST--
SQL (postgres, mysql): a hold whose session the server ended (release() throws DistributedLockLostException) counts as lost in dlock_stats() (not released), held drops to 0, the hold histogram counts it; the next hold counts as held again
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
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    dlock_stats_reset();
    $name = dlt_skey('s58-stats-lost', $b);
    $l = new DistributedLock($name, dlt_sopts($b));
    dlt_check($l->acquire(5), 'held');
    dlt_check(dlock_stats()[$b]['mutex']['held'] === 1, 'held counted', dlock_stats()[$b]['mutex']['held']);
    $holders = dlt_sql_holders($b, $name);
    dlt_check(count($holders) === 1 && dlt_sql_kill_session($b, $holders[0]), 'the server ended the session');
    [$cls] = dlt_throws(fn() => $l->checkHeld());
    dlt_check($cls === 'DistributedLockLostException', 'checkHeld() throws DistributedLockLostException', $cls);
    [$cls] = dlt_throws(fn() => $l->release());
    dlt_check($cls === 'DistributedLockLostException', 'release() throws DistributedLockLostException', $cls);
    $m = dlock_stats()[$b]['mutex'];
    dlt_check($m['lost'] === 1 && $m['released'] === 0 && $m['held'] === 0, 'counted lost, not released',
        [$m['lost'], $m['released'], $m['held']]);
    dlt_check($m['hold_seconds']['count'] === 1 && $m['hold_seconds']['buckets']['+Inf'] === 1, 'the hold observed once');
    dlt_check($l->acquire(5), 'acquires again');
    $m = dlock_stats()[$b]['mutex'];
    dlt_check($m['held'] === 1 && $m['acquire']['ok'] === 2, 'held again', [$m['held'], $m['acquire']]);
    $l->release();
    $m = dlock_stats()[$b]['mutex'];
    dlt_check($m['held'] === 0 && $m['released'] === 1 && $m['lost'] === 1 && $m['hold_seconds']['count'] === 2, 'released once, lost once');
}
echo "done\n";
?>
--EXPECT--
-- postgres
held
held counted
the server ended the session
checkHeld() throws DistributedLockLostException
release() throws DistributedLockLostException
counted lost, not released
the hold observed once
acquires again
held again
released once, lost once
-- mysql
held
held counted
the server ended the session
checkHeld() throws DistributedLockLostException
release() throws DistributedLockLostException
counted lost, not released
the hold observed once
acquires again
held again
released once, lost once
done
