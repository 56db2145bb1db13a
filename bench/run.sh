#!/usr/bin/env bash
# The dlock benchmark, in one command: installs what it needs (Debian),
# builds the extension and the C contenders, compiles the Curator contender,
# starts its own ZooKeeper (or uses DLOCK_BENCH_HOSTS) and two Redis servers
# (AOF appendfsync always on DLOCK_BENCH_REDIS_PORT, default 21860, and everysec
# on the port after it), PostgreSQL (scripts/servers/pg.sh --durable, DLOCK_BENCH_PG_PORT,
# default 21880) and MariaDB (scripts/servers/mysql.sh, DLOCK_BENCH_MYSQL_PORT, default
# 21890), all stopped on exit, runs every scenario and writes
# bench/results/<date>/{results.md,results.json,handover.png,throughput.png,callgrind.txt,
# fleet.md,fleet.json}.
#   bash bench/run.sh            full run (~10 minutes on 2 cores)
#   bash bench/run.sh --smoke    small sizes, for CI (~1-2 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
DLOCK_EXTRA_PACKAGES="${DLOCK_EXTRA_PACKAGES:-} default-jdk-headless libcurator-recipes-java python3-kazoo gnuplot-nox valgrind redis-server php-redis php-fpm libfcgi-bin iproute2 postgresql mariadb-server php-pgsql php-mysql" \
	scripts/setup.sh
mkdir -p bench/bin
cc="gcc -O2 -std=gnu11 -Wall"
$cc -o bench/bin/floor bench/floor.c -lzookeeper_mt -lpthread
$cc -o bench/bin/recipe bench/recipe.c -lzookeeper_mt -lpthread
$cc -o bench/bin/limit bench/limit.c -lzookeeper_mt -lpthread
$cc -o bench/bin/herd bench/herd.c core/dlock_*.c core/zk/*.c core/redis/*.c core/sql/*.c $(pkg-config --cflags --libs libpq libmariadb) -lzookeeper_mt -lhiredis -lpthread
jars="curator-client curator-framework curator-recipes zookeeper zookeeper-jute guava slf4j-api slf4j-nop
      netty-handler netty-common netty-transport netty-buffer netty-resolver netty-codec
      netty-transport-native-epoll netty-transport-native-unix-common"
CURATOR_CP=$(for j in $jars; do printf '/usr/share/java/%s.jar:' "$j"; done)
export CURATOR_CP
javac -d bench/bin -cp "$CURATOR_CP" bench/CuratorBench.java

hosts=${DLOCK_BENCH_HOSTS:-}
port=""
redis_port=${DLOCK_BENCH_REDIS_PORT:-21860}
redis_started=()
pg_port=${DLOCK_BENCH_PG_PORT:-21880} mysql_port=${DLOCK_BENCH_MYSQL_PORT:-21890} sql_started=()
cleanup() {
	[[ -n "$port" ]] && scripts/servers/zk.sh stop "$port"
	for p in "${redis_started[@]}"; do scripts/servers/redis.sh stop "$p" || true; done
	for s in "${sql_started[@]}"; do scripts/servers/$s || true; done
}
trap cleanup EXIT
if [[ -z "$hosts" ]]; then
	port=${DLOCK_BENCH_PORT:-21850}
	hosts=$(scripts/servers/zk.sh start "$port")
fi
redis_started+=("$redis_port")
redis_always=$(scripts/servers/redis.sh start "$redis_port" --appendfsync always)
redis_started+=("$((redis_port + 1))")
redis_everysec=$(scripts/servers/redis.sh start "$((redis_port + 1))" --appendfsync everysec)
export DLOCK_BENCH_REDIS="always=$redis_always,everysec=$redis_everysec"
sql_started+=("pg.sh stop $pg_port")
pg_dsn=$(scripts/servers/pg.sh start "$pg_port" --durable)
sql_started+=("mysql.sh stop $mysql_port")
mysql_dsn=$(scripts/servers/mysql.sh start "$mysql_port")
export DLOCK_BENCH_SQL="postgres=$pg_dsn,mysql=$mysql_dsn"
smoke=""
[[ "${1:-}" == "--smoke" ]] && smoke="--smoke"
out=bench/results/$(date -u +%Y-%m-%d)${smoke:+-smoke}
[[ -e "$out" ]] && out=$out-$(date -u +%H%M) # a second run that day keeps the first
[[ -n "$smoke" ]] && out=bench/out/smoke
DLOCK_SO=$PWD/modules/dlock.so php -n -d "extension=$PWD/modules/dlock.so" bench/run.php "$hosts" "$out" $smoke
# the fleet rows: a php-fpm pool (256 workers; smoke 8) against every backend with the server's
# default connection limits (its own ZooKeeper on DLOCK_BENCH_FLEET_ZK_PORT, default 21855; the
# pool on DLOCK_BENCH_FLEET_FPM_PORT, default 21856), appended to results.md
DLOCK_SO=$PWD/modules/dlock.so php -n bench/fleet.php "$out" $smoke
cat "$out/fleet.md" >>"$out/results.md"
if [[ -z "$smoke" ]]; then # instructions per cycle: repeatable where timings are not
	{
		echo "# bench/callgrind.sh $hosts ($(date -u '+%Y-%m-%d %H:%M') UTC): Ir per cycle, loop without the lock, lock's share"
		bash bench/callgrind.sh "$hosts"
	} >"$out/callgrind.txt"
	cat "$out/callgrind.txt"
fi
echo "bench: results in $out"
