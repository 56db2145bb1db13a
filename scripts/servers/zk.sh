#!/usr/bin/env bash
# Starts and stops throwaway ZooKeeper servers on 127.0.0.1 for tests, demo and bench.
#
#   scripts/servers/zk.sh start [PORT] [--default-limits | --max-client-cnxns N]
#                                       standalone server, fresh data dir, prints hosts;
#                                       unlimited connections per client address
#                                       (maxClientCnxns=0) unless --default-limits (the
#                                       server's own default, 60) or N is given (the
#                                       php-fpm fleet tests and bench)
#   scripts/servers/zk.sh start-ensemble [BASE] three-node ensemble on BASE, BASE+1, BASE+2
#   scripts/servers/zk.sh stop [PORT|BASE]      stops what start/start-ensemble started, by pid
#   scripts/servers/zk.sh kill-leader BASE      kill -9 the ensemble's leader, prints its node id
#   scripts/servers/zk.sh restart-node BASE ID  restarts one stopped ensemble node
#   scripts/servers/zk.sh crash PORT            kill -9 a standalone server, keeping its data
#   scripts/servers/zk.sh resume PORT           start a crashed standalone server on its old data
#   scripts/servers/zk.sh mode PORT             prints leader/follower/standalone
#
# State lives in ${DLOCK_ZK_STATE:-/tmp/dlock-zk}/<port>/ (config, data, pid, log).
set -euo pipefail

STATE_ROOT=${DLOCK_ZK_STATE:-/tmp/dlock-zk}
JAVA=${JAVA:-java}
CP=/usr/share/java/zookeeper.jar:/usr/share/java/zookeeper-jute.jar:/usr/share/java/slf4j-api.jar:/usr/share/java/slf4j-simple.jar:/usr/share/java/netty-handler.jar:/usr/share/java/netty-common.jar:/usr/share/java/netty-transport.jar:/usr/share/java/netty-buffer.jar:/usr/share/java/netty-resolver.jar:/usr/share/java/netty-codec.jar:/usr/share/java/netty-transport-native-epoll.jar:/usr/share/java/netty-transport-native-unix-common.jar:/usr/share/java/metrics-core.jar:/usr/share/java/commons-io.jar

die() { echo "zk.sh: $*" >&2; exit 1; }

# four-letter word to 127.0.0.1:$1 using bash /dev/tcp (no nc on a fresh machine)
fourlw() {
	local port=$1 cmd=$2 out=""
	exec 3<>"/dev/tcp/127.0.0.1/$port" 2>/dev/null || return 1
	printf '%s' "$cmd" >&3
	out=$(timeout 2 cat <&3 || true)
	exec 3<&- 3>&- || true
	printf '%s\n' "$out"
}

mode() { fourlw "$1" srvr 2>/dev/null | sed -n 's/^Mode: //p'; }

wait_serving() {
	local port=$1 deadline=$((SECONDS + ${2:-30}))
	while ((SECONDS < deadline)); do
		[[ -n "$(mode "$port")" ]] && return 0
		sleep 0.1
	done
	return 1
}

write_cfg() { # dir port extra...
	local dir=$1 port=$2
	shift 2
	mkdir -p "$dir/data"
	{
		echo "tickTime=500"
		echo "initLimit=10"
		echo "syncLimit=5"
		echo "dataDir=$dir/data"
		echo "clientPort=$port"
		echo "clientPortAddress=127.0.0.1"
		echo "admin.enableServer=false"
		echo "4lw.commands.whitelist=srvr,ruok,mntr,cons"
		echo "minSessionTimeout=1000"
		echo "maxSessionTimeout=60000"
		echo "maxClientCnxns=0"
		echo "znode.container.checkIntervalMs=1000"
		printf '%s\n' "$@"
	} >"$dir/zoo.cfg"
}

