/* test_core.h: what the C core's test files share: the check counter and
 * CHECK(), the ZooKeeper under test, and each file's test functions (each
 * runs its checks and counts them; main() in test_core.c calls them). */
#ifndef TEST_CORE_H
#define TEST_CORE_H

#include <stdio.h>

#include "../dlock_core.h"

extern int passed, failed; /* checks so far */
extern const char *hosts;  /* $DLOCK_TEST_HOSTS: the ZooKeeper server tests use */

/* Counts a check; prints "not ok file:line: <message>" when cond is false. */
#define CHECK(cond, ...)                                                                           \
	do {                                                                                           \
		if (cond) {                                                                                \
			passed++;                                                                              \
		} else {                                                                                   \
			failed++;                                                                              \
			printf("not ok %s:%d: ", __FILE__, __LINE__);                                          \
			printf(__VA_ARGS__);                                                                   \
			printf("\n");                                                                          \
		}                                                                                          \
	} while (0)

/* test_name.c: lock names, connect strings and their lock spaces, GUIDs. */
void test_paths(void);
void test_hosts(void);
void test_hosts_space(void);
void test_names(void);

/* test_option.c: the options table. */
void test_options(void);

/* test_stats.c: the lock numbers and slow-lock thresholds. */
void test_stats(void);
void test_wait_left(void); /* dlock_left_ms */

/* test_zk_rule.c: the ZooKeeper queue rules. */
void test_rules(void);

/* test_sql.c: SHA-256 and SQL DSNs. */
void test_sha256(void);
void test_sql_dsn(void);

/* test_zk_server.c: against the ZooKeeper at hosts. */
void test_server(void);
void test_no_herd(void);
void test_read_write(void);
void test_semaphore(void);
void test_downgrade_guard(void);
void test_semaphore_watch(void);
void test_faults(void); /* DLOCK_FAULT_INJECTION builds only */
void test_unreachable(void);

#endif
