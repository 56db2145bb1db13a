--TEST--
auth: nodes only the same credentials can delete; a client without them can neither queue, steal nor delete; credentials never shown
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
$path = dlt_path('faults-auth-' . getmypid());
$secret = 's3cr3t-PW';
$l = new DistributedLock($path, dlt_opts(['auth' => "alice:$secret"]));
var_dump($l->acquire());
$node = DistributedLock::participants($path, dlt_opts())[0]['node'];   /* world may read */
$code = '
$opts = $argv[2] === "" ? dlt_opts() : dlt_opts(["auth" => $argv[2]]);
$l = new DistributedLock($argv[1], $opts);
try {
    var_export($l->tryAcquire()); echo "\n";
} catch (DistributedLockException $e) {
    echo get_class($e), " code ", $e->getCode(), ": ", $e->getMessage(), "\n";
}
';
foreach (['', 'alice:wrong', "alice:$secret"] as $cred) {
    $c = dlt_spawn($code, [$path, $cred]);
    echo dlt_line($c), "\n";
    dlt_finish($c);
}
/* a raw client without credentials cannot delete the holder's node */
$py = 'import sys
from kazoo.client import KazooClient
from kazoo.exceptions import NoAuthError
zk = KazooClient(hosts=sys.argv[1]); zk.start(timeout=10)
try:
    zk.delete(sys.argv[2]); print("deleted")
except NoAuthError:
    print("NoAuthError")
zk.stop()';
echo trim((string) shell_exec('/usr/bin/python3 -c ' . escapeshellarg($py) . ' ' . escapeshellarg(dlt_hosts()) . ' ' . escapeshellarg("$path/$node") . ' 2>/dev/null')), "\n";
var_dump($l->isAcquired(), dlt_nodes($path));
ob_start();
var_dump($l);
print_r($l);
phpinfo();
$shown = ob_get_clean();
var_dump(str_contains($shown, $secret));
try {
    new DistributedLock($path, ['auth' => $secret]);
} catch (ValueError $e) {
    var_dump(str_contains($e->getMessage(), $secret));
}
$l->release();
var_dump(dlt_nodes($path));
?>
--EXPECTF--
bool(true)
DistributedLockException code -102: /dlock-tests/faults-auth-%d: cannot create a lock node under /dlock-tests/faults-auth-%d: not authenticated
DistributedLockException code -102: /dlock-tests/faults-auth-%d: cannot create a lock node under /dlock-tests/faults-auth-%d: not authenticated
false
NoAuthError
bool(true)
int(1)
bool(false)
bool(false)
int(0)
