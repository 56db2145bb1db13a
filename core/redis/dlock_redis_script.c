/* dlock_redis_script.c: the Lua sources and how they are called. */
#include "dlock_redis_script.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* How a hold looks on the server, by format (ARGV fmt, its first letter):
 * 'r' Redisson's RLock (HASH field => count, PEXPIRE), 's' symfony/lock's
 * RedisStore (ZSET of token and "__write__" scored by expiry in ms,
 * PEXPIREAT), 'l' Laravel's RedisLock (STRING holding the owner, PX), 'z'
 * dlock's semaphore ("z<leases>": ZSET of holders scored by their own expiry,
 * so a dead holder's lease ends while others renew theirs), 'w' dlock's
 * read-write lock ("wr" the read part, "ww" the write part: the same ZSET,
 * members "r:<field>" and "w:<field>"). held() is our
 * count (0: not ours; a key of another type is never ours, so a lock taken
 * in another format is waited for, not an error), avail() how many more may
 * hold now (expired entries
 * are dropped first), take() and setlease() set our lease, drop() removes
 * our hold. The kinds that keep a sorted set at one name tell each other
 * apart by its members: read-write members start "r:" or "w:", a symfony
 * mutex has "__write__", a semaphore's members have neither; avail() is 0
 * beside a hold of another kind (or a key of another type), so every kind
 * and format waits for every other. */
#define DLOCK_LUA_FORMATS                                                                          \
	"local function nowms() local t = redis.call('time') "                                         \
	"return t[1] * 1000 + math.floor(t[2] / 1000) end "                                            \
	"local function held(k, fmt, f) "                                                              \
	"local c = string.sub(fmt, 1, 1) "                                                             \
	"local t = redis.call('type', k).ok "                                                          \
	"if c == 'r' then if t ~= 'hash' then return 0 end "                                           \
	"return tonumber(redis.call('hget', k, f) or '0') end "                                        \
	"if c == 'l' then if t == 'string' and redis.call('get', k) == f then return 1 end "           \
	"return 0 end "                                                                                \
	"if t ~= 'zset' then return 0 end "                                                            \
	"local sc = redis.call('zscore', k, f) "                                                       \
	"if sc and tonumber(sc) > nowms() then return 1 end return 0 end "                             \
	"local function avail(k, fmt) "                                                                \
	"local c = string.sub(fmt, 1, 1) "                                                             \
	"if c == 'r' or c == 'l' then if redis.call('exists', k) == 0 then return 1 end return 0 end " \
	"local t = redis.call('type', k).ok "                                                          \
	"if t ~= 'none' and t ~= 'zset' then return 0 end "                                            \
	"if t == 'zset' then redis.call('zremrangebyscore', k, '-inf', nowms()) end "                  \
	"local ms = redis.call('zrange', k, 0, -1) "                                                   \
	"local full = c == 'z' and tonumber(string.sub(fmt, 2)) or 1 "                                 \
	"if #ms == 0 then return full end "                                                            \
	"if c == 's' or fmt == 'ww' then return 0 end "                                                \
	"for _, m in ipairs(ms) do "                                                                   \
	"local p = string.sub(m, 1, 2) "                                                               \
	"local rw = p == 'r:' or p == 'w:' "                                                           \
	"if (c == 'w') ~= rw or p == 'w:' or m == '__write__' then return 0 end "                      \
	"end "                                                                                         \
	"if c == 'w' then return 1 end return full - #ms end "                                         \
	"local function zexpire(k) "                                                                   \
	"local m = redis.call('zrevrange', k, 0, 0, 'withscores')[2] "                                 \
	"if m then redis.call('pexpireat', k, m) else redis.call('del', k) end end "                   \
	"local function setlease(k, fmt, f, lease) "                                                   \
	"local c = string.sub(fmt, 1, 1) "                                                             \
	"if c == 'r' then redis.call('pexpire', k, lease) "                                            \
	"elseif c == 'l' then redis.call('set', k, f, 'px', lease) "                                   \
	"else local e = nowms() + tonumber(lease) "                                                    \
	"redis.call('zadd', k, e, f) "                                                                 \
	"if c == 's' then redis.call('zadd', k, e, '__write__') end "                                  \
	"zexpire(k) end end "                                                                          \
	"local function take(k, fmt, f, lease) "                                                       \
	"if string.sub(fmt, 1, 1) == 'r' then redis.call('hset', k, f, 1) end "                        \
	"setlease(k, fmt, f, lease) end "                                                              \
	"local function drop(k, fmt, f) "                                                              \
	"local c = string.sub(fmt, 1, 1) "                                                             \
	"if c == 's' then redis.call('zrem', k, f, '__write__') zexpire(k) "                           \
	"elseif c == 'z' or c == 'w' then redis.call('zrem', k, f) zexpire(k) "                        \
	"else redis.call('del', k) end end "

