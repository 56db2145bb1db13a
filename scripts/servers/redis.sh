#!/usr/bin/env bash
# Starts and stops throwaway Redis servers (and a sentinel) on 127.0.0.1 for the
# tests of dlock's Redis backend. Debian's redis-server/redis-sentinel 7.0, no
# systemd: every server is daemonized with a pidfile in its own state dir.
#
#   scripts/servers/redis.sh start PORT [--appendfsync always|everysec|no]
#                                   fresh server (no RDB; AOF only when asked),
#                                   waits for PONG, prints 127.0.0.1:PORT; it also
#                                   listens on the Unix socket <state dir>/sock
#   scripts/servers/redis.sh start-tls PORT [--expired | --appendfsync always|everysec|no]
#                                   as start, but TLS only: tls-port PORT, no plain TCP
#                                   port, a throwaway test CA made in <state dir>-tls
#                                   (tls_certs.sh: server.pem for "localhost" only,
#                                   other-ca.pem signed nothing; --expired: the server
#                                   presents expired.pem instead); client certificates
#                                   optional; prints the verified DSN
#                                   rediss://localhost:PORT?cacert=<dir>/ca.pem
#   scripts/servers/redis.sh stop PORT      SIGTERM by pidfile, waits until the port is closed
#   scripts/servers/redis.sh kill PORT      kill -9 by pidfile, waits until the port is closed
#   scripts/servers/redis.sh restart PORT   starts a stopped/killed server again on the same
#                                   dir and options (its data, if any, is kept)
#   scripts/servers/redis.sh pause PORT     SIGSTOP: the server stalls (connects still complete,
#                                   no command is answered) until resume
#   scripts/servers/redis.sh resume PORT    SIGCONT
#   scripts/servers/redis.sh start-replicated BASE
#                                   master on BASE, replica on BASE+1, sentinel on
#                                   BASE+2 (monitor name "dlock"), waits until the
#                                   replica's link is up, prints 127.0.0.1:BASE
#   scripts/servers/redis.sh failover BASE  asks the sentinel to fail over, waits until it
#                                   names the other node, prints the new master
#   scripts/servers/redis.sh stop-replicated BASE
#
# State lives in ${DLOCK_REDIS_STATE:-/tmp/dlock-redis}/<port>/ (pid, log, args, data).
# Every wait is bounded; nothing here ever binds or contacts any address but 127.0.0.1.
set -uo pipefail

STATE_ROOT=${DLOCK_REDIS_STATE:-/tmp/dlock-redis}
HOST=127.0.0.1
# shellcheck source=server_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/server_lib.sh"
# shellcheck source=tls_certs.sh
. "$(dirname "${BASH_SOURCE[0]}")/tls_certs.sh"

CLI_TLS=() # redis-cli's TLS options for a start-tls server

die() { echo "redis.sh: $*" >&2; exit 1; }

port_ok() { [[ $1 =~ ^[0-9]+$ ]] && (($1 > 0 && $1 < 65536)); }

cli() { # port args...: one bounded redis-cli call on 127.0.0.1
	local port=$1
	shift
	timeout 2 redis-cli -h "$HOST" -p "$port" "${CLI_TLS[@]}" "$@" 2>/dev/null
}

wait_pong() { # port seconds
	local deadline=$((${EPOCHREALTIME/./} + $2 * 1000000))
	while ((${EPOCHREALTIME/./} < deadline)); do
		[[ $(cli "$1" ping) == PONG ]] && return 0
		sleep 0.05
	done
	return 1
}

launch() { # dir: runs the server (or sentinel) recorded in dir/args
	local dir=$1 args=()
	mapfile -t args <"$dir/args"
	rm -f "$dir/pid"
	"${args[@]}" >>"$dir/launch.log" 2>&1
}

# start_server port [extra redis-server args...]
start_server() {
	local port=$1 dir=$STATE_ROOT/$1
	shift
	port_ok "$port" || die "bad port '$port'"
	stop_port "$port" TERM >/dev/null 2>&1
	port_open "$port" && die "port $port is already in use by something else"
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create $dir"
	printf '%s\n' redis-server --port "$port" --bind "$HOST" --save '' --dir "$dir" \
		--daemonize yes --pidfile "$dir/pid" --logfile "$dir/log" \
		--repl-diskless-sync-delay 0 --enable-debug-command local \
		--unixsocket "$dir/sock" --unixsocketperm 700 "$@" >"$dir/args"
	launch "$dir"
	if ! wait_pong "$port" 5; then
		tail -20 "$dir/log" "$dir/launch.log" >&2 2>/dev/null
		die "redis-server on port $port did not start"
	fi
}

# stop_port port TERM|KILL: signals the pid in the pidfile, waits until the port is closed
stop_port() {
	local port=$1 sig=$2 dir=$STATE_ROOT/$1 pid
	[[ -f "$dir/pid" ]] || { port_open "$port" && return 1; return 0; }
	pid=$(cat "$dir/pid")
	# CONT too: a paused server handles the signal only once it runs again
	[[ $pid =~ ^[0-9]+$ ]] && kill -"$sig" "$pid" 2>/dev/null && kill -CONT "$pid" 2>/dev/null
	if ! wait_closed "$port" 5; then
		[[ $pid =~ ^[0-9]+$ ]] && kill -KILL "$pid" 2>/dev/null
		wait_closed "$port" 3 || return 1
	fi
	rm -f "$dir/pid"
	return 0
}

master_of() { # sentinel-port: prints host:port of the master "dlock"
	cli "$1" sentinel get-master-addr-by-name dlock | paste -sd: -
}

