#!/usr/bin/env bash
# Starts and stops throwaway PostgreSQL servers on 127.0.0.1 for the tests of
# dlock's PostgreSQL backend. Debian's postgresql (any major), no systemd. initdb and
# pg_ctl refuse to run as root, so they run as the postgres user (runuser);
# the data dir is owned by postgres, the rest of this script works as root.
#
#   scripts/servers/pg.sh start PORT [--durable]
#                                   fresh cluster: initdb, role dlock/dlock
#                                   (LOGIN), database dlock owned by it; waits
#                                   for a real login as that role and prints the
#                                   DSN postgres://dlock:dlock@127.0.0.1:PORT/dlock
#                                   Runs with fsync=off, full_page_writes=off and
#                                   synchronous_commit=off; --durable keeps
#                                   synchronous_commit on, so a commit has reached
#                                   the kernel before it returns and survives a
#                                   kill -9 of the server (fsync stays off: only a
#                                   machine crash would lose it).
#   scripts/servers/pg.sh start-tls PORT [--durable]
#                                   as start, with ssl=on and a throwaway test CA
#                                   made in the state dir (tls_certs.sh: ca.pem signed server.pem for
#                                   "localhost" only, other-ca.pem signed nothing);
#                                   TCP logins without TLS are rejected (pg_hba
#                                   hostnossl reject); prints the verified DSN
#                                   postgres://dlock:dlock@localhost:PORT/dlock?sslmode=verify-full&sslrootcert=DIR/ca.pem
#   scripts/servers/pg.sh stop PORT         fast shutdown (SIGINT) by postmaster.pid, waits
#                                   until the postmaster and its children are gone,
#                                   removes the state dir
#   scripts/servers/pg.sh kill PORT         kill -9 of the postmaster and of every child it
#                                   had, waits until all are gone and the port is
#                                   closed (the data dir is kept for restart)
#   scripts/servers/pg.sh restart PORT      starts a stopped/killed server again on the same
#                                   data dir and options (crash recovery after a
#                                   kill), waits for a login, prints the DSN
#   scripts/servers/pg.sh start-standby PORT PRIMARY_PORT
#                                   a hot standby of the server this script runs on
#                                   PRIMARY_PORT (pg_basebackup -R, streaming
#                                   replication), read-only logins allowed; waits
#                                   for a login and prints its DSN. Stop it with
#                                   "stop PORT"
#   scripts/servers/pg.sh start-pooler PORT PG_PORT
#                                   PgBouncer on PORT in front of the server on
#                                   PG_PORT, with two databases for the role dlock:
#                                   dlock_tx (pool_mode=transaction) and dlock_session
#                                   (pool_mode=session); prints the DSN of dlock_tx.
#                                   It drops a client's "options" startup parameter
#                                   (ignore_startup_parameters, as deployments set it
#                                   for clients that send one) instead of refusing it
#   scripts/servers/pg.sh stop-pooler PORT  stops that PgBouncer, removes its state dir
#
# What a kill -9 of the postmaster alone does (measured on 15.18): its backends
# are not killed with it, but each one watches the postmaster-death pipe and
# exits on its own within a few ms (an idle backend sends its client "FATAL:
# terminating connection due to unexpected postmaster exit" first; a backend
# waiting for a lock exits from the wait too). A backend's advisory locks are
# in shared memory and die with the backends: no other session could take them
# meanwhile (nothing new is accepted) and a restarted server starts with none.
# A new postmaster refuses to start while an old backend is still attached to
# the old shared memory, so "kill" kills the children too and waits for them:
# a crash, then a clean slate for "restart".
#
# State lives in ${TMPDIR:-/tmp}/dlock-pg-<port>/ (data/, the socket, log, args).
# Only the DSN goes to stdout; diagnostics go to stderr. Every wait is bounded;
# nothing here binds or contacts any address but 127.0.0.1 (and the socket dir).
set -uo pipefail

