/* dlock_redis_script.c: the Lua sources and how they are called. */
#include "dlock_redis_script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Wakes the first live waiter of queue q unless it was woken already:
 * waiters whose heartbeat key (pw..id) expired are dropped on the way. One
 * LPUSH per wake-up, and dlock uses LPUSH for nothing else. */
#define DLOCK_LUA_WAKE                                                                             \
	"local function wake(q, pw, pk, ttl) "                                                         \
	"while true do "                                                                               \
	"local h = redis.call('lindex', q, 0) "                                                        \
	"if not h then return 0 end "                                                                  \
	"local st = redis.call('get', pw .. h) "                                                       \
	"if st then "                                                                                  \
	"if st == 'woken' then return 0 end "                                                          \
	"redis.call('lpush', pk .. h, '1') "                                                           \
	"redis.call('pexpire', pk .. h, ttl) "                                                         \
	"redis.call('set', pw .. h, 'woken', 'px', ttl) "                                              \
	"return 1 "                                                                                    \
	"end "                                                                                         \
	"redis.call('lpop', q) "                                                                       \
	"end "                                                                                         \
	"end "

/* KEYS: lock, queue, token. ARGV: lease ms, field, holds we believe we have,
 * waiter id ('' for a try), heartbeat ttl ms, wait-key prefix, wake-key
 * prefix. Returns {1, count, token} held (token 0 on re-entry: unchanged),
 * {0, pttl, 0} not held (the waiter queued and its heartbeat refreshed),
 * {-2} our hold is gone, {-1, count} the server's count disagrees. */
static const char dlock_lua_lock[] =
    DLOCK_LUA_WAKE
    "local lease, field, exp, me = ARGV[1], ARGV[2], tonumber(ARGV[3]), ARGV[4] "
    "local ttl, pw, pk = tonumber(ARGV[5]), ARGV[6], ARGV[7] "
    "local cnt = tonumber(redis.call('hget', KEYS[1], field) or '0') "
    "if cnt > 0 then "
    "if exp == 0 or cnt == exp + 1 then "
    "if me ~= '' then redis.call('lrem', KEYS[2], 0, me) redis.call('del', pw .. me, pk .. me) end "
    "redis.call('pexpire', KEYS[1], lease) "
    "return {1, cnt, tonumber(redis.call('get', KEYS[3]) or '0')} "
    "end "
    "if cnt == exp then "
    "cnt = redis.call('hincrby', KEYS[1], field, 1) "
    "redis.call('pexpire', KEYS[1], lease) "
    "return {1, cnt, 0} "
    "end "
    "return {-1, cnt, 0} "
    "end "
    "if exp > 0 then return {-2, 0, 0} end "
    "if redis.call('exists', KEYS[1]) == 0 then "
    "local h "
    "while true do "
    "h = redis.call('lindex', KEYS[2], 0) "
    "if (not h) or h == me or redis.call('exists', pw .. h) == 1 then break end "
    "redis.call('lpop', KEYS[2]) "
    "end "
    "if (not h) or h == me then "
    "if h then redis.call('lpop', KEYS[2]) redis.call('del', pw .. me, pk .. me) end "
    "redis.call('hset', KEYS[1], field, 1) "
    "redis.call('pexpire', KEYS[1], lease) "
    "return {1, 1, redis.call('incr', KEYS[3])} "
    "end "
    "wake(KEYS[2], pw, pk, ttl) "
    "end "
    "if me ~= '' then "
    "if not redis.call('lpos', KEYS[2], me) then redis.call('rpush', KEYS[2], me) end "
    "redis.call('set', pw .. me, 'waiting', 'px', ttl) "
    "redis.call('pexpire', KEYS[2], ttl * 4) "
    "end "
    "return {0, redis.call('pttl', KEYS[1]), 0} ";

/* KEYS: lock, Redisson's channel, unlock latch, queue. ARGV: lease ms,
 * field, holds to drop, latch ttl ms, wait prefix, wake prefix, heartbeat
 * ttl ms. Returns 1 released, 0 still held (count > 0), -1 not ours (gone);
 * a retry with the same latch returns the first answer. */
static const char dlock_lua_unlock[] =
    DLOCK_LUA_WAKE
    "local v = redis.call('get', KEYS[3]) "
    "if v then return tonumber(v) end "
    "if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then return -1 end "
    "local c = redis.call('hincrby', KEYS[1], ARGV[2], -tonumber(ARGV[3])) "
    "if c > 0 then "
    "redis.call('pexpire', KEYS[1], ARGV[1]) "
    "redis.call('set', KEYS[3], 0, 'px', ARGV[4]) "
    "return 0 "
    "end "
    "redis.call('del', KEYS[1]) "
    "redis.call('publish', KEYS[2], 0) "
    "redis.call('set', KEYS[3], 1, 'px', ARGV[4]) "
    "wake(KEYS[4], ARGV[5], ARGV[6], tonumber(ARGV[7])) "
    "return 1 ";