/* The fencing counter (KEYS[3] of the lock script). A grant takes the next
 * token: the larger of the counter plus one and the server's clock in
 * microseconds. So every token is at most its grant's time (a script takes
 * more than a microsecond), and a counter that was lost (FLUSHALL, eviction,
 * a restart without persistence) starts again above every token handed out
 * for the name before, unless the server's clock was set back by more than
 * the time since that grant. A counter that is not a number is left to
 * INCR's error. curtok() is the counter, or a new token when it is gone. */
#define DLOCK_LUA_TOKEN                                                                            \
	"local function nexttok(k) "                                                                   \
	"local t = redis.call('time') "                                                                \
	"local now = tonumber(t[1]) * 1000000 + tonumber(t[2]) "                                       \
	"local c = redis.call('get', k) "                                                              \
	"if c and ((not tonumber(c)) or tonumber(c) >= now) then return redis.call('incr', k) end "    \
	"redis.call('set', k, string.format('%.0f', now)) "                                            \
	"return now end "                                                                              \
	"local function curtok(k) "                                                                    \
	"local c = tonumber(redis.call('get', k) or '') "                                              \
	"if c then return c end "                                                                      \
	"return nexttok(k) end "

/* Who is served next. A waiter's id ends ":<seq>.<format>", so the scripts
 * know what each waiter waits for (an id without it, from an older dlock,
 * counts by its "r:"/"w:" prefix, else as a mutex). A plan walks the live
 * waiters in queue order and grants, on paper, each that fits beside the
 * holders and the waiters granted before it: fits() is avail() for its
 * format when the plan is empty; beside planned grants only readers beside
 * readers, and semaphore holders up to the free places, fit; a mutex (any
 * format) or a writer fits only an empty plan. The walk stops at the first
 * waiter that does not fit, so nobody behind it, of whatever kind, overtakes
 * it: a waiter is granted as soon as what it waits for is free, however the
 * holders of another kind overlap. */
#define DLOCK_LUA_WAKE                                                                             \
	"local function wfmt(w) "                                                                      \
	"local f = string.match(w, ':%d+%.([^:.]+)$') "                                                \
	"if f then return f end "                                                                      \
	"local p = string.sub(w, 1, 2) "                                                               \
	"if p == 'r:' then return 'wr' elseif p == 'w:' then return 'ww' end "                         \
	"return 'r' end "                                                                              \
	"local function kindof(f) "                                                                    \
	"if f == 'wr' then return 'R' elseif string.sub(f, 1, 1) == 'z' then return 'Z' end "          \
	"return 'X' end "                                                                              \
	"local function plan(k) return {k = k, av = {}, n = 0, kind = ''} end "                        \
	"local function fits(p, f) "                                                                   \
	"local a = p.av[f] "                                                                           \
	"if a == nil then a = avail(p.k, f) p.av[f] = a end "                                          \
	"if p.n == 0 then return a > 0 end "                                                           \
	"local kd = kindof(f) "                                                                        \
	"if kd == 'X' or kd ~= p.kind then return false end "                                          \
	"if kd == 'R' then return a > 0 end "                                                          \
	"return a - p.n > 0 end "                                                                      \
	"local function plan_add(p, f) p.n = p.n + 1 p.kind = kindof(f) end "                          \
	"local function wake(k, q, pw, pk, ttl) "                                                      \
	"local p, woke = plan(k), 0 "                                                                  \
	"for _, h in ipairs(redis.call('lrange', q, 0, -1)) do "                                       \
	"local st = redis.call('get', pw .. h) "                                                       \
	"if not st then redis.call('lrem', q, 1, h) "                                                  \
	"else "                                                                                        \
	"local f = wfmt(h) "                                                                           \
	"if not fits(p, f) then break end "                                                            \
	"plan_add(p, f) "                                                                              \
	"if st ~= 'woken' then "                                                                       \
	"redis.call('lpush', pk .. h, '1') "                                                           \
	"redis.call('pexpire', pk .. h, ttl) "                                                         \
	"redis.call('set', pw .. h, 'woken', 'px', ttl) "                                              \
	"woke = woke + 1 "                                                                             \
	"end "                                                                                         \
	"end "                                                                                         \
	"end "                                                                                         \
	"return woke end "