HOST=127.0.0.1
# shellcheck source=server_lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/server_lib.sh"
# shellcheck source=tls_certs.sh
. "$(dirname "${BASH_SOURCE[0]}")/tls_certs.sh"
ROLE=dlock
ROLE_PASS=dlock
DB_NAME=dlock
# the server's bin dir: DLOCK_PG_BIN, else the newest /usr/lib/postgresql/<N>/bin
# with an initdb (Debian 12 has 15, Debian 13 17, sid 18)
pg_bin() {
	local d best="" n bestn=0
	[[ -n ${DLOCK_PG_BIN:-} ]] && { echo "$DLOCK_PG_BIN"; return; }
	for d in /usr/lib/postgresql/*/bin; do
		n=${d#/usr/lib/postgresql/}
		n=${n%%/*}
		[[ $n =~ ^[0-9]+$ && -x $d/initdb ]] && ((n > bestn)) && { bestn=$n; best=$d; }
	done
	echo "${best:-/usr/lib/postgresql/15/bin}"
}
BIN=$(pg_bin)

die() { echo "pg.sh: $*" >&2; exit 1; }

port_ok() { [[ $1 =~ ^[0-9]+$ ]] && (($1 > 0 && $1 < 65536)); }

state_dir() { echo "${TMPDIR:-/tmp}/dlock-pg-$1"; }

as_postgres() { # command...: initdb and pg_ctl refuse root
	if [[ $(id -u) -eq 0 ]]; then
		runuser -u postgres -- "$@"
	else
		"$@"
	fi
}

# wait_login port seconds: a real login as the test role over TCP and a query
wait_login() {
	local deadline=$((${EPOCHREALTIME/./} + $2 * 1000000))
	while ((${EPOCHREALTIME/./} < deadline)); do
		[[ $(PGPASSWORD=$ROLE_PASS PGCONNECT_TIMEOUT=2 timeout 5 psql -X -At \
			"host=$HOST port=$1 user=$ROLE dbname=$DB_NAME" -c 'SELECT 1' 2>/dev/null) == 1 ]] && return 0
		sleep 0.05
	done
	return 1
}

gone() { # pid: not running, or a zombie (kill -0 succeeds on zombies)
	local st
	st=$(ps -o stat= -p "$1" 2>/dev/null) || return 0
	[[ $st == Z* ]]
}

wait_gone() { # seconds pid...
	local deadline=$((${EPOCHREALTIME/./} + $1 * 1000000)) p left
	shift
	while :; do
		left=0
		for p in "$@"; do gone "$p" || left=1; done
		((left)) || return 0
		((${EPOCHREALTIME/./} < deadline)) || return 1
		sleep 0.02
	done
}

children() { # pid: its children's pids, from /proc (each backend is its own session)
	local f
	for f in /proc/[0-9]*/stat; do
		# field 4 is the ppid; the command in field 2 is "(postgres)"
		{ read -r -a st <"$f"; } 2>/dev/null || continue # a process may exit meanwhile
		[[ ${st[3]:-} == "$1" ]] && echo "${st[0]}"
	done
}

postmaster_pid() { # dir: the pid in postmaster.pid, if any
	local pid
	[[ -f "$1/data/postmaster.pid" ]] || return 1
	pid=$(head -1 "$1/data/postmaster.pid")
	[[ $pid =~ ^[0-9]+$ ]] && echo "$pid"
}

launch() { # dir: starts the server recorded in dir/args, waits (pg_ctl -w) until it serves
	local dir=$1 opts pid
	opts=$(cat "$dir/args")
	# a postmaster.pid and socket lock file left by a kill -9 whose pid is gone
	# (or a zombie, which the new postmaster would take for a running server)
	# are stale
	if pid=$(postmaster_pid "$dir") && gone "$pid"; then
		rm -f "$dir/data/postmaster.pid" "$dir"/.s.PGSQL.*
	fi
	as_postgres "$BIN/pg_ctl" -D "$dir/data" -o "$opts" -l "$dir/log" -w -t 20 start \
		>>"$dir/launch.log" 2>&1
}

