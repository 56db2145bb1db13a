--TEST--
Polling a held lock with short timed waits (acquire(0.002) over and over) keeps memory flat: each wait re-arms the same watch, the client keeps no watcher per attempt
--EXTENSIONS--
dlock
--SKIPIF--
<?php
require __DIR__ . '/../inc/skipif.inc';
if (getenv('USE_ZEND_ALLOC') === '0') die('skip too slow under valgrind; the leak checker covers the same paths');
?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
function rss_kb(): int
{
    preg_match('/^VmRSS:\s+(\d+)/m', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1];
}
$path = dlt_path('safety-poll-memory');
$h = dlt_spawn('
$a = new DistributedLock($argv[1], dlt_opts());
$a->acquire();
echo "holding\n";
echo trim((string) fgets(STDIN)), "\n";
', [$path]);
echo dlt_line($h), "\n";
$l = new DistributedLock($path, dlt_opts());
$waited = 0;
for ($i = 0; $i < 2000; $i++) { /* warm up: session, allocator pools and arenas */
    $waited += $l->acquire(0.002) ? 0 : 1;
}
/* two equal stretches: what the allocator takes once shows in the first,
 * a leak in both (~36 bytes a wait before: ~140 KB a stretch) */
$rss = [rss_kb()];
for ($k = 0; $k < 2; $k++) {
    for ($i = 0; $i < 4000; $i++) {
        $waited += $l->acquire(0.002) ? 0 : 1;
    }
    $rss[] = rss_kb();
}
var_dump($waited);
$g = $rss[2] - $rss[1];
var_dump($g < 64 ? 'rss flat' : "rss grew by $g KB in the second stretch (first: " . ($rss[1] - $rss[0]) . ' KB)');
dlt_send($h, 'bye');
echo dlt_line($h), "\n";
var_dump(dlt_finish($h));
?>
--EXPECT--
holding
int(10000)
string(8) "rss flat"
bye
int(0)
