/* test_sql.c: checks of the SQL backend's pure parts: SHA-256 and the
 * PostgreSQL key (sql/dlock_sha256.c), SQL DSNs (dlock_dsn.c). No server. */
#include <stdio.h>
#include <string.h>

#include "test_core.h"
#include "../dlock_dsn.h"
#include "../sql/dlock_sha256.h"

/* SHA-256 against FIPS 180-4's examples, padding edges, and PostgreSQL's
 * key of "orders" (SELECT ('x' || left(encode(sha256('orders'), 'hex'),
 * 16))::bit(64)::bigint, run on PostgreSQL 15). */
void test_sha256(void)
{
	static const struct {
		const char *in;
		size_t repeat;
		const char *hex;
	} v[] = {
	    {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	    {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	    {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
	     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	    {"a", 55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
	    {"b", 200, "aaebc35c4c4e2cc7ac7c65812a7fa476d807b9f3fc60d478dfe098ceeb122321"},
	};
	char buf[256], hex[65];
	unsigned char d[32];
	size_t i, j;

	for (i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		size_t n = strlen(v[i].in) * v[i].repeat;

		for (j = 0; j < v[i].repeat; j++) {
			memcpy(buf + j * strlen(v[i].in), v[i].in, strlen(v[i].in));
		}
		dlock_sha256(buf, n, d);
		for (j = 0; j < 32; j++) {
			snprintf(hex + 2 * j, 3, "%02x", d[j]);
		}
		CHECK(strcmp(hex, v[i].hex) == 0, "sha256 vector %zu: %s", i, hex);
	}
	CHECK(dlock_sha256_key("orders", 6) == 2023957755765852388LL, "key of orders: %lld",
	      (long long)dlock_sha256_key("orders", 6));
	CHECK(dlock_sha256_key("abc", 3) == -5010229573455851542LL, "negative key of abc");
}

/* SQL DSNs: defaults, credentials, errors that never echo a password. */
void test_sql_dsn(void)
{
	dlock_target t;
	dlock_err err;
	char where[256];

	memset(&t, 0, sizeof(t));
	CHECK(dlock_dsn_parse("postgres://u:p%40ss@db1/shop", 28, &t, &err) == DLOCK_OK &&
	          t.backend == DLOCK_BACKEND_POSTGRES && t.port == 5432 &&
	          strcmp(t.password, "p@ss") == 0 && strcmp(t.dbname, "shop") == 0,
	      "postgres DSN");
	dlock_target_where(&t, where, sizeof(where));
	CHECK(strcmp(where, "postgres://u@db1:5432/shop") == 0 && !strstr(where, "p@ss"), "where %s",
	      where);
	CHECK(dlock_dsn_parse("mariadb://root@[::1]:3307", 25, &t, &err) == DLOCK_OK &&
	          t.backend == DLOCK_BACKEND_MYSQL && t.port == 3307 && !t.password && !t.dbname &&
	          strcmp(t.user, "root") == 0,
	      "mariadb DSN with a user alone and no database");
	CHECK(dlock_dsn_parse("mysql://u:secret@h/bad db", 25, &t, &err) == DLOCK_EINVAL &&
	          !strstr(err.msg, "secret"),
	      "bad database name: %s", err.msg);
	CHECK(dlock_dsn_parse("postgres://u:secret@h:99999/db", 30, &t, &err) == DLOCK_EINVAL &&
	          !strstr(err.msg, "secret"),
	      "bad port: %s", err.msg);
	dlock_target_clear(&t);
}
