#!/usr/bin/env bash
# Instructions per lock cycle (valgrind --tool=callgrind) of the PHP worker
# (dlock through PHP, bench/worker.php) and of the limit (bench/limit.c), one
# process each, uncontended: every contender runs N1 and N2 cycles and the
# figure is (Ir(N2) - Ir(N1)) / (N2 - N1), so start-up and shutdown cancel
# out. All threads of the process are counted (the ZooKeeper client's I/O and
# completion threads too). Instruction counts are repeatable on a noisy
# machine where timings are not. Each contender also runs its loop with the
# lock calls left out (the counter and timestamp bookkeeping alone: PHP's for
# the worker, C stdio for the limit), so the lock's own share is the
# difference.
#   bench/callgrind.sh HOSTS [OUT_DIR]   (bench/bin/limit built by bench/run.sh)
# Prints "contender Ir_per_cycle loop_without_lock lock_share" lines; with OUT_DIR also keeps the
# callgrind.out files of the N2 runs there (callgrind_annotate them).
set -euo pipefail
cd "$(dirname "$0")/.."
hosts=$1 out=${2:-}
n1=${DLOCK_CALLGRIND_N1:-200} n2=${DLOCK_CALLGRIND_N2:-1200}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ir() { # name n command...
	local name=$1 n=$2
	shift 2
	echo 0 >"$tmp/counter"
	echo go | env ${envs:-} valgrind --tool=callgrind --callgrind-out-file="$tmp/$name.$n.out" "$@" \
		"$hosts" "/bench/callgrind-$name" "$n" "$tmp/counter" "$tmp/events" >/dev/null 2>"$tmp/log" ||
		{ cat "$tmp/log" >&2; exit 1; }
	[[ $(cat "$tmp/counter") == "$n" ]] || { echo "callgrind.sh: $name counter wrong" >&2; exit 1; }
	sed -n 's/^summary: //p;s/^totals: //p' "$tmp/$name.$n.out" | head -1
}
grep -v -e '->acquire();' -e '->release();' bench/worker.php >"$tmp/nolock.php"
for c in php limit; do
	if [[ $c == php ]]; then
		cmd=(php -n -d "extension=$PWD/modules/dlock.so" bench/worker.php)
		base=(php -n -d "extension=$PWD/modules/dlock.so" "$tmp/nolock.php")
	else
		cmd=(bench/bin/limit)
		base=(bench/bin/limit)
	fi
	a=$(ir "$c" "$n1" "${cmd[@]}")
	b=$(ir "$c" "$n2" "${cmd[@]}")
	x=$(envs=LIMIT_NO_LOCK=1 ir "$c-nolock" "$n1" "${base[@]}")
	y=$(envs=LIMIT_NO_LOCK=1 ir "$c-nolock" "$n2" "${base[@]}")
	per=$(((b - a) / (n2 - n1))) loop=$(((y - x) / (n2 - n1)))
	echo "$c $per $loop $((per - loop))"
	if [[ -n "$out" ]]; then cp "$tmp/$c.$n2.out" "$out/callgrind.$c.out"; fi
done
