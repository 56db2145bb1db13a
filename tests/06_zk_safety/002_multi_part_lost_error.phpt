--TEST--
Multi-lock whose session expires while it waits for a later part: never returns true with an earlier part lost
--EXTENSIONS--
dlock
pcntl
posix
--CONFLICTS--
servers
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$p1 = dlt_path('safety-multi/a');
$p2 = dlt_path('safety-multi/b');
$holder = new DistributedLock($p2, dlt_opts());
var_dump($holder->acquire());
$a = dlt_spawn('
$o = dlt_opts(["session_timeout" => 1500]);
$m = new DistributedMultiLock([new DistributedLock($argv[1], $o), new DistributedLock($argv[2], $o)]);
echo "waiting\n";
try {
    $ok = $m->acquire(60);
    $parts = array_map(fn($l) => var_export($l->isAcquired(), true), $m->getLocks());
    echo "acquire: ", var_export($ok, true), " parts held: ", implode(",", $parts), "\n";
    fgets(STDIN);
    $m->release();
} catch (DistributedLockException $e) {
    echo "acquire: ", get_class($e), "\n";
    fgets(STDIN);
}
', [$p1, $p2]);
echo dlt_line($a), "\n";
/* A holds p1 and waits for p2 */
var_dump(dlt_until(fn() => count(DistributedLock::participants($p1, dlt_opts())) === 1
    && count(DistributedLock::participants($p2, dlt_opts())) === 2, 20));
posix_kill($a['pid'], SIGSTOP);
/* its session expires: the server removes its nodes */
var_dump(dlt_until(fn() => count(DistributedLock::participants($p1, dlt_opts())) === 0, 20));
posix_kill($a['pid'], SIGCONT);
/* A re-queues p2 on a new session; let it have p2 */
var_dump(dlt_until(fn() => count(DistributedLock::participants($p2, dlt_opts())) === 2, 20));
$holder->release();
echo dlt_line($a, 30), "\n";
/* A holds nothing now: p1 and p2 are free for others */
$probe = new DistributedMultiLock([new DistributedLock($p1, dlt_opts()), new DistributedLock($p2, dlt_opts())]);
var_dump($probe->acquire(10));
$probe->release();
dlt_send($a, 'go');
var_dump(dlt_finish($a));
?>
--EXPECT--
bool(true)
waiting
bool(true)
bool(true)
bool(true)
acquire: DistributedLockLostException
bool(true)
int(0)