launch() { # dir main-class
	local dir=$1 main=$2
	# java is a direct child here, so $! is its pid
	"$JAVA" -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
		-Dorg.slf4j.simpleLogger.defaultLogLevel=warn \
		-Dzookeeper.jmx.log4j.disable=true \
		-cp "$CP" "$main" "$dir/zoo.cfg" >"$dir/server.log" 2>&1 &
	echo $! >"$dir/pid"
}

stop_dir() {
	local dir=$1 pid
	[[ -f "$dir/pid" ]] || return 0
	pid=$(cat "$dir/pid")
	if kill "$pid" 2>/dev/null; then
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$dir/pid"
}

cmd=${1:-}
case "$cmd" in
start)
	port=${2:-21810}
	limit=()
	case "${3:-}" in
	"") ;;
	--default-limits) limit=("maxClientCnxns=60") ;; # ZooKeeper 3.8's default, spelled out
	--max-client-cnxns) [[ ${4:-} =~ ^[0-9]+$ ]] || die "--max-client-cnxns needs a number"; limit=("maxClientCnxns=$4") ;;
	*) die "start PORT [--default-limits | --max-client-cnxns N]" ;;
	esac
	dir=$STATE_ROOT/$port
	stop_dir "$dir"
	rm -rf "$dir"
	write_cfg "$dir" "$port" "${limit[@]}" # a later key wins in zoo.cfg
	launch "$dir" org.apache.zookeeper.server.ZooKeeperServerMain
	wait_serving "$port" 30 || { cat "$dir/server.log" >&2; die "server on port $port did not start"; }
	echo "127.0.0.1:$port"
	;;
start-ensemble)
	base=${2:-21820}
	servers=()
	for i in 1 2 3; do
		servers+=("server.$i=127.0.0.1:$((base + 100 + i)):$((base + 200 + i))")
	done
	hosts=""
	for i in 1 2 3; do
		port=$((base + i - 1))
		dir=$STATE_ROOT/ens$base/$i
		stop_dir "$dir"
		rm -rf "$dir"
		write_cfg "$dir" "$port" "${servers[@]}"
		echo "$i" >"$dir/data/myid"
		echo "$port" >"$dir/port"
		launch "$dir" org.apache.zookeeper.server.quorum.QuorumPeerMain
		hosts+="${hosts:+,}127.0.0.1:$port"
	done
	for i in 1 2 3; do
		wait_serving $((base + i - 1)) 60 || die "ensemble node $i did not start"
	done
	echo "$hosts"
	;;
stop)
	port=${2:-21810}
	stop_dir "$STATE_ROOT/$port"
	for i in 1 2 3; do stop_dir "$STATE_ROOT/ens$port/$i"; done
	rm -rf "$STATE_ROOT/$port" "$STATE_ROOT/ens$port"
	;;
kill-leader)
	base=${2:-21820}
	for i in 1 2 3; do
		if [[ "$(mode $((base + i - 1)))" == leader ]]; then
			kill -9 "$(cat "$STATE_ROOT/ens$base/$i/pid")"
			rm -f "$STATE_ROOT/ens$base/$i/pid"
			echo "$i"
			exit 0
		fi
	done
	die "no leader found"
	;;
restart-node)
	base=${2:-21820} i=${3:?node id}
	dir=$STATE_ROOT/ens$base/$i
	launch "$dir" org.apache.zookeeper.server.quorum.QuorumPeerMain
	wait_serving "$(cat "$dir/port")" 60 || die "node $i did not come back"
	;;
crash)
	port=${2:-21810}
	dir=$STATE_ROOT/$port
	[[ -f "$dir/pid" ]] || die "no server on port $port"
	kill -9 "$(cat "$dir/pid")"
	rm -f "$dir/pid"
	;;
resume)
	port=${2:-21810}
	dir=$STATE_ROOT/$port
	[[ -f "$dir/zoo.cfg" ]] || die "no server state for port $port"
	launch "$dir" org.apache.zookeeper.server.ZooKeeperServerMain
	wait_serving "$port" 30 || die "server on port $port did not come back"
	;;
mode)
	mode "${2:-21810}"
	;;
*)
	sed -n '2,19p' "$0" >&2
	exit 2
	;;
esac
