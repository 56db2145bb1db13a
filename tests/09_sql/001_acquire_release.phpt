--TEST--
SQL (postgres, mysql): acquire()/release()/isAcquired()/checkHeld() with the server's view of the hold and the token row; tryAcquire() false and acquire(0.3) false after about 0.3 s while another process holds, leaving no hold or wait on the server; the other process acquires at once after the release
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
/* release() waits for the server's reply: the test looks at the server right after it */
ini_set('dlock.async_release', '0');
foreach (dlt_sql_backends() as $b => $dsn) {
    echo "-- $b\n";
    $name = dlt_skey('s01-basics', $b);
    $l = new DistributedLock($name, dlt_sopts($b));
    dlt_check($l->getPath() === $name && !$l->isAcquired(), 'not held before acquire');
    dlt_check($l->acquire() === true && $l->isAcquired(), 'acquire() true, isAcquired() true');
    $l->checkHeld();
    $mine = dlt_sql_pid_sessions($b, getmypid());
    $holders = dlt_sql_holders($b, $name);
    dlt_check(count($holders) === 1 && in_array($holders[0], $mine, true), 'the server shows one hold, by a session of this process', [$holders, $mine]);
    $token = $l->getFencingToken();
    dlt_check($token > 0 && dlt_sql_token($b, $name) === $token, 'token > 0, the one in dlock_tokens', [$token, dlt_sql_token($b, $name)]);
    $c = dlt_sspawn('
$l = new DistributedLock($argv[1], dlt_sopts($argv[2]));
echo "try ", var_export($l->tryAcquire(), true), "\n";
$t = microtime(true);
$r = $l->acquire(0.3);
$dt = microtime(true) - $t;
echo "timed ", var_export($r, true), " ", $dt >= 0.25 && $dt < 1.5 ? "about 0.3 s" : "after $dt s", "\n";
echo "isAcquired ", var_export($l->isAcquired(), true), "\n";
fgets(STDIN);
$t = microtime(true);
$r = $l->tryAcquire();
echo "try ", var_export($r, true), " ", $l->getFencingToken(), "\n";
$l->release();
echo "released\n";
', [$name, $b]);
    echo dlt_line($c), "\n", dlt_line($c), "\n", dlt_line($c), "\n";
    /* checked while the child still runs: acquire() cleaned up before it returned */
    $left = ['held' => 0, 'waiting' => 0];
    foreach (dlt_sql_pid_sessions($b, $c['pid']) as $sid) {
        foreach (dlt_sql_session_locks($b, $sid) as $k => $n) {
            $left[$k] += $n;
        }
    }
    dlt_check($left === ['held' => 0, 'waiting' => 0], 'the waiter that gave up holds and waits for nothing on the server', $left);
    dlt_check(dlt_sql_name_locks($b, $name) === [['sid' => $holders[0], 'granted' => true, 'shared' => false]], 'the name has only our hold', dlt_sql_name_locks($b, $name));
    dlt_check(dlt_sql_token($b, $name) === $token, 'failed tries did not move the token');
    $l->release();
    dlt_check(!$l->isAcquired() && dlt_sql_holders($b, $name) === [], 'released: not held, nothing on the server');
    [$cls] = dlt_throws(fn() => $l->getFencingToken());
    dlt_check($cls === 'DistributedLockException', 'getFencingToken() after release throws DistributedLockException', $cls);
    [$cls] = dlt_throws(fn() => $l->checkHeld());
    dlt_check($cls !== 'none', 'checkHeld() after release throws', $cls);
    dlt_send($c, 'go');
    $line = dlt_line($c);
    dlt_check(preg_match('/^try true (\d+)$/', $line, $m) && (int) $m[1] > $token, 'the other process acquires at once, with a higher token', $line);
    echo dlt_line($c), "\n";
    dlt_check(dlt_finish($c) === 0, 'child exit 0');
    dlt_check(dlt_until(fn() => dlt_sql_holders($b, $name) === [], 5), 'nothing held at the end');
}
?>
--CLEAN--
<?php
require __DIR__ . '/../inc/sql.inc';
dlt_sql_clean(dlt_skey('s01-basics', 'postgres'), dlt_skey('s01-basics', 'mysql'));
?>
--EXPECT--
-- postgres
not held before acquire
acquire() true, isAcquired() true
the server shows one hold, by a session of this process
token > 0, the one in dlock_tokens
try false
timed false about 0.3 s
isAcquired false
the waiter that gave up holds and waits for nothing on the server
the name has only our hold
failed tries did not move the token
released: not held, nothing on the server
getFencingToken() after release throws DistributedLockException
checkHeld() after release throws
the other process acquires at once, with a higher token
released
child exit 0
nothing held at the end
-- mysql
not held before acquire
acquire() true, isAcquired() true
the server shows one hold, by a session of this process
token > 0, the one in dlock_tokens
try false
timed false about 0.3 s
isAcquired false
the waiter that gave up holds and waits for nothing on the server
the name has only our hold
failed tries did not move the token
released: not held, nothing on the server
getFencingToken() after release throws DistributedLockException
checkHeld() after release throws
the other process acquires at once, with a higher token
released
child exit 0
nothing held at the end
