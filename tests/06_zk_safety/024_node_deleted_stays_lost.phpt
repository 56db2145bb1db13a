--TEST--
A held node deleted by someone else (an operator's break, any client): once a check has seen it gone the object never says held again (isAcquired() false, a nested acquire() throws DistributedLockLostException, getFencingToken() and release() refuse) while another process holds with a higher token; a waited release() reports the loss
--EXTENSIONS--
dlock
--SKIPIF--
<?php
require __DIR__ . '/../inc/skipif.inc';
if (!is_executable('/usr/bin/python3') || trim((string) shell_exec('/usr/bin/python3 -c "import kazoo" 2>&1')) !== '') die('skip needs python3-kazoo');
?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
$path = dlt_path('safety-deleted-' . getmypid());
$py = 'import sys
from kazoo.client import KazooClient
zk = KazooClient(hosts=sys.argv[1]); zk.start(timeout=10)
zk.delete(sys.argv[2]); print("deleted")
zk.stop()';
$ask = function (callable $f): string {
    try {
        return var_export($f(), true);
    } catch (DistributedLockException $e) {
        return get_class($e);
    }
};
foreach (['checkHeld first', 'release first (async_release=0)'] as $case) {
    echo "-- $case\n";
    $l = new DistributedLock($path, dlt_opts());
    var_dump($l->acquire());
    $old = $l->getFencingToken();
    $node = DistributedLock::participants($path, dlt_opts())[0]['node'];
    echo trim((string) shell_exec('/usr/bin/python3 -c ' . escapeshellarg($py) . ' ' . escapeshellarg(dlt_hosts()) . ' ' . escapeshellarg("$path/$node") . ' 2>&1')), "\n";
    /* another process takes the lock and keeps it until told */
    $c = dlt_spawn('$l = new DistributedLock($argv[1], dlt_opts()); $l->acquire(20); echo "held ", $l->getFencingToken(), "\n"; fgets(STDIN); $l->release(); echo "done\n";', [$path]);
    $line = dlt_line($c);
    $other = (int) substr($line, 5);
    echo "other holds with a higher token: ", var_export($other > $old, true), "\n";
    if ($case === 'checkHeld first') {
        echo "checkHeld: ", $ask(fn () => $l->checkHeld()), "\n";
    } else {
        ini_set('dlock.async_release', '0');
        echo "release: ", $ask(fn () => $l->release()), "\n";
        ini_set('dlock.async_release', '1');
        echo "isAcquired: ", $ask(fn () => $l->isAcquired()), "\n";
        fwrite($c['in'], "\n");
        echo dlt_line($c), "\n";
        dlt_finish($c);
        continue;
    }
    echo "isAcquired: ", $ask(fn () => $l->isAcquired()), "\n";
    echo "nested acquire: ", $ask(fn () => $l->acquire(1)), "\n";
    echo "getFencingToken: ", $ask(fn () => $l->getFencingToken()), "\n";
    echo "release: ", $ask(fn () => $l->release()), "\n";
    fwrite($c['in'], "\n");
    echo dlt_line($c), "\n";
    dlt_finish($c);
}
var_dump(dlt_nodes($path));
?>
--EXPECT--
-- checkHeld first
bool(true)
deleted
other holds with a higher token: true
checkHeld: DistributedLockLostException
isAcquired: false
nested acquire: DistributedLockLostException
getFencingToken: DistributedLockException
release: DistributedLockException
done
-- release first (async_release=0)
bool(true)
deleted
other holds with a higher token: true
release: DistributedLockLostException
isAcquired: false
done
int(0)