/* KEYS: lock, queue. ARGV: waiter id, wait prefix, wake prefix, ttl ms. */
static const char dlock_lua_leave[] =
    DLOCK_LUA_WAKE
    "redis.call('lrem', KEYS[2], 0, ARGV[1]) "
    "redis.call('del', ARGV[2] .. ARGV[1], ARGV[3] .. ARGV[1]) "
    "if redis.call('exists', KEYS[1]) == 0 then wake(KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[4])) "
    "end "
    "return 1 ";

/* KEYS: lock names. ARGV: (lease ms, field) per key. Returns 1 (renewed) or
 * 0 (the field is gone) per key. */
static const char dlock_lua_renew[] = "local r = {} "
                                      "for i = 1, #KEYS do "
                                      "if redis.call('hexists', KEYS[i], ARGV[2 * i]) == 1 then "
                                      "redis.call('pexpire', KEYS[i], ARGV[2 * i - 1]) "
                                      "r[i] = 1 "
                                      "else r[i] = 0 end "
                                      "end "
                                      "return r ";

/* KEYS: lock, queue, token. ARGV: wait prefix. Returns holder fields each
 * followed by the current token, then '', then live waiters in order, each
 * as its owner's field (the waiter id less its ":<attempt>"). */
static const char dlock_lua_list[] =
    "local out = {} "
    "local h = redis.call('hgetall', KEYS[1]) "
    "local tok = redis.call('get', KEYS[3]) or '0' "
    "for i = 1, #h, 2 do table.insert(out, h[i]) table.insert(out, tok) end "
    "table.insert(out, '') "
    "for _, w in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do "
    "if redis.call('exists', ARGV[1] .. w) == 1 then "
    "table.insert(out, string.match(w, '^(.*):[^:]*$') or w) end "
    "end "
    "return out ";

static const char *const dlock_lua[DLOCK_RS_COUNT] = {
    dlock_lua_lock, dlock_lua_unlock, dlock_lua_leave, dlock_lua_renew, dlock_lua_list,
};

/* SCRIPT LOAD of id on c; stores the SHA in c's cache. */
static int dlock_redis_script_load(dlock_redis_conn *c, dlock_redis_script_id id, int64_t deadline,
                                   const dlock_interrupt *intr, dlock_err *err)
{
	const char *argv[3] = {"SCRIPT", "LOAD", dlock_lua[id]};
	redisReply *r = NULL;
	int rc = dlock_redis_conn_call(c, 3, argv, NULL, deadline, intr, &r, err);

	if (rc != DLOCK_OK) {
		return rc;
	}
	if (r->type != REDIS_REPLY_STRING || r->len != 40) {
		rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: SCRIPT LOAD failed: %.160s", c->where,
		                   r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
	} else {
		memcpy(c->sha[id], r->str, 40);
		c->sha[id][40] = '\0';
	}
	freeReplyObject(r);
	return rc;
}

int dlock_redis_script_call(dlock_redis_conn *c, dlock_redis_script_id id, int nkeys, int nargs,
                            const char **kv, int64_t deadline, const dlock_interrupt *intr,
                            redisReply **reply, dlock_err *err)
{
	const char *stack[32], **argv = stack;
	char numkeys[16];
	int argc = 3 + nkeys + nargs, attempt, rc = DLOCK_OK;

	*reply = NULL;
	if (argc > (int)(sizeof(stack) / sizeof(stack[0])) && !(argv = malloc(sizeof(*argv) * argc))) {
		return dlock_err_set(err, DLOCK_ENOMEM, 0, "out of memory");
	}
	snprintf(numkeys, sizeof(numkeys), "%d", nkeys);
	argv[0] = "EVALSHA";
	argv[2] = numkeys;
	memcpy(argv + 3, kv, sizeof(*kv) * (size_t)(nkeys + nargs));
	for (attempt = 0; attempt < 2; attempt++) {
		if (c->pid != getpid() || !c->ctx) {
			/* a new connection may be to a restarted server: load again */
			memset(c->sha, 0, sizeof(c->sha));
		}
		if (!c->sha[id][0] && (rc = dlock_redis_script_load(c, id, deadline, intr, err)) != DLOCK_OK) {
			break;
		}
		argv[1] = c->sha[id];
		if ((rc = dlock_redis_conn_call(c, argc, argv, NULL, deadline, intr, reply, err)) !=
		    DLOCK_OK) {
			break;
		}
		if ((*reply)->type != REDIS_REPLY_ERROR) {
			break;
		}
		if (strncmp((*reply)->str, "NOSCRIPT", 8) != 0 || attempt == 1) {
			rc = dlock_err_set(err, DLOCK_ESERVER, 0, "%s: script failed: %.200s", c->where,
			                   (*reply)->str);
			freeReplyObject(*reply);
			*reply = NULL;
			break;
		}
		freeReplyObject(*reply); /* the server forgot it (restart, SCRIPT FLUSH) */
		*reply = NULL;
		c->sha[id][0] = '\0';
	}
	if (argv != stack) {
		free(argv);
	}
	return rc;
}
