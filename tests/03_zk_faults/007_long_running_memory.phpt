--TEST--
Long-running worker: 100,000 acquire/release cycles in one process with flat memory (memory_get_usage and RSS)
--EXTENSIONS--
dlock
--SKIPIF--
<?php
require __DIR__ . '/../inc/skipif.inc';
if (getenv('USE_ZEND_ALLOC') === '0') die('skip too slow under valgrind; covered by the normal run');
?>
--FILE--
<?php
require __DIR__ . '/../inc/helpers.inc';
function rss_kb(): int
{
    preg_match('/^VmRSS:\s+(\d+)/m', file_get_contents('/proc/self/status'), $m);
    return (int) $m[1];
}
$l = new DistributedLock(dlt_path('faults-memory'), dlt_opts());
for ($i = 0; $i < 10000; $i++) {    /* warm up: session, allocator pools */
    $l->acquire();
    $l->release();
}
$mem0 = memory_get_usage();
$rss0 = rss_kb();
for ($i = 0; $i < 100000; $i++) {
    $l->acquire();
    $l->release();
}
$mem1 = memory_get_usage();
$rss1 = rss_kb();
/* a leak of even one byte per cycle would show as 100 KB; allow one-time growth */
var_dump($mem1 - $mem0 < 4096 ? 'zend memory flat' : 'zend memory grew by ' . ($mem1 - $mem0));
var_dump($rss1 - $rss0 < 1024 ? 'rss flat' : 'rss grew by ' . ($rss1 - $rss0) . ' KB');
?>
--EXPECT--
string(16) "zend memory flat"
string(8) "rss flat"
