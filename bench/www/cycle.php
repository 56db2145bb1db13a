<?php
/* One lock cycle per request, for the per-request benchmark (hosts from dlock.hosts). */
$l = new DistributedLock('/bench/request');
$l->acquire();
$l->release();
echo "ok\n";
