/* test_core.c: the runner of the lock core's tests without PHP (one file per
 * module beside it: test_name.c, test_option.c, test_stats.c, test_zk_rule.c, test_sql.c,
 * test_zk_server.c). Pure checks run always; the rest run against the
 * ZooKeeper named by $DLOCK_TEST_HOSTS (required). Prints one line per failed
 * check and a final "N passed, N failed". */
#include <stdio.h>
#include <stdlib.h>

#include "test_core.h"
#include "../zk/dlock_zk_log.h"
#include "../zk/dlock_zk_pool.h"

int passed, failed;
const char *hosts;

int main(void)
{
	dlock_zklog_configure(NULL, NULL);
	test_paths();
	test_hosts();
	test_hosts_space();
	test_names();
	test_options();
	test_stats();
	test_wait_left();
	test_rules();
	test_sha256();
	test_sql_dsn();
	hosts = getenv("DLOCK_TEST_HOSTS");
	if (!hosts || !*hosts) {
		printf("not ok: DLOCK_TEST_HOSTS is not set; server tests not run\n");
		failed++;
	} else {
		test_server();
		test_no_herd();
		test_read_write();
		test_semaphore();
		test_downgrade_guard();
		test_semaphore_watch();
#ifdef DLOCK_FAULT_INJECTION
		test_faults();
#endif
		test_unreachable();
		dlock_pool_shutdown();
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
