/* test_name.c: checks of lock names, ZooKeeper connect strings and their
 * lock spaces, queue node names and GUIDs (dlock_name.c, zk/dlock_zk_path.c).
 * Pure: no server. */
#include <stdint.h>
#include <string.h>

#include "test_core.h"
#include "../zk/dlock_zk_path.h"

void test_paths(void)
{
	static const char *good[] = {
	    "/a",          "/locks/orders", "/a/b.c/d..e/_x", "/\xc3\xa9t\xc3\xa9",
	    "/zookeeperx", "/a/zookeeper"};
	static const char *bad[] = {"",       "a",     "/",     "/a/",           "//a",
	                            "/a//b",  "/./a",  "/a/..", "/zookeeper",    "/zookeeper/quota",
	                            "/a\x01", "/\xff", "/\xc3", "/\xed\xa0\x80", "/\xf0\x9f\x98\x80"};
	char big[DLOCK_PATH_MAX + 2];
	dlock_err e;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		CHECK(dlock_path_validate(good[i], strlen(good[i]), &e) == DLOCK_OK, "good path %s: %s",
		      good[i], e.msg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CHECK(dlock_path_validate(bad[i], strlen(bad[i]), &e) == DLOCK_EINVAL && e.msg[0],
		      "bad path #%zu accepted", i);
	}
	CHECK(dlock_path_validate("/a\0b", 4, &e) == DLOCK_EINVAL, "NUL accepted");
	memset(big, 'x', sizeof(big));
	big[0] = '/';
	CHECK(dlock_path_validate(big, sizeof(big), &e) == DLOCK_EINVAL, "long path accepted");
}

void test_hosts(void)
{
	static const char *good[] = {"127.0.0.1:2181", "a:1,b:2,c:65535",
	                             "zk-1.example_x:2181/chroot/x", "[::1]:2181"};
	static const char *bad[] = {"",        "host",    "host:",    ":2181",     "h:0",
	                            "h:65536", "h:2181,", "h:2181/",  "h:2181//x", "h:2181 x",
	                            "h :1",    "[::1",    "h:1234567"};
	dlock_err e;
	size_t i;

	for (i = 0; i < sizeof(good) / sizeof(*good); i++) {
		CHECK(dlock_hosts_validate(good[i], strlen(good[i]), &e) == DLOCK_OK, "good hosts %s: %s",
		      good[i], e.msg);
	}
	for (i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		CHECK(dlock_hosts_validate(bad[i], strlen(bad[i]), &e) == DLOCK_EINVAL,
		      "bad hosts \"%s\" accepted", bad[i]);
	}
}

/* One ensemble in its spellings is one lock space; another ensemble or chroot is not. */
void test_hosts_space(void)
{
	static const char *same[] = {"localhost:2181,zk2:2182/app", "ZK2.:2182,127.0.0.1:2181/app/",
	                             "zk2:2182,127.1:2181,localhost:2181/app",
	                             "[::1]:2181,zk2:2182/app"};
	static const char *other[] = {"localhost:2181/app", "localhost:2181,zk2:2182",
	                              "localhost:2182,zk2:2182/app", "localhost:2181,zk2:2182/app2"};
	char a[300], b[300];
	size_t i;

	dlock_zk_hosts_space(same[0], a, sizeof(a));
	CHECK(strcmp(a, "zookeeper://loopback:2181,zk2:2182/app") == 0, "space of %s: %s", same[0], a);
	for (i = 1; i < sizeof(same) / sizeof(*same); i++) {
		dlock_zk_hosts_space(same[i], b, sizeof(b));
		CHECK(strcmp(a, b) == 0, "%s is %s, not %s", same[i], b, a);
	}
	for (i = 0; i < sizeof(other) / sizeof(*other); i++) {
		dlock_zk_hosts_space(other[i], b, sizeof(b));
		CHECK(strcmp(a, b) != 0, "%s taken for %s", other[i], same[0]);
	}
}

void test_names(void)
{
	int32_t s = 0;
	char g1[DLOCK_GUID_LEN + 1], g2[DLOCK_GUID_LEN + 1];

	const char *t = NULL;

#define G "_c_01234567-89ab-4cde-8f01-23456789abcd-"
	CHECK(dlock_name_seq(G "lock-0000000042", "lock-", &s, &t) && s == 42 &&
	          strcmp(t, "0000000042") == 0,
	      "seq parse");
	CHECK(dlock_name_seq(G "lock--2147483648", "lock-", &s, NULL) && s == INT32_MIN,
	      "negative seq");
	CHECK(dlock_name_seq(G "lock--000000005", "lock-", &s, NULL) && s == -5, "negative seq");
	CHECK(!dlock_name_seq(G "__READ__0000000001", "lock-", &s, NULL), "foreign node ignored");
	CHECK(!dlock_name_seq(G "lock-12a", "lock-", &s, NULL), "junk suffix ignored");
	CHECK(!dlock_name_seq(G "lock-", "lock-", &s, NULL), "empty suffix ignored");
	/* only the whole shape counts: nested containers and short names do not */
	CHECK(!dlock_name_seq("clock-0", "lock-", &s, NULL), "nested container ignored");
	CHECK(!dlock_name_seq("deadlock-0000000001", "lock-", &s, NULL), "plain name ignored");
	CHECK(!dlock_name_seq("x__WRIT__0", "__WRIT__", &s, NULL), "marker name ignored");
	CHECK(!dlock_name_seq("_c_x-lock-0000000007", "lock-", &s, NULL), "short guid ignored");
	CHECK(!dlock_name_seq(G "lock-000000007", "lock-", &s, NULL), "nine digits ignored");
	CHECK(!dlock_name_seq(G "x-lock-0000000007", "lock-", &s, NULL), "text before marker");
	CHECK(!dlock_name_seq("_c_01234567-89ab-4cde-8f01-23456789abcg-lock-0000000007", "lock-", &s,
	                      NULL),
	      "non-hex guid ignored");
	CHECK(dlock_seq_cmp("0000000001", "0000000002") < 0 &&
	          dlock_seq_cmp("0000000002", "0000000001") > 0 &&
	          dlock_seq_cmp("0000000005", "0000000005") == 0,
	      "seq order");
	/* Curator sorts the text after the marker as a string; after the server's
	 * counter wraps, "-2147483648" sorts first for Curator, so for dlock too:
	 * every client of one queue must agree on who is first */
	CHECK(dlock_seq_cmp("-2147483648", "2147483647") < 0, "wrapped counter sorts as Curator's");
	CHECK(dlock_seq_cmp("-000000005", "-2147483648") < 0, "negatives in Curator's string order");
	CHECK(dlock_guid(g1, NULL) == DLOCK_OK && dlock_guid(g2, NULL) == DLOCK_OK &&
	          strlen(g1) == DLOCK_GUID_LEN && strcmp(g1, g2) != 0 && g1[14] == '4',
	      "guid");
}
