--TEST--
Revocation (PostgreSQL, MySQL/MariaDB): refused with a DistributedLockException that says why ('revocable', onRevocation(), requestRevocation()), before any hold; the lock still works without it
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
    $name = dlt_skey('revoke-refused', $b);
    foreach ([
        fn() => new DistributedLock($name, dlt_sopts($b, ['revocable' => true])),
        fn() => (new DistributedLock($name, dlt_sopts($b)))->onRevocation(fn() => null),
        fn() => DistributedLock::requestRevocation($name, dlt_sopts($b)),
    ] as $f) {
        try {
            $f();
            echo "no error\n";
        } catch (DistributedLockException $e) {
            echo get_class($e), ': ', $e->getMessage(), "\n";
        }
    }
    /* 'revocable' => false is no request at all */
    $l = new DistributedLock($name, dlt_sopts($b, ['revocable' => false]));
    var_dump($l->acquire(5), $l->isRevocationRequested());
    $l->release();
}
?>
--EXPECT--
-- postgres
DistributedLockException: dlock-tests:revoke-refused:postgres: revocation is not offered on PostgreSQL yet: LISTEN/NOTIFY could push it, but that needs a listening connection per server read by a thread of its own, which this version does not have (and dlock does not poll)
DistributedLockException: dlock-tests:revoke-refused:postgres: revocation is not offered on PostgreSQL yet: LISTEN/NOTIFY could push it, but that needs a listening connection per server read by a thread of its own, which this version does not have (and dlock does not poll)
DistributedLockException: dlock-tests:revoke-refused:postgres: revocation is not offered on PostgreSQL yet: LISTEN/NOTIFY could push it, but that needs a listening connection per server read by a thread of its own, which this version does not have (and dlock does not poll)
bool(true)
bool(false)
-- mysql
DistributedLockException: dlock-tests:revoke-refused:mysql: revocation is not offered on MySQL/MariaDB: the server has no push (no LISTEN/NOTIFY, no publish/subscribe), so a holder could learn of a request only by polling, which dlock does not do
DistributedLockException: dlock-tests:revoke-refused:mysql: revocation is not offered on MySQL/MariaDB: the server has no push (no LISTEN/NOTIFY, no publish/subscribe), so a holder could learn of a request only by polling, which dlock does not do
DistributedLockException: dlock-tests:revoke-refused:mysql: revocation is not offered on MySQL/MariaDB: the server has no push (no LISTEN/NOTIFY, no publish/subscribe), so a holder could learn of a request only by polling, which dlock does not do
bool(true)
bool(false)
