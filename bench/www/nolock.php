<?php
/* The same request as cycle.php without the lock: the baseline the lock's
 * per-request cost is measured against. */
echo "ok\n";
