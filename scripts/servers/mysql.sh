#!/usr/bin/env bash
# Starts and stops throwaway MariaDB servers on 127.0.0.1 for the tests of
# dlock's MySQL backend. Debian's mariadb-server 10.11, no systemd, works as
# root (mariadbd --user=root): every server runs in the background with its own
# data dir, socket, pidfile and error log.
#
#   scripts/servers/mysql.sh start PORT [--durable] [--lower-case-names]
#                                   fresh server: new data dir, database "dlock",
#                                   user dlock/dlock on '%' (ALL on dlock.*,
#                                   CONNECTION ADMIN and PROCESS on *.*); waits
#                                   for a real login as that user and prints the
#                                   DSN mysql://dlock:dlock@127.0.0.1:PORT/dlock
#                                   Runs with innodb_flush_log_at_trx_commit=0
#                                   (the log reaches the kernel once a second);
#                                   --durable sets it to 2: a commit's log has
#                                   reached the kernel before it returns and
#                                   survives a kill -9 of the server (only a
#                                   machine crash would lose it).
#                                   --lower-case-names runs the server with
#                                   lower_case_table_names=1 (Windows' default:
#                                   database names are stored lower-cased and
#                                   compared without regard to case).
#   scripts/servers/mysql.sh start PORT --primary
#                                   as start, with a binary log (server id PORT):
#                                   a server replicas can follow
#   scripts/servers/mysql.sh start PORT --replica-of PRIMARY_PORT
#                                   as start, then replicates the --primary server
#                                   on PRIMARY_PORT from its current binlog position
#                                   (as root; read_only stays OFF) and waits until
#                                   both replication threads run
#   scripts/servers/mysql.sh start-tls PORT as start, with TLS and a throwaway test CA made in
#                                   the state dir (tls_certs.sh: ca.pem signed
#                                   server.pem for "localhost" only, other-ca.pem
#                                   signed nothing) and require_secure_transport=ON
#                                   (TCP logins without TLS are refused); prints the
#                                   verified DSN mysql://dlock:dlock@localhost:PORT/dlock?ssl-mode=VERIFY_IDENTITY&ssl-ca=DIR/ca.pem
#   scripts/servers/mysql.sh stop PORT      SIGTERM by pidfile, waits for the exit, removes
#                                   the state dir
#   scripts/servers/mysql.sh kill PORT      kill -9 by pidfile, waits until the port is
#                                   closed (the data dir is kept for restart)
#   scripts/servers/mysql.sh restart PORT   starts a stopped/killed server again on the same
#                                   data dir, waits for a login, prints the DSN
#
# State lives in ${TMPDIR:-/tmp}/dlock-mysql-<port>/ (data/, tmp/, pid, sock, err, args).
# Only the DSN goes to stdout; diagnostics go to stderr. Every wait is bounded;
# nothing here binds or contacts any address but 127.0.0.1.
set -uo pipefail

HOST=127.0.0.1
# shellcheck source=server_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/server_lib.sh"
# shellcheck source=tls_certs.sh
. "$(dirname "${BASH_SOURCE[0]}")/tls_certs.sh"
USER_NAME=dlock
USER_PASS=dlock
DB_NAME=dlock

die() { echo "mysql.sh: $*" >&2; exit 1; }

port_ok() { [[ $1 =~ ^[0-9]+$ ]] && (($1 > 0 && $1 < 65536)); }

state_dir() { echo "${TMPDIR:-/tmp}/dlock-mysql-$1"; }

sql() { # port user password sql: one bounded client call over TCP (never the socket)
	local pass=() ssl=()
	[[ -n $3 ]] && pass=("-p$3")
	[[ -f "$(state_dir "$1")/ca.pem" ]] && ssl=(--ssl) # a start-tls server takes TLS only
	timeout 5 mariadb --no-defaults --connect-timeout=2 -h "$HOST" -P "$1" -u "$2" "${pass[@]}" "${ssl[@]}" \
		-N -B -e "$4" 2>/dev/null
}