/* KEYS: lock, queue, token. ARGV: lease ms, field, format, waiter id ('' for
 * a try), heartbeat ttl ms, wait-key prefix, wake-key prefix, and for a
 * downgrade the write member this process holds ('' otherwise). Returns
 * {1, count, token} held (also when our field is there already: the reply of
 * an earlier try was lost), {0, 0, 0} not held (the waiter queued, its
 * heartbeat refreshed), {-2} the write hold of a downgrade is gone, {-3} a
 * downgrade refused because a waiter a reader excludes (a writer, a mutex,
 * a semaphore) waits. A newcomer is granted only when
 * the plan of the live waiters ahead of it (see DLOCK_LUA_WAKE) takes them
 * all and it fits beside them, so it never overtakes a waiter it excludes.
 * A grant takes its token before it writes anything: a token step that fails
 * (a counter that is not a number) aborts the script with nothing written. */
static const char dlock_lua_lock[] = DLOCK_LUA_FORMATS DLOCK_LUA_WAKE DLOCK_LUA_TOKEN
    "local lease, field, fmt, me = ARGV[1], ARGV[2], ARGV[3], ARGV[4] "
    "local ttl, pw, pk, grant = tonumber(ARGV[5]), ARGV[6], ARGV[7], ARGV[8] "
    "local cnt = held(KEYS[1], fmt, field) "
    "if cnt > 0 then "
    "local tk = curtok(KEYS[3]) "
    "if me ~= '' then redis.call('lrem', KEYS[2], 0, me) redis.call('del', pw .. me, pk .. me) end "
    "setlease(KEYS[1], fmt, field, lease) "
    "return {1, cnt, tk} "
    "end "
    "if grant ~= '' then "
    "if held(KEYS[1], 'ww', grant) == 0 then return {-2, 0, 0} end "
    "for _, w in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do "
    "if wfmt(w) ~= 'wr' and redis.call('exists', pw .. w) == 1 then "
    "return {-3, 0, 0} end end "
    "local tk = nexttok(KEYS[3]) "
    "take(KEYS[1], fmt, field, lease) "
    "return {1, 1, tk} "
    "end "
    "if avail(KEYS[1], fmt) > 0 then "
    "local p, mine, ahead = plan(KEYS[1]), false, true "
    "for _, w in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do "
    "if w == me then mine = true break end "
    "if redis.call('exists', pw .. w) == 1 then "
    "local f = wfmt(w) "
    "if not fits(p, f) then ahead = false break end "
    "plan_add(p, f) "
    "else redis.call('lrem', KEYS[2], 1, w) end "
    "end "
    "if ahead and fits(p, fmt) then "
    "local tk = nexttok(KEYS[3]) "
    "if mine then redis.call('lrem', KEYS[2], 0, me) redis.call('del', pw .. me, pk .. me) end "
    "take(KEYS[1], fmt, field, lease) "
    "return {1, 1, tk} "
    "end "
    "wake(KEYS[1], KEYS[2], pw, pk, ttl) "
    "end "
    "if me ~= '' then "
    "if not redis.call('lpos', KEYS[2], me) then redis.call('rpush', KEYS[2], me) end "
    "redis.call('set', pw .. me, 'waiting', 'px', ttl) "
    "redis.call('pexpire', KEYS[2], ttl * 4) "
    "end "
    "return {0, 0, 0} ";

/* KEYS: lock, Redisson's channel, unlock latch, queue. ARGV: field, format,
 * latch ttl ms, wait prefix, wake prefix, heartbeat ttl ms. Drops our hold
 * (the server counts 1: nested holds are counted by the process). Returns 1
 * released, -1 not ours (gone); a retry with the same latch returns the
 * first answer. Redisson's waiters get its unlock message, last and through
 * pcall: dlock's own waiters are woken by their wake lists, and a user the
 * server refuses the channel to (an ACL without it) still releases. */
static const char dlock_lua_unlock[] = DLOCK_LUA_FORMATS DLOCK_LUA_WAKE
    "local v = redis.call('get', KEYS[3]) "
    "if v then return tonumber(v) end "
    "if held(KEYS[1], ARGV[2], ARGV[1]) == 0 then "
    "redis.call('set', KEYS[3], -1, 'px', ARGV[3]) return -1 end "
    "drop(KEYS[1], ARGV[2], ARGV[1]) "
    "redis.call('set', KEYS[3], 1, 'px', ARGV[3]) "
    "wake(KEYS[1], KEYS[4], ARGV[4], ARGV[5], tonumber(ARGV[6])) "
    "if ARGV[2] == 'r' then redis.pcall('publish', KEYS[2], 0) end "
    "return 1 ";

