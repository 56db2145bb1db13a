# scripts/servers/server_lib.sh: what the throwaway-server scripts (redis.sh, pg.sh,
# mysql.sh) share, sourced by them after they set HOST.

# port: 0 when something accepts connections on HOST:port (1 s at most)
port_open() { timeout 1 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null; }

wait_closed() { # port seconds: 0 once nothing listens on the port, 1 when the time is up
	local deadline=$((${EPOCHREALTIME/./} + $2 * 1000000))
	while ((${EPOCHREALTIME/./} < deadline)); do
		port_open "$1" || return 0
		sleep 0.05
	done
	return 1
}