# wait_login port user password seconds: a real login and query, not
# mariadb-admin ping (which exits 0 on "Access denied")
wait_login() {
	local deadline=$((${EPOCHREALTIME/./} + $4 * 1000000))
	while ((${EPOCHREALTIME/./} < deadline)); do
		[[ $(sql "$1" "$2" "$3" 'SELECT 1') == 1 ]] && return 0
		sleep 0.05
	done
	return 1
}

wait_gone() { # pid seconds: kill -0 succeeds on a zombie, so look at its state too
	local deadline=$((${EPOCHREALTIME/./} + $2 * 1000000)) st
	while ((${EPOCHREALTIME/./} < deadline)); do
		st=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
		[[ $st == Z* ]] && return 0
		sleep 0.05
	done
	return 1
}

launch() { # dir: runs the server recorded in dir/args in the background
	local dir=$1 args=()
	mapfile -t args <"$dir/args"
	rm -f "$dir/pid"
	# setsid: the server outlives this script and ignores the caller's ^C
	setsid "${args[@]}" </dev/null >>"$dir/launch.log" 2>&1 &
}

# stop_port port TERM|KILL: signals the pid in the pidfile, waits for its exit
stop_port() {
	local port=$1 sig=$2 dir pid
	dir=$(state_dir "$port")
	[[ -f "$dir/pid" ]] || { port_open "$port" && return 1; return 0; }
	pid=$(cat "$dir/pid")
	[[ $pid =~ ^[0-9]+$ ]] || return 1
	kill -"$sig" "$pid" 2>/dev/null
	if ! wait_gone "$pid" 20; then
		kill -KILL "$pid" 2>/dev/null
		wait_gone "$pid" 5 || return 1
	fi
	wait_closed "$port" 5 || return 1
	rm -f "$dir/pid"
	return 0
}

start_server() { # port innodb_flush_log_at_trx_commit lower_case_table_names [extra mariadbd args...]
	local port=$1 flush=$2 lctn=$3 dir
	shift 3
	dir=$(state_dir "$port")
	stop_port "$port" TERM >/dev/null 2>&1
	port_open "$port" && die "port $port is already in use by something else"
	rm -rf "$dir"
	# a tmpdir of its own: servers bootstrapping at once in a shared /tmp
	# can collide on temporary table names ("#sql-temptable-<pid>-...", with
	# pids from other pid namespaces) and fail ("Unknown table
	# 'mysql.tmp_user_sys'", 1 in 9 of three at once); the data dir must be
	# made with the same lower_case_table_names as the server
	mkdir -p "$dir/tmp" || die "cannot create $dir"
	if [[ " $* " == *" --tls "* ]]; then
		tls_certs "$dir" || die "cannot make the test certificates in $dir"
		set -- "${@/--tls/--ssl-ca=$dir/ca.pem}" --ssl-cert="$dir/server.pem" --ssl-key="$dir/server.key" \
			--require-secure-transport=ON
	fi
	if ! mariadb-install-db --no-defaults --datadir="$dir/data" --tmpdir="$dir/tmp" --user=root \
		--auth-root-authentication-method=normal --skip-test-db --skip-name-resolve \
		--lower-case-table-names="$lctn" \
		>"$dir/install.log" 2>&1; then
		tail -20 "$dir/install.log" >&2
		die "mariadb-install-db failed for port $port"
	fi
	printf '%s\n' mariadbd --no-defaults --user=root --datadir="$dir/data" --tmpdir="$dir/tmp" --port="$port" \
		--bind-address="$HOST" --socket="$dir/sock" --pid-file="$dir/pid" --log-error="$dir/err" \
		--skip-name-resolve --innodb-buffer-pool-size=32M --innodb-flush-log-at-trx-commit="$flush" \
		--lower-case-table-names="$lctn" "$@" >"$dir/args"
	launch "$dir"
	# root@127.0.0.1 has no password on a fresh data dir
	wait_login "$port" root "" 15 || { tail -20 "$dir/err" >&2; die "mariadbd on port $port did not start"; }
	sql "$port" root "" "CREATE DATABASE IF NOT EXISTS $DB_NAME;
		CREATE USER '$USER_NAME'@'%' IDENTIFIED BY '$USER_PASS';
		GRANT ALL ON $DB_NAME.* TO '$USER_NAME'@'%';
		GRANT CONNECTION ADMIN, PROCESS ON *.* TO '$USER_NAME'@'%'" >/dev/null ||
		die "cannot create database and user on port $port"
	wait_login "$port" "$USER_NAME" "$USER_PASS" 5 || die "user $USER_NAME cannot log in on port $port"
}

