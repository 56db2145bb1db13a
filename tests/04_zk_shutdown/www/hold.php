<?php
/* Takes the lock named by ?path= and then ends the request as ?how= says,
 * without calling release(): RSHUTDOWN must release it. */
$l = new DistributedLock($_GET['path'], ['hosts' => getenv('DLOCK_TEST_HOSTS')]);
$GLOBALS['keep'] = $l;
if (!$l->acquire(10)) {
    echo "not acquired\n";
    return;
}
echo "held ", $l->getFencingToken(), "\n";
flush();
switch ($_GET['how']) {
    case 'exit':
        exit(0);
    case 'exception':
        throw new RuntimeException('boom');
    case 'fatal':
        undefined_function_dlock_test();
        break;
    case 'timeout':
        set_time_limit(1);
        for (;;) {
        }
    case 'static':
        static $forever;
        $forever = $l; /* still referenced at request end */
        break;
}