/* KEYS: lock, queue. ARGV: waiter id, wait prefix, wake prefix, ttl ms,
 * format (unused: each waiter's own format counts). */
static const char dlock_lua_leave[] =
    DLOCK_LUA_FORMATS DLOCK_LUA_WAKE "redis.call('lrem', KEYS[2], 0, ARGV[1]) "
                                     "redis.call('del', ARGV[2] .. ARGV[1], ARGV[3] .. ARGV[1]) "
                                     "wake(KEYS[1], KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[4])) "
                                     "return 1 ";

/* KEYS: lock names. ARGV: (lease ms, field, format) per key; an empty lease
 * only checks (a hold past max_hold). Returns 1 (ours: renewed) or 0 (our
 * hold is gone, or could not be renewed) per key; one key that fails never
 * fails the others (pcall per key). Redisson and Laravel holds are renewed
 * with PEXPIRE, which needs no memory and so works on a full `noeviction`
 * server (SET and ZADD are refused there); the sorted-set kinds must ZADD
 * a new score and are lost (reported 0) when the server refuses it. */
static const char dlock_lua_renew[] =
    DLOCK_LUA_FORMATS "local function renewlease(k, fmt, f, lease) "
                      "local c = string.sub(fmt, 1, 1) "
                      "if c == 'r' or c == 'l' then "
                      "if redis.call('pexpire', k, lease) ~= 1 then error('gone') end "
                      "else setlease(k, fmt, f, lease) end end "
                      "local r = {} "
                      "for i = 1, #KEYS do "
                      "local lease, f, fmt = ARGV[3 * i - 2], ARGV[3 * i - 1], ARGV[3 * i] "
                      "local ok, h = pcall(held, KEYS[i], fmt, f) "
                      "r[i] = 0 "
                      "if ok and h > 0 then "
                      "r[i] = 1 "
                      "if lease ~= '' and not pcall(renewlease, KEYS[i], fmt, f, lease) then "
                      "r[i] = 0 end "
                      "end "
                      "end "
                      "return r ";

/* KEYS: lock, queue, token. ARGV: wait prefix, format. Returns holders each
 * followed by the current token, then '', then live waiters in order, each
 * as its owner's field (the waiter id less its ":<attempt>"). Holders are
 * listed by what the key is, whatever format was asked for. */
static const char dlock_lua_list[] = DLOCK_LUA_FORMATS
    "local out = {} "
    "local tok = redis.call('get', KEYS[3]) or '0' "
    "local fmt = string.sub(ARGV[2], 1, 1) "
    "avail(KEYS[1], ARGV[2]) "
    "local t = redis.call('type', KEYS[1]).ok "
    "if t == 'hash' then "
    "local h = redis.call('hgetall', KEYS[1]) "
    "for i = 1, #h, 2 do table.insert(out, h[i]) table.insert(out, tok) end "
    "elseif t == 'string' then table.insert(out, redis.call('get', KEYS[1])) "
    "table.insert(out, tok) "
    "elseif t == 'zset' then "
    "for _, m in ipairs(redis.call('zrangebyscore', KEYS[1], '(' .. nowms(), '+inf')) do "
    "if m ~= '__write__' then table.insert(out, m) "
    "table.insert(out, (fmt == 'z' or fmt == 'w') and '0' or tok) end end "
    "end "
    "table.insert(out, '') "
    "for _, w in ipairs(redis.call('lrange', KEYS[2], 0, -1)) do "
    "if redis.call('exists', ARGV[1] .. w) == 1 then "
    "table.insert(out, string.match(w, '^(.*):[^:]*$') or w) end "
    "end "
    "return out ";

/* What the key at KEYS[1] is, for operators (listLocks, forceBreak): peek(k,
 * q, tk, pw) returns its family ('mutex': a Redisson hash with owner fields,
 * a symfony/lock set, or a string with dlock's token counter beside it; 'rw':
 * a set of "r:"/"w:" members; 'semaphore': another set with dlock's token
 * counter; 'unknown': no hold that is a lock's, but live waiters; '': not a
 * lock), its live holders and its live waiters. A string without dlock's
 * counter is not taken for a lock: it may be any value (Laravel's own
 * locks, written without dlock, are not listed). */