# stop_port port INT|KILL: signals the postmaster (and, for KILL, every child it
# had), waits until they are gone and the port is closed
stop_port() {
	local port=$1 sig=$2 dir pid kids
	dir=$(state_dir "$port")
	pid=$(postmaster_pid "$dir") || { port_open "$port" && return 1; return 0; }
	if gone "$pid"; then
		rm -f "$dir/data/postmaster.pid" "$dir"/.s.PGSQL.*
		wait_closed "$port" 5
		return
	fi
	mapfile -t kids < <(children "$pid")
	kill -"$sig" "$pid" 2>/dev/null
	[[ $sig == KILL ]] && ((${#kids[@]})) && kill -KILL "${kids[@]}" 2>/dev/null
	if ! wait_gone 20 "$pid" "${kids[@]}"; then
		kill -KILL "$pid" "${kids[@]}" 2>/dev/null
		wait_gone 5 "$pid" "${kids[@]}" || return 1
	fi
	wait_closed "$port" 5 || return 1
	[[ $sig == KILL ]] && rm -f "$dir/data/postmaster.pid" "$dir"/.s.PGSQL.*
	return 0
}

# fresh_dir port dir: stops what this script runs on port, and makes dir
# anew, owned by the postgres user
fresh_dir() {
	local port=$1 dir=$2
	stop_port "$port" INT >/dev/null 2>&1
	port_open "$port" && die "port $port is already in use by something else"
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create $dir"
	chown postgres: "$dir" 2>/dev/null
	chmod 700 "$dir"
}

start_server() { # port synchronous_commit [tls]
	local port=$1 sync=$2 tls=${3:-} dir ssl=
	dir=$(state_dir "$port")
	fresh_dir "$port" "$dir"
	as_postgres test -w "$dir" || die "$dir is not writable by the postgres user (is ${TMPDIR:-/tmp} reachable for it?)"
	if ! as_postgres "$BIN/initdb" -D "$dir/data" -U postgres --auth-local=trust \
		--auth-host=scram-sha-256 -N --no-instructions >"$dir/initdb.log" 2>&1; then
		tail -n 20 "$dir/initdb.log" >&2
		die "initdb failed for port $port"
	fi
	if [[ $tls == tls ]]; then
		tls_certs "$dir" || die "cannot make the test certificates in $dir"
		chown postgres: "$dir"/*.pem "$dir"/*.key
		# TLS or nothing over TCP; the socket stays trusted (setup below)
		printf '%s\n' 'local all all trust' "hostssl all all $HOST/32 scram-sha-256" \
			"hostnossl all all $HOST/32 reject" >"$dir/data/pg_hba.conf"
		ssl="-c ssl=on -c ssl_cert_file=$dir/server.pem -c ssl_key_file=$dir/server.key"
	fi
	echo "-p $port -k $dir -c listen_addresses=$HOST -c fsync=off -c synchronous_commit=$sync -c full_page_writes=off $ssl" >"$dir/args"
	if ! launch "$dir"; then
		tail -n 20 "$dir/log" "$dir/launch.log" >&2 2>/dev/null
		die "postgres on port $port did not start"
	fi
	# postgres may log in over the socket without a password (auth-local=trust)
	if ! timeout 10 psql -X -q -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 \
		-c "CREATE ROLE $ROLE LOGIN PASSWORD '$ROLE_PASS'" -c "CREATE DATABASE $DB_NAME OWNER $ROLE" \
		>"$dir/setup.log" 2>&1; then
		cat "$dir/setup.log" >&2
		die "cannot create role and database on port $port"
	fi
	wait_login "$port" 10 || { tail -n 20 "$dir/log" >&2; die "role $ROLE cannot log in on port $port"; }
}

# start_standby port primary_port: base backup of the primary, started as a
# hot standby that streams from it
start_standby() {
	local port=$1 pport=$2 dir pdir
	dir=$(state_dir "$port")
	pdir=$(state_dir "$pport")
	[[ -f "$pdir/args" ]] || die "no server of this script on port $pport"
	fresh_dir "$port" "$dir"
	# the primary's initdb lets postgres in over its socket, replication too
	if ! as_postgres timeout 60 "$BIN/pg_basebackup" -h "$pdir" -p "$pport" -U postgres \
		-D "$dir/data" -R -X stream --checkpoint=fast >"$dir/basebackup.log" 2>&1; then
		cat "$dir/basebackup.log" >&2
		die "pg_basebackup from port $pport failed"
	fi
	echo "-p $port -k $dir -c listen_addresses=$HOST -c fsync=off -c hot_standby=on" >"$dir/args"
	if ! launch "$dir"; then
		tail -n 20 "$dir/log" "$dir/launch.log" >&2 2>/dev/null
		die "standby on port $port did not start"
	fi
	wait_login "$port" 20 || { tail -n 20 "$dir/log" >&2; die "role $ROLE cannot log in on standby port $port"; }
}

pooler_dir() { echo "${TMPDIR:-/tmp}/dlock-pgbouncer-$1"; }

stop_pooler() { # port
	local dir pid
	dir=$(pooler_dir "$1")
	if [[ -f "$dir/pid" ]] && pid=$(cat "$dir/pid") && [[ $pid =~ ^[0-9]+$ ]]; then
		kill -INT "$pid" 2>/dev/null
		wait_gone 10 "$pid" || { kill -KILL "$pid" 2>/dev/null; wait_gone 5 "$pid"; }
	fi
	wait_closed "$1" 5
}

start_pooler() { # port pg_port
	local port=$1 pgport=$2 dir
	dir=$(pooler_dir "$port")
	command -v pgbouncer >/dev/null || die "pgbouncer is not installed (apt-get install pgbouncer)"
	stop_pooler "$port" >/dev/null 2>&1
	port_open "$port" && die "port $port is already in use by something else"
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create $dir"
	printf '"%s" "%s"\n' "$ROLE" "$ROLE_PASS" >"$dir/users.txt"
	cat >"$dir/pgbouncer.ini" <<-EOF
		[databases]
		dlock_tx = host=$HOST port=$pgport dbname=$DB_NAME pool_mode=transaction
		dlock_session = host=$HOST port=$pgport dbname=$DB_NAME pool_mode=session
		[pgbouncer]
		listen_addr = $HOST
		listen_port = $port
		unix_socket_dir =
		auth_type = scram-sha-256
		auth_file = $dir/users.txt
		pidfile = $dir/pid
		logfile = $dir/log
		default_pool_size = 4
		ignore_startup_parameters = options
		max_client_conn = 100
	EOF
	chown -R postgres: "$dir"
	# pgbouncer refuses to run as root
	as_postgres pgbouncer -d "$dir/pgbouncer.ini" >"$dir/launch.log" 2>&1 ||
		{ cat "$dir/launch.log" "$dir/log" >&2 2>/dev/null; die "pgbouncer on port $port did not start"; }
	local deadline=$((${EPOCHREALTIME/./} + 10000000))
	until [[ $(PGPASSWORD=$ROLE_PASS PGCONNECT_TIMEOUT=2 timeout 5 psql -X -At \
		"host=$HOST port=$port user=$ROLE dbname=dlock_session" -c 'SELECT 1' 2>/dev/null) == 1 ]]; do
		((${EPOCHREALTIME/./} < deadline)) || { tail -n 20 "$dir/log" >&2; die "pgbouncer on port $port does not serve"; }
		sleep 0.05
	done
}

cmd=${1:-}
port=${2:-}
case "$cmd" in
start)
	port_ok "$port" || die "usage: start PORT [--durable]"
	sync=off
	if (($# > 2)); then
		[[ $3 == --durable && $# -eq 3 ]] || die "usage: start PORT [--durable]"
		sync=on
	fi
	start_server "$port" "$sync"
	echo "postgres://$ROLE:$ROLE_PASS@$HOST:$port/$DB_NAME"
	;;
start-tls)
	port_ok "$port" && { (($# == 2)) || [[ $# -eq 3 && $3 == --durable ]]; } || die "usage: start-tls PORT [--durable]"
	start_server "$port" "$([[ ${3:-} == --durable ]] && echo on || echo off)" tls
	echo "postgres://$ROLE:$ROLE_PASS@localhost:$port/$DB_NAME?sslmode=verify-full&sslrootcert=$(state_dir "$port")/ca.pem"
	;;
stop)
	port_ok "$port" || die "usage: stop PORT"
	stop_port "$port" INT || die "server on port $port did not stop"
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
	stop_port "$port" INT || die "server on port $port did not stop"
	launch "$dir" || { tail -n 20 "$dir/log" "$dir/launch.log" >&2; die "postgres on port $port did not come back"; }
	wait_login "$port" 30 || { tail -n 20 "$dir/log" >&2; die "role $ROLE cannot log in on port $port"; }
	echo "postgres://$ROLE:$ROLE_PASS@$HOST:$port/$DB_NAME"
	;;
start-standby)
	port_ok "$port" && port_ok "${3:-}" || die "usage: start-standby PORT PRIMARY_PORT"
	start_standby "$port" "$3"
	echo "postgres://$ROLE:$ROLE_PASS@$HOST:$port/$DB_NAME"
	;;
start-pooler)
	port_ok "$port" && port_ok "${3:-}" || die "usage: start-pooler PORT PG_PORT"
	start_pooler "$port" "$3"
	echo "postgres://$ROLE:$ROLE_PASS@$HOST:$port/dlock_tx"
	;;
stop-pooler)
	port_ok "$port" || die "usage: stop-pooler PORT"
	stop_pooler "$port" || die "pgbouncer on port $port did not stop"
	rm -rf "$(pooler_dir "$port")"
	;;
*)
	sed -n '2,46p' "$0" >&2
	exit 2
	;;
esac