start_replica() { # port primary_port: follows the primary from its current binlog position
	local port=$1 primary=$2 pos file off deadline st
	pos=$(sql "$primary" root "" "SHOW MASTER STATUS") || die "no binlog on port $primary (start it --primary)"
	read -r file off _ <<<"$pos"
	[[ -n $file && $off =~ ^[0-9]+$ ]] || die "no binlog on port $primary (start it --primary)"
	sql "$port" root "" "CHANGE MASTER TO MASTER_HOST='$HOST', MASTER_PORT=$primary,
		MASTER_USER='root', MASTER_PASSWORD='', MASTER_LOG_FILE='$file', MASTER_LOG_POS=$off,
		MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1; START SLAVE" >/dev/null ||
		die "cannot make port $port a replica of port $primary"
	deadline=$((${EPOCHREALTIME/./} + 15000000))
	while ((${EPOCHREALTIME/./} < deadline)); do
		# columns 11 and 12: Slave_IO_Running, Slave_SQL_Running
		st=$(sql "$port" root "" "SHOW SLAVE STATUS" | awk -F'\t' '{print $11 " " $12}')
		[[ $st == "Yes Yes" ]] && return 0
		sleep 0.05
	done
	echo "$st" >&2
	die "replication from port $primary to port $port did not start"
}

cmd=${1:-}
port=${2:-}
case "$cmd" in
start)
	usage="usage: start PORT [--durable | --primary | --replica-of PRIMARY_PORT] [--lower-case-names]"
	port_ok "$port" || die "$usage"
	flush=0 lctn=0 extra=() primary=
	set -- "${@:3}"
	while (($#)); do
		case "$1" in
		--durable) flush=2 ;;
		--lower-case-names) lctn=1 ;;
		--primary) extra+=(--log-bin=binlog --server-id="$port") ;;
		--replica-of)
			port_ok "${2:-}" || die "$usage"
			primary=$2 extra+=(--server-id="$port")
			shift
			;;
		*) die "$usage" ;;
		esac
		shift
	done
	start_server "$port" "$flush" "$lctn" "${extra[@]}"
	[[ -z $primary ]] || start_replica "$port" "$primary"
	echo "mysql://$USER_NAME:$USER_PASS@$HOST:$port/$DB_NAME"
	;;
start-tls)
	port_ok "$port" && { (($# == 2)) || [[ $# -eq 3 && $3 == --durable ]]; } || die "usage: start-tls PORT [--durable]"
	start_server "$port" "$([[ ${3:-} == --durable ]] && echo 2 || echo 0)" 0 --tls
	echo "mysql://$USER_NAME:$USER_PASS@localhost:$port/$DB_NAME?ssl-mode=VERIFY_IDENTITY&ssl-ca=$(state_dir "$port")/ca.pem"
	;;
stop)
	port_ok "$port" || die "usage: stop PORT"
	stop_port "$port" TERM || die "server on port $port did not stop"
	rm -rf "$(state_dir "$port")"
	;;
kill)
	port_ok "$port" || die "usage: kill PORT"
	stop_port "$port" KILL || die "server on port $port did not die"
	;;
restart)
	port_ok "$port" || die "usage: restart PORT"
	dir=$(state_dir "$port")
	[[ -f "$dir/args" ]] || die "no server state for port $port (start it first)"
	stop_port "$port" TERM || die "server on port $port did not stop"
	launch "$dir"
	wait_login "$port" "$USER_NAME" "$USER_PASS" 30 ||
		{ tail -20 "$dir/err" >&2; die "mariadbd on port $port did not come back"; }
	echo "mysql://$USER_NAME:$USER_PASS@$HOST:$port/$DB_NAME"
	;;
*)
	sed -n '2,46p' "$0" >&2
	exit 2
	;;
esac
