--TEST--
Secrets: a password (in the DSN or read from password_file) never shows in exception messages, stack traces (getTrace() args: #[\SensitiveParameter]), var_dump/print_r/var_export/json_encode of a lock, or phpinfo(); password_file logs in on PostgreSQL, MariaDB and Redis and replaces the DSN's password
--EXTENSIONS--
dlock
pdo
pdo_pgsql
mysqlnd
pdo_mysql
--SKIPIF--
<?php require __DIR__ . '/../inc/sql.inc'; dlt_sql_skipif();
if (getenv('DLOCK_TEST_REDIS') === false) die('skip DLOCK_TEST_REDIS is not set (scripts/test.sh sets it)'); ?>
--FILE--
<?php
require __DIR__ . '/../inc/sql.inc';
$secret = 'Zq9-' . bin2hex(random_bytes(6));
$seen = '';
$pg = dlt_sql_parse(dlt_sql_dsn('postgres'));
$my = dlt_sql_parse(dlt_sql_dsn('mysql'));
$redis = getenv('DLOCK_TEST_REDIS');
$good = tempnam(sys_get_temp_dir(), 'dlt-pw');
file_put_contents($good, "dlock\n");
$bad = tempnam(sys_get_temp_dir(), 'dlt-pw');
file_put_contents($bad, "$secret\r\n");
$server = ['postgres' => "postgres://dlock@127.0.0.1:$pg[1]/dlock", 'mysql' => "mysql://dlock@127.0.0.1:$my[1]/dlock"];

/* a wrong password in the DSN, then in a file: an authentication failure that names neither */
foreach ($server as $b => $dsn) {
    $withPw = str_replace('dlock@', "dlock:$secret@", $dsn);
    foreach (['in the DSN' => ['dsn' => $withPw], 'in password_file' => ['dsn' => $dsn, 'password_file' => $bad]] as $where => $o) {
        $l = new DistributedLock("dlock-tests:t04:$b", $o + ['connect_timeout' => 30]);
        try {
            $l->tryAcquire();
            echo "$b: a wrong password $where was accepted\n";
        } catch (DistributedLockException $e) {
            $seen .= $e->getMessage() . $e->getTraceAsString() . print_r($e->getTrace(), true);
            dlt_check(!$e instanceof DistributedLockConnectionException || str_contains($e->getMessage(), 'auth'),
                "$b: a wrong password $where: refused", [get_class($e), $e->getMessage()]);
        }
        ob_start();
        var_dump($l);
        print_r($l);
        var_export($l);
        echo json_encode($l);
        $seen .= ob_get_clean();
    }
    /* the right password from a file, the DSN's wrong one replaced */
    $l = new DistributedLock("dlock-tests:t04:$b", ['dsn' => str_replace('dlock@', "dlock:$secret@", $dsn), 'password_file' => $good, 'connect_timeout' => 30]);
    dlt_check($l->tryAcquire() && $l->getFencingToken() > 0, "$b: password_file's password logs in (and replaces the DSN's)");
    $l->release();
}
$l = new DistributedLock('dlock-tests:t04:redis', ['dsn' => "redis://$redis", 'password_file' => $bad, 'connect_timeout' => 30]);
[$cls] = dlt_throws(fn() => $l->tryAcquire(), $msg);
$seen .= $msg;
dlt_check(str_starts_with($cls, 'DistributedLock'), 'redis: AUTH with password_file is sent (this server has no password: refused)', [$cls, $msg]);

/* bad input: ValueErrors that name the problem, not the secret */
$inputs = [
    'an unknown DSN parameter holding the secret' => ['dsn' => "postgres://dlock:$secret@h/db?password=$secret"],
    'a bad sslmode' => ['dsn' => "postgres://dlock:$secret@h/db?sslmode=$secret"],
    'a bad ssl-mode' => ['dsn' => "mysql://dlock:$secret@h/db?ssl-mode=$secret"],
    'a bad port' => ['dsn' => "mysql://dlock:$secret@h:99999/db"],
    'a missing password_file' => ['dsn' => "postgres://dlock:$secret@h/db", 'password_file' => "/nonexistent/$secret-not-in-msg"],
    'password_file on ZooKeeper' => ['hosts' => '127.0.0.1:1', 'password_file' => $bad],
];
foreach ($inputs as $what => $o) {
    try {
        new DistributedLock('dlock-tests:t04', $o);
        echo "$what: accepted\n";
    } catch (ValueError $e) {
        $msg = $e->getMessage();
        if (str_contains($what, 'missing')) {
            $msg = str_replace("/nonexistent/$secret-not-in-msg", '', $msg); /* the path is shown, by design */
        }
        $seen .= $msg . $e->getTraceAsString() . print_r($e->getTrace(), true);
        echo "$what: ValueError\n";
    }
}
$t = (new ReflectionMethod('DistributedLock', '__construct'))->getParameters()[1]->getAttributes()[0]->getName();
dlt_check($t === 'SensitiveParameter', 'DistributedLock::__construct()\'s $options is #[\SensitiveParameter]', $t);

/* phpinfo() masks the password of dlock.dsn */
ini_set('dlock.dsn', "postgres://dlock:$secret@127.0.0.1:$pg[1]/dlock?sslmode=disable");
ob_start();
phpinfo(INFO_MODULES);
$info = ob_get_clean();
dlt_check(str_contains($info, 'postgres://dlock:***@127.0.0.1'), 'phpinfo() shows dlock.dsn with the password masked');
$seen .= $info;

dlt_check($seen !== '' && !str_contains($seen, $secret), 'the secret appears nowhere in all that was shown', strlen($seen));
unlink($good);
unlink($bad);
?>
--EXPECT--
postgres: a wrong password in the DSN: refused
postgres: a wrong password in password_file: refused
postgres: password_file's password logs in (and replaces the DSN's)
mysql: a wrong password in the DSN: refused
mysql: a wrong password in password_file: refused
mysql: password_file's password logs in (and replaces the DSN's)
redis: AUTH with password_file is sent (this server has no password: refused)
an unknown DSN parameter holding the secret: ValueError
a bad sslmode: ValueError
a bad ssl-mode: ValueError
a bad port: ValueError
a missing password_file: ValueError
password_file on ZooKeeper: ValueError
DistributedLock::__construct()'s $options is #[\SensitiveParameter]
phpinfo() shows dlock.dsn with the password masked
the secret appears nowhere in all that was shown