#define DLOCK_LUA_PEEK                                                                             \
	"local function peek(k, q, tk, pw) "                                                           \
	"local t = redis.call('type', k).ok "                                                          \
	"local kind, n, w = '', 0, 0 "                                                                 \
	"if t == 'hash' then "                                                                         \
	"for _, f in ipairs(redis.call('hkeys', k)) do "                                               \
	"if string.match(f, ':%d+$') then n = n + 1 end end "                                          \
	"if n > 0 then kind = 'mutex' end "                                                            \
	"elseif t == 'zset' then "                                                                     \
	"local sym, rw = false, false "                                                                \
	"for _, m in ipairs(redis.call('zrangebyscore', k, '(' .. nowms(), '+inf')) do "               \
	"local p = string.sub(m, 1, 2) "                                                               \
	"if m == '__write__' then sym = true else n = n + 1 end "                                      \
	"if p == 'r:' or p == 'w:' then rw = true end end "                                            \
	"if n > 0 then "                                                                               \
	"if sym then kind = 'mutex' elseif rw then kind = 'rw' "                                       \
	"elseif redis.call('exists', tk) == 1 then kind = 'semaphore' else n = 0 end end "             \
	"elseif t == 'string' and redis.call('exists', tk) == 1 then kind = 'mutex' n = 1 end "        \
	"if redis.call('type', q).ok == 'list' then "                                                  \
	"for _, x in ipairs(redis.call('lrange', q, 0, -1)) do "                                       \
	"if redis.call('exists', pw .. x) == 1 then w = w + 1 end end end "                            \
	"if kind == '' and w > 0 then kind = 'unknown' end "                                           \
	"return kind, n, w end "

/* KEYS: lock, queue, token. ARGV: wait prefix. Returns {family, holders,
 * waiters} (see peek). */
static const char dlock_lua_peek[] =
    DLOCK_LUA_FORMATS DLOCK_LUA_PEEK "local kind, n, w = peek(KEYS[1], KEYS[2], KEYS[3], ARGV[1]) "
                                     "return {kind, n, w} ";

/* KEYS: lock, queue, token, Redisson's channel. ARGV: wait prefix, wake
 * prefix, heartbeat ttl ms. The operator's forced break: when the key is a
 * held lock (see peek), deletes it (every current hold of it ends, whoever
 * has it), wakes the waiters that may now go, and publishes Redisson's
 * unlock message. The token counter is kept, so the next grant's token is
 * higher. Returns {family, holds ended}. */
static const char dlock_lua_break[] = DLOCK_LUA_FORMATS DLOCK_LUA_WAKE DLOCK_LUA_PEEK
    "local kind, n, w = peek(KEYS[1], KEYS[2], KEYS[3], ARGV[1]) "
    "if n == 0 then return {kind, 0} end "
    "local hash = redis.call('type', KEYS[1]).ok == 'hash' "
    "redis.call('del', KEYS[1]) "
    "wake(KEYS[1], KEYS[2], ARGV[1], ARGV[2], tonumber(ARGV[3])) "
    "if hash then redis.pcall('publish', KEYS[4], 0) end "
    "return {kind, n} ";

static const char *const dlock_lua[DLOCK_RS_COUNT] = {
    dlock_lua_lock, dlock_lua_unlock, dlock_lua_leave, dlock_lua_renew,
    dlock_lua_list, dlock_lua_peek,   dlock_lua_break,
};

/* Non-zero for an error reply that says "not now" rather than "never": a
 * server still loading its data, a script running too long, a replica or a
 * master that lost its replicas refusing writes during a fail-over. Callers
 * treat it as a lost connection: retried within connect_timeout. */
static int dlock_redis_script_transient(const char *msg)
{
	return strncmp(msg, "LOADING", 7) == 0 || strncmp(msg, "BUSY", 4) == 0 ||
	       strncmp(msg, "READONLY", 8) == 0 || strncmp(msg, "MASTERDOWN", 10) == 0 ||
	       strncmp(msg, "NOREPLICAS", 10) == 0 || strncmp(msg, "TRYAGAIN", 8) == 0;
}

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
	if (r->type == REDIS_REPLY_ERROR && dlock_redis_script_transient(r->str)) {
		rc = dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: %.200s", c->where, r->str);
		dlock_redis_conn_drop(c);
	} else if (r->type != REDIS_REPLY_STRING || r->len != 40) {
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
		if (!c->sha[id][0] &&
		    (rc = dlock_redis_script_load(c, id, deadline, intr, err)) != DLOCK_OK) {
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
		if (dlock_redis_script_transient((*reply)->str)) {
			rc = dlock_err_set(err, DLOCK_ECONNLOSS, 0, "%s: %.200s", c->where, (*reply)->str);
			freeReplyObject(*reply);
			*reply = NULL;
			dlock_redis_conn_drop(c); /* a demoted master: ask the sentinels again */
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
