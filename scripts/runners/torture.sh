#!/usr/bin/env bash
# The randomized fault checker: contenders doing every dlock operation under
# a seeded fault schedule (pauses past the session timeout, kill -9, pcntl
# signals, server crash/restart or ensemble leader kills, and network stalls,
# drops, half-closes and delays through tests/torture/proxy.c), then a check
# of their histories (tests/torture/torture.php says what is proven).
#   scripts/runners/torture.sh [--seconds N] [--seed S] [--ensemble|--redis|--postgres|--mysql]
#                      [--tls] [--contenders K]
# --redis runs the exclusive-lock scenarios against a Redis server
# (scripts/servers/redis.sh, --appendfsync always: a kill -9 keeps every acknowledged
# write) on port DLOCK_TORTURE_PORT + 60, the proxy listening on + 61.
# A second Redis on + 62 serves the "servers" generator (stalled by DEBUG SLEEP
# and CLIENT PAUSE). DLOCK_TORTURE_SKIP=name,... leaves generators and judges
# out (tests/torture/check.php lists them; default: everything runs).
# DLOCK_TORTURE_REDIS_FSYNC=everysec|no|off weakens that durability (off: no
# append-only file at all), to show what the judge reports when a restart
# forgets acknowledged locks and fencing counters.
# --postgres and --mysql run the SQL backends' lock kinds against a throwaway
# PostgreSQL (scripts/servers/pg.sh start --durable: synchronous_commit on, so the
# fencing-token table survives a kill -9 of the server) on DLOCK_TORTURE_PORT
# + 70, the proxy on + 71, or MariaDB (scripts/servers/mysql.sh start --durable:
# innodb_flush_log_at_trx_commit=2, likewise) on + 80, the proxy on + 81.
# DLOCK_TORTURE_SQL_DURABLE=0 starts them without that, to show what the judge
# reports when a restart forgets fencing tokens. --tls (with --postgres,
# --mysql or --redis) starts the server TLS-only (start-tls: a throwaway CA,
# logins without TLS refused) and connects with a verified TLS DSN, through
# the proxy too (it forwards the encrypted bytes). On Redis that needs a
# build with rediss:// (hiredis 1.x with hiredis_ssl: trixie, sid; Debian 12's
# hiredis 0.14 has none); the checker's own admin commands (ACL, FLUSHALL,
# KEYS, DEBUG SLEEP) go over the server's Unix socket.
# Prints the seed first; the last line is
#   torture: N operations, N faults, N violations
# and the exit status is non-zero on any violation. Run artifacts stay in the
# directory it prints. Ports: DLOCK_TORTURE_PORT (default 23000) and up.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=60 seed="" mode=standalone k=6 tls=0
while (($#)); do
	case $1 in
	--seconds) seconds=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--ensemble) mode=ensemble; shift ;;
	--redis) mode=redis; shift ;;
	--postgres) mode=postgres; shift ;;
	--mysql) mode=mysql; shift ;;
	--tls) tls=1; shift ;;
	--contenders) k=$2; shift 2 ;;
	*) echo "usage: scripts/runners/torture.sh [--seconds N] [--seed S] [--ensemble|--redis|--postgres|--mysql] [--tls] [--contenders K]" >&2; exit 2 ;;
	esac
done
[[ -n $seed ]] || seed=$(( $(od -An -N4 -tu4 /dev/urandom) % 1000000 ))
if ((tls)) && [[ $mode != postgres && $mode != mysql && $mode != redis ]]; then
	echo "torture: --tls needs --postgres, --mysql or --redis (Debian's ZooKeeper client has no TLS)" >&2
	exit 2
fi
echo "torture: seed $seed, $seconds s, $mode$( ((tls)) && echo ' over TLS'), $k contenders"
# the judge keys histories by process id: in a long run a small pid_max lets
# the kernel reuse a pid, and two contenders' histories would merge
if ((seconds > 300)) && (($(cat /proc/sys/kernel/pid_max 2>/dev/null || echo 4194304) < 4194304)); then
	echo "torture: warning: kernel.pid_max is $(cat /proc/sys/kernel/pid_max); a run this long may reuse pids, which merges histories (sysctl kernel.pid_max=4194304)"
fi
scripts/setup.sh >/dev/null || { echo "torture: build failed"; exit 1; }

base=${DLOCK_TORTURE_PORT:-23000}
export DLOCK_ZK_STATE=${DLOCK_ZK_STATE:-/tmp/dlock-zk}-torture
export DLOCK_REDIS_STATE=${DLOCK_REDIS_STATE:-/tmp/dlock-redis}-torture
run=$(mktemp -d "${TMPDIR:-/tmp}/dlock-torture-$seed-XXXX")
echo "torture: run directory $run"
gcc -O2 -Wall -Wextra -o "$run/proxy" tests/torture/proxy.c || { echo "torture: proxy build failed"; exit 1; }

