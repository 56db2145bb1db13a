#!/usr/bin/env bash
# Starts, drives and stops a throwaway php-fpm (Debian's php-fpmX.Y) with this
# build of dlock, for the tests that need real workers (tests/08_fpm): forked
# children, pm.max_requests recycling, request_terminate_timeout kills and
# fastcgi_finish_request(), none of which `php -S` has.
#
#   scripts/servers/fpm.sh start PORT [pool option ...]
#       php-fpmX.Y -n -R (as root), pm = static, pm.max_children = 2, listening on
#       127.0.0.1:PORT, clear_env = no (DLOCK_TEST_HOSTS etc. reach the scripts),
#       catch_workers_output = yes. Each pool option is one "key=value" line of
#       the pool section and overrides the default of that key, e.g.
#       pm.max_requests=3  request_terminate_timeout=2s  pm.max_children=1
#       'php_admin_value[dlock.persistent]=0'
#       Waits (bounded) until the port accepts connections; prints the master's pid.
#   scripts/servers/fpm.sh stop PORT
#       SIGTERM to the master (which terminates its workers), waits until the
#       master, its workers and the listening port are gone; SIGKILL by pid after
#       the deadline. Stopping a pool that is not running is not an error.
#   scripts/servers/fpm.sh request PORT SCRIPT [QUERY_STRING]
#       One GET of SCRIPT (an absolute path) through cgi-fcgi; prints the body
#       (the response headers are stripped) and exits with cgi-fcgi's status
#       (104 when the worker was killed mid-request), 124 after
#       DLOCK_FPM_REQUEST_TIMEOUT seconds (default 60).
#   scripts/servers/fpm.sh log PORT     prints the pool's error log (worker output, kills)
#
# DLOCK_SO: the extension to load (default: modules/dlock.so of this checkout).
# DLOCK_FPM_BIN: the php-fpm binary (default: php-fpmX.Y for the X.Y of `php`
# on PATH, Debian's name, else php-fpm).
# State lives in ${DLOCK_FPM_STATE:-/tmp/dlock-fpm}/<port>/ (fpm.conf, fpm.pid,
# fpm.log, workers). Nothing here binds or contacts any address but 127.0.0.1.
set -uo pipefail

STATE_ROOT=${DLOCK_FPM_STATE:-/tmp/dlock-fpm}
HOST=127.0.0.1
# the php-fpm of the PHP at hand: DLOCK_FPM_BIN, else php-fpmX.Y for `php`'s X.Y
fpm_bin() {
	local v
	[[ -n ${DLOCK_FPM_BIN:-} ]] && { echo "$DLOCK_FPM_BIN"; return; }
	v=$(php -n -r 'echo PHP_MAJOR_VERSION, ".", PHP_MINOR_VERSION;' 2>/dev/null)
	if [[ -n $v ]] && command -v "php-fpm$v" >/dev/null; then echo "php-fpm$v"; else echo php-fpm; fi
}
FPM=$(fpm_bin)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SO=${DLOCK_SO:-$ROOT/modules/dlock.so}

die() { echo "fpm.sh: $*" >&2; exit 1; }

port_ok() { [[ $1 =~ ^[0-9]+$ ]] && (($1 > 0 && $1 < 65536)); }

port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

now_us() { echo "${EPOCHREALTIME/./}"; }

alive() { [[ -n $1 ]] && kill -0 "$1" 2>/dev/null; }

# the pids of the master's children (its workers), from /proc (no procps needed)
children() {
	local master=$1 f
	for f in /proc/[0-9]*/stat; do
		# field 4 of stat is the parent pid; the command name (field 2) has no spaces here
		read -r pid _ _ ppid _ <"$f" 2>/dev/null || continue
		[[ $ppid == "$master" ]] && echo "$pid"
	done
}

