--TEST--
fork(): a child's untimed acquire() of a path its parent holds waits for the parent (the parent's holds are not the child's, so the self-deadlock guard must not refuse it)
--EXTENSIONS--
dlock
pcntl
--SKIPIF--
<?php require __DIR__ . '/../inc/skipif.inc'; ?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-fork-self-wait');
$l = new DistributedLock($path, dlt_opts());
$l->acquire();
$pipe = stream_socket_pair(STREAM_PF_UNIX, STREAM_SOCK_STREAM, STREAM_IPPROTO_IP);
$pid = pcntl_fork();
if ($pid === 0) {
    fclose($pipe[0]);
    $c = new DistributedLock($path, dlt_opts());
    try {
        fwrite($pipe[1], "waiting\n");
        $c->acquire(); /* on 0.2.0: "already holds it through another object" at once */
        fwrite($pipe[1], 'child acquired: ' . var_export($c->isAcquired(), true) . "\n");
        $c->release();
    } catch (Throwable $e) {
        fwrite($pipe[1], get_class($e) . ': ' . $e->getMessage() . "\n");
    }
    exit(0);
}
fclose($pipe[1]);
echo fgets($pipe[0]);
/* the child is blocked now, or failed at once: either way it answers after
 * the release, within a bound */
$r = [$pipe[0]];
$w = $e = null;
var_dump(stream_select($r, $w, $e, 1) === 0); /* nothing yet: it waits for us */
$l->release();
stream_set_timeout($pipe[0], 30);
echo fgets($pipe[0]);
pcntl_waitpid($pid, $status);
var_dump(pcntl_wexitstatus($status), dlt_nodes($path));
?>
--EXPECT--
waiting
bool(true)
child acquired: true
int(0)
int(0)