cmd=${1:-}
port=${2:-}
case "$cmd" in
start)
	shift 2 || die "usage: start PORT [--appendfsync always|everysec|no]"
	extra=()
	if (($#)); then
		[[ $1 == --appendfsync && $# -eq 2 && $2 =~ ^(always|everysec|no)$ ]] ||
			die "usage: start PORT [--appendfsync always|everysec|no]"
		extra=(--appendonly yes --appendfsync "$2")
	fi
	start_server "$port" "${extra[@]}"
	echo "$HOST:$port"
	;;
start-tls)
	usage="usage: start-tls PORT [--expired | --appendfsync always|everysec|no]"
	shift 2 || die "$usage"
	cert=server extra=()
	if (($#)); then
		if [[ $1 == --expired && $# -eq 1 ]]; then
			cert=expired
		elif [[ $1 == --appendfsync && $# -eq 2 && $2 =~ ^(always|everysec|no)$ ]]; then
			extra=(--appendonly yes --appendfsync "$2")
		else
			die "$usage"
		fi
	fi
	port_ok "$port" || die "$usage"
	certs=$STATE_ROOT/$port-tls
	rm -rf "$certs"
	mkdir -p "$certs" || die "cannot create $certs"
	tls_certs "$certs" || die "cannot make the test certificates in $certs (see $certs/tls.log)"
	CLI_TLS=(--tls --insecure) # readiness only: the expired certificate must answer too
	start_server "$port" --port 0 --tls-port "$port" --tls-cert-file "$certs/$cert.pem" \
		--tls-key-file "$certs/$cert.key" --tls-ca-cert-file "$certs/ca.pem" --tls-auth-clients optional "${extra[@]}"
	echo "rediss://localhost:$port?cacert=$certs/ca.pem"
	;;
stop | kill)
	port_ok "$port" || die "usage: $cmd PORT"
	sig=TERM
	[[ $cmd == kill ]] && sig=KILL
	stop_port "$port" "$sig" || die "server on port $port did not stop"
	;;
pause | resume)
	port_ok "$port" || die "usage: $cmd PORT"
	pid=$(cat "$STATE_ROOT/$port/pid" 2>/dev/null)
	[[ $pid =~ ^[0-9]+$ ]] || die "no server running on port $port"
	sig=STOP
	[[ $cmd == resume ]] && sig=CONT
	kill -"$sig" "$pid" || die "cannot signal the server on port $port"
	;;
restart)
	port_ok "$port" || die "usage: restart PORT"
	dir=$STATE_ROOT/$port
	[[ -f "$dir/args" ]] || die "no server state for port $port (start it first)"
	stop_port "$port" TERM || die "server on port $port did not stop"
	grep -qx -- --tls-port "$dir/args" && CLI_TLS=(--tls --insecure)
	launch "$dir"
	wait_pong "$port" 5 || { tail -20 "$dir/log" >&2; die "redis-server on port $port did not come back"; }
	echo "$HOST:$port"
	;;
start-replicated)
	port_ok "$port" || die "usage: start-replicated BASE"
	base=$port replica=$((port + 1)) sport=$((port + 2))
	stop_port "$sport" TERM >/dev/null 2>&1
	start_server "$base"
	start_server "$replica" --replicaof "$HOST" "$base"
	deadline=$((SECONDS + 15))
	until cli "$replica" info replication | grep -q '^master_link_status:up'; do
		((SECONDS < deadline)) || die "replica on $replica did not link to $base"
		sleep 0.05
	done
	dir=$STATE_ROOT/$sport
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create $dir"
	# the sentinel rewrites its config file: it is written fresh on every start
	cat >"$dir/sentinel.conf" <<-EOF
		port $sport
		bind $HOST
		daemonize yes
		pidfile $dir/pid
		logfile $dir/log
		dir $dir
		sentinel monitor dlock $HOST $base 1
		sentinel down-after-milliseconds dlock 1000
		sentinel failover-timeout dlock 5000
	EOF
	printf '%s\n' redis-sentinel "$dir/sentinel.conf" >"$dir/args"
	launch "$dir"
	wait_pong "$sport" 5 || { tail -20 "$dir/log" >&2; die "sentinel on port $sport did not start"; }
	# wait until the sentinel knows the replica, else a failover has no candidate
	deadline=$((SECONDS + 15))
	until cli "$sport" sentinel master dlock | grep -A1 -x 'num-slaves' | tail -1 | grep -qx 1; do
		((SECONDS < deadline)) || die "sentinel on $sport did not discover the replica"
		sleep 0.05
	done
	echo "$HOST:$base"
	;;
failover)
	port_ok "$port" || die "usage: failover BASE"
	sport=$((port + 2))
	old=$(master_of "$sport")
	[[ -n "$old" ]] || die "sentinel on $sport does not answer"
	deadline=$((SECONDS + 15))
	# NOGOODSLAVE while the sentinel has not yet seen the replica as healthy: retry
	until [[ $(cli "$sport" sentinel failover dlock) == OK ]]; do
		((SECONDS < deadline)) || die "sentinel refused to fail over"
		sleep 0.1
	done
	until new=$(master_of "$sport") && [[ -n "$new" && "$new" != "$old" ]]; do
		((SECONDS < deadline)) || die "sentinel still names $old as master"
		sleep 0.05
	done
	echo "$new"
	;;
stop-replicated)
	port_ok "$port" || die "usage: stop-replicated BASE"
	rc=0
	for p in $((port + 2)) $((port + 1)) "$port"; do
		stop_port "$p" TERM || { echo "redis.sh: port $p did not stop" >&2; rc=1; }
		rm -rf "${STATE_ROOT:?}/$p"
	done
	exit $rc
	;;
*)
	sed -n '2,25p' "$0" >&2
	exit 2
	;;
esac