start() {
	local port=$1
	shift
	port_ok "$port" || die "bad port '$port'"
	command -v "$FPM" >/dev/null || die "$FPM not found (apt-get install php-fpm)"
	[[ -f $SO ]] || die "extension $SO not found (build first, or set DLOCK_SO)"
	local dir=$STATE_ROOT/$port
	# a pool this script left running on the port (an aborted test) goes first
	stop "$port" >/dev/null 2>&1
	port_open "$port" && die "127.0.0.1:$port is in use by something else"
	rm -rf "$dir"
	mkdir -p "$dir" || die "cannot create $dir"

	# defaults, then the caller's options (a later key overrides an earlier one)
	local -A opt=()
	local -a keys=()
	local kv k
	for kv in "listen=$HOST:$port" "pm=static" "pm.max_children=2" "catch_workers_output=yes" \
		"decorate_workers_output=no" "clear_env=no" "$@"; do
		[[ $kv == *=* ]] || die "pool option '$kv' is not key=value"
		k=${kv%%=*}
		k=${k//[[:space:]]/}
		[[ -v "opt[$k]" ]] || keys+=("$k")
		opt[$k]=${kv#*=}
	done
	{
		echo "[global]"
		echo "pid = $dir/fpm.pid"
		echo "error_log = $dir/fpm.log"
		echo "daemonize = yes"
		echo "[dlock$port]"
		for k in "${keys[@]}"; do
			echo "$k = ${opt[$k]}"
		done
	} >"$dir/fpm.conf"

	"$FPM" -n -R -y "$dir/fpm.conf" -d "extension=$SO" -t >"$dir/check.log" 2>&1 ||
		die "bad configuration: $(cat "$dir/check.log")"
	"$FPM" -n -R -y "$dir/fpm.conf" -d "extension=$SO" >>"$dir/fpm.log" 2>&1 ||
		die "php-fpm did not start: $(tail -5 "$dir/fpm.log")"

	local deadline=$(($(now_us) + 15000000)) pid=""
	while (($(now_us) < deadline)); do
		pid=$(cat "$dir/fpm.pid" 2>/dev/null)
		if [[ -n $pid ]] && port_open "$port"; then
			echo "$pid"
			return 0
		fi
		sleep 0.02
	done
	die "php-fpm on port $port did not accept connections within 15 s: $(tail -5 "$dir/fpm.log")"
}

stop() {
	local port=$1
	port_ok "$port" || die "bad port '$port'"
	local dir=$STATE_ROOT/$port pid workers w deadline
	pid=$(cat "$dir/fpm.pid" 2>/dev/null) || return 0
	[[ -n $pid ]] || return 0
	if ! alive "$pid"; then
		rm -f "$dir/fpm.pid"
		return 0
	fi
	# remember the workers: after the deadline they are killed by pid, never by name
	workers=$(children "$pid")
	kill -TERM "$pid" 2>/dev/null
	deadline=$(($(now_us) + 10000000))
	while (($(now_us) < deadline)); do
		if ! alive "$pid" && ! port_open "$port"; then
			local left=""
			for w in $workers; do alive "$w" && left=1; done
			[[ -z $left ]] && break
		fi
		sleep 0.02
	done
	for w in $pid $workers; do
		alive "$w" && kill -KILL "$w" 2>/dev/null
	done
	rm -f "$dir/fpm.pid"
	return 0
}

request() {
	local port=$1 script=$2 query=${3:-}
	port_ok "$port" || die "bad port '$port'"
	[[ $script == /* ]] || die "SCRIPT must be an absolute path"
	command -v cgi-fcgi >/dev/null || die "cgi-fcgi not found (apt-get install libfcgi-bin)"
	local out rc
	out=$(mktemp) || die "mktemp failed"
	SCRIPT_FILENAME=$script SCRIPT_NAME=/${script##*/} REQUEST_METHOD=GET QUERY_STRING=$query \
		REQUEST_URI="/${script##*/}${query:+?$query}" SERVER_PROTOCOL=HTTP/1.1 \
		timeout "${DLOCK_FPM_REQUEST_TIMEOUT:-60}" cgi-fcgi -bind -connect "$HOST:$port" >"$out"
	rc=$?
	# headers end at the first empty line (CRLF); everything after it is the body
	awk 'body { print; next } /^\r?$/ { body = 1 }' "$out"
	rm -f "$out"
	return "$rc"
}

cmd=${1:-}
shift || true
case "$cmd" in
start) (($# >= 1)) || die "usage: fpm.sh start PORT [key=value ...]"; start "$@" ;;
stop) (($# == 1)) || die "usage: fpm.sh stop PORT"; stop "$1" ;;
request) (($# >= 2 && $# <= 3)) || die "usage: fpm.sh request PORT SCRIPT [QUERY_STRING]"; request "$@" ;;
log) (($# == 1)) || die "usage: fpm.sh log PORT"; cat "$STATE_ROOT/$1/fpm.log" 2>/dev/null ;;
*) die "usage: fpm.sh start PORT [key=value ...] | stop PORT | request PORT SCRIPT [QUERY_STRING] | log PORT" ;;
esac
