--TEST--
SQL (mysql): a DSN pointing at a read-only MariaDB (read_only=1, even for a user with SUPER / READ_ONLY ADMIN who could still write) or at a replica (replication running, read_only off) is refused at connect with a DistributedLockException that says why, and takes no lock there: GET_LOCK on a replica would not exclude the primary's clients (two holders)
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
$b = 'mysql';
$name = dlt_skey('s50-read-only', $b);

/* 1. a read-only server whose token table exists (as on a replica) */
$dsn = dlt_sql_own_start($b, 50);
$root = dlt_pdo($b, $dsn, true);
$root->exec('CREATE TABLE dlock.dlock_tokens (name VARBINARY(1024) PRIMARY KEY, token BIGINT NOT NULL)');
$root->exec("CREATE USER 'admin'@'%' IDENTIFIED BY 'admin'");
$root->exec("GRANT SUPER, READ_ONLY ADMIN ON *.* TO 'admin'@'%'");
$root->exec("GRANT ALL ON dlock.* TO 'admin'@'%'");
$root->exec('SET GLOBAL read_only = 1');
$admin = str_replace('dlock:dlock@', 'admin:admin@', $dsn);
$w = dlt_pdo($b, $admin)->exec("INSERT INTO dlock_tokens VALUES ('probe', 1)");
dlt_check($w === 1, 'read_only is on, and the SUPER / READ_ONLY ADMIN user can still write the token table');
foreach (['dlock' => $dsn, 'admin' => $admin] as $user => $d) {
    $l = new DistributedLock($name, dlt_sopts($b, [], $d));
    foreach (['tryAcquire' => fn() => $l->tryAcquire(), 'acquire' => fn() => $l->acquire(2)] as $what => $f) {
        $msg = '';
        [$class] = dlt_throws($f, $msg);
        dlt_check($class === 'DistributedLockException' && str_contains($msg, 'read-only') && str_contains($msg, 'primary'),
            "$user: $what on the read-only server: DistributedLockException saying it is read-only", [$class, $msg]);
    }
    dlt_check(!$l->isAcquired(), "$user: isAcquired() false");
}
$used = $root->query("SELECT IS_USED_LOCK(" . $root->quote(dlt_my_lock_name($name, $dsn)) . ")")->fetchColumn();
dlt_check($used === null, 'no GET_LOCK was taken on the read-only server', $used);
unset($l, $f); /* the closures hold the object too */
$root->exec('SET GLOBAL read_only = 0');
$l = new DistributedLock($name, dlt_sopts($b, [], $dsn));
dlt_check($ok = $l->tryAcquire(), 'once read_only is off, the same DSN locks');
if ($ok) {
    $l->release();
}
unset($l);

/* 2. a real replica (read_only off) of a primary where someone holds the lock */
$pport = (string) dlt_sql_own_port($b, 51);
$primary = dlt_sql_sh($b, 'start', $pport, '--primary');
$replica = dlt_sql_sh($b, 'start', (string) dlt_sql_own_port($b, 52), '--replica-of', $pport);
$p = new DistributedLock($name, dlt_sopts($b, [], $primary));
dlt_check($p->acquire(5) && $p->getFencingToken() > 0, 'a client of the primary holds the lock (the token table exists)');
$seen = dlt_until(fn() => dlt_sql_rows($b, "SELECT COUNT(*) AS n FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'dlock' AND TABLE_NAME = 'dlock_tokens'", [], $replica, true)[0]['n'] == 1, 60);
$ro = dlt_sql_rows($b, 'SELECT @@GLOBAL.read_only AS r', [], $replica, true)[0]['r'];
dlt_check($seen && $ro == 0, 'the replica has the token table and is not read-only', [$seen, $ro]);
$r = new DistributedLock($name, dlt_sopts($b, [], $replica));
$msg = '';
[$class] = dlt_throws(fn() => $r->tryAcquire(), $msg);
dlt_check($class === 'DistributedLockException' && str_contains($msg, 'replica') && str_contains($msg, 'primary'),
    'tryAcquire() through the replica: DistributedLockException saying it is a replica (not a second holder)', [$class, $msg]);
dlt_check(!$r->isAcquired() && $p->isAcquired(), 'only the primary client holds');
unset($r);
$p->release();
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_own_stop('mysql', 50);
dlt_sql_own_stop('mysql', 52);
dlt_sql_own_stop('mysql', 51);
?>
--EXPECT--
read_only is on, and the SUPER / READ_ONLY ADMIN user can still write the token table
dlock: tryAcquire on the read-only server: DistributedLockException saying it is read-only
dlock: acquire on the read-only server: DistributedLockException saying it is read-only
dlock: isAcquired() false
admin: tryAcquire on the read-only server: DistributedLockException saying it is read-only
admin: acquire on the read-only server: DistributedLockException saying it is read-only
admin: isAcquired() false
no GET_LOCK was taken on the read-only server
once read_only is off, the same DSN locks
a client of the primary holds the lock (the token table exists)
the replica has the token table and is not read-only
tryAcquire() through the replica: DistributedLockException saying it is a replica (not a second holder)
only the primary client holds