proxy_pid="" server2=""
cleanup() {
	[[ -n $proxy_pid ]] && kill "$proxy_pid" 2>/dev/null
	case $mode in
	redis) scripts/servers/redis.sh stop "$((base + 60))" >/dev/null 2>&1
		[[ -n $server2 ]] && scripts/servers/redis.sh stop "$server2" >/dev/null 2>&1 ;;
	postgres) scripts/servers/pg.sh stop "$((base + 70))" >/dev/null 2>&1 ;;
	mysql) scripts/servers/mysql.sh stop "$((base + 80))" >/dev/null 2>&1 ;;
	*) scripts/servers/zk.sh stop "$base" >/dev/null 2>&1 ;;
	esac
}
trap cleanup EXIT

server_sh=$PWD/scripts/servers/zk.sh server_port=$base
if [[ $mode == redis ]]; then
	server_port=$((base + 60)) server_sh=$PWD/scripts/servers/redis.sh
	fsync=${DLOCK_TORTURE_REDIS_FSYNC:-always}
	[[ $fsync == off ]] && aof=() || aof=(--appendfsync "$fsync")
	if ((tls)); then
		php -n -d "extension=$PWD/modules/dlock.so" -r 'ob_start(); phpinfo(INFO_MODULES);
			exit(preg_match("/TLS in this build.*Redis: yes/", ob_get_clean()) ? 0 : 1);' ||
			{ echo "torture: --redis --tls: this build has no rediss:// (hiredis without hiredis_ssl; see docs/security.md)"; exit 1; }
		direct=$(scripts/servers/redis.sh start-tls "$server_port" "${aof[@]}") ||
			{ echo "torture: Redis (TLS) did not start"; exit 1; }
		export DLOCK_TORTURE_REDIS_ADMIN=unix://$DLOCK_REDIS_STATE/$server_port/sock
	else
		scripts/servers/redis.sh start "$server_port" "${aof[@]}" >/dev/null ||
			{ echo "torture: Redis did not start"; exit 1; }
		direct="redis://127.0.0.1:$server_port"
	fi
	[[ $fsync == always ]] || echo "torture: Redis durability weakened on purpose: appendfsync $fsync"
	# the "servers" generator's second server, stalled now and then (no proxy)
	if [[ ,${DLOCK_TORTURE_SKIP:-}, != *,servers,* ]]; then
		server2=$((base + 62))
		scripts/servers/redis.sh start "$server2" >/dev/null || { echo "torture: second Redis did not start"; exit 1; }
	fi
	pairs="$((base + 61)):$server_port"
	proxied=${direct/:$server_port/:$((base + 61))}
elif [[ $mode == postgres || $mode == mysql ]]; then
	if [[ $mode == postgres ]]; then
		server_port=$((base + 70)) server_sh=$PWD/scripts/servers/pg.sh
	else
		server_port=$((base + 80)) server_sh=$PWD/scripts/servers/mysql.sh
	fi
	durable=(--durable)
	if [[ ${DLOCK_TORTURE_SQL_DURABLE:-1} == 0 ]]; then
		durable=()
		echo "torture: $mode durability weakened on purpose: a server kill -9 may forget fencing tokens"
	fi
	start=start
	((tls)) && start=start-tls
	direct=$("$server_sh" "$start" "$server_port" "${durable[@]}") || { echo "torture: $mode did not start"; exit 1; }
	pairs="$((server_port + 1)):$server_port"
	proxied=${direct/:$server_port\//:$((server_port + 1))\/}
elif [[ $mode == ensemble ]]; then
	direct=$(scripts/servers/zk.sh start-ensemble "$base") || { echo "torture: ensemble did not start"; exit 1; }
	pairs="$((base + 50)):$base $((base + 51)):$((base + 1)) $((base + 52)):$((base + 2))"
	proxied="127.0.0.1:$((base + 50)),127.0.0.1:$((base + 51)),127.0.0.1:$((base + 52))"
else
	direct=$(scripts/servers/zk.sh start "$base") || { echo "torture: ZooKeeper did not start"; exit 1; }
	pairs="$((base + 50)):$base"
	proxied="127.0.0.1:$((base + 50))"
fi
control=$((base + 49))
# shellcheck disable=SC2086
"$run/proxy" "$control" $pairs >"$run/proxy.log" 2>&1 &
proxy_pid=$!
for _ in $(seq 50); do grep -q ready "$run/proxy.log" && break; sleep 0.1; done

DLOCK_SO=$PWD/modules/dlock.so php -n -d memory_limit=-1 -d "extension=$PWD/modules/dlock.so" -d extension=posix \
	tests/torture/torture.php "$run" "$seed" "$seconds" "$k" "$mode" "$direct" "$proxied" "$control" \
	"$server_sh" "$server_port" "${server2:-0}" 2> >(grep -v '^$' | tail -40 >&2)
rc=$?
exit $rc
