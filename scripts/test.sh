#!/usr/bin/env bash
# Runs every test: sets up and builds (scripts/setup.sh), starts a throwaway
# ZooKeeper, runs the C core tests and the phpt suite, stops the server, and
# ends with one line "N passed, N failed". A skipped test counts as failed: the
# script starts its own server, so nothing has a reason to skip.
#   scripts/test.sh [run-tests.php args or test paths]   (default: tests/)
#   DLOCK_TEST_PORT=21810   where to start the server; the tests that start
#                           their own ZooKeeper or php-fpm use ports from this
#                           + 20 to + 500 (tests/inc/helpers.inc dlt_zk_port),
#                           the fault checker from + 1190 (DLOCK_TORTURE_PORT)
#                           and the benchmark smoke run from + 40 (DLOCK_BENCH_*):
#                           a second run with every base port 1400 away never collides
#   DLOCK_TEST_REDIS_PORT=26379  where to start the test Redis (tests that break
#                           their own Redis use ports from this + 10 on)
#   DLOCK_TEST_PG_PORT=23432, DLOCK_TEST_MYSQL_PORT=23306  where to start the test
#                           PostgreSQL and MariaDB (tests that break their own
#                           server use ports from these + 10 on)
#   DLOCK_VALGRIND=1        also run the phpt suite under valgrind (leaks and errors fail)
#   DLOCK_BENCH_SMOKE=1     also run the benchmark at small sizes (it must complete, counters exact)
# With no arguments it also runs the bridges' PHPUnit tests (scripts/runners/test_bridges.sh).
#   DLOCK_TORTURE_SECONDS=45  length of each randomized fault checker run (0 skips the stage;
#                           only with the default test selection)
set -uo pipefail
cd "$(dirname "$0")/.."
export DLOCK_EXTRA_PACKAGES="${DLOCK_EXTRA_PACKAGES:-} php-fpm libfcgi-bin iproute2 default-jdk-headless libcurator-recipes-java python3-kazoo php-pear valgrind gnuplot-nox gdb redis-server redis-sentinel libhiredis-dev php-redis postgresql libpq-dev mariadb-server libmariadb-dev php-pgsql php-mysql pgbouncer clang-format"
scripts/setup.sh || { echo "0 passed, 1 failed"; exit 1; }

port=${DLOCK_TEST_PORT:-21810}
hosts=$(scripts/servers/zk.sh start "$port") || { echo "test: ZooKeeper did not start"; echo "0 passed, 1 failed"; exit 1; }
trap 'scripts/servers/zk.sh stop "$port"' EXIT
export DLOCK_TEST_HOSTS=$hosts DLOCK_TEST_PORT=$port
export DLOCK_TORTURE_PORT=${DLOCK_TORTURE_PORT:-$((port + 1190))}
export DLOCK_BENCH_PORT=${DLOCK_BENCH_PORT:-$((port + 40))} DLOCK_BENCH_REDIS_PORT=${DLOCK_BENCH_REDIS_PORT:-$((port + 50))}
export DLOCK_BENCH_PG_PORT=${DLOCK_BENCH_PG_PORT:-$((port + 70))} DLOCK_BENCH_MYSQL_PORT=${DLOCK_BENCH_MYSQL_PORT:-$((port + 80))}
export DLOCK_ZK_SCRIPT=$PWD/scripts/servers/zk.sh
echo "test: ZooKeeper at $hosts"
redis_port=${DLOCK_TEST_REDIS_PORT:-26379}
redis=$(scripts/servers/redis.sh start "$redis_port") || { echo "test: Redis did not start"; echo "0 passed, 1 failed"; exit 1; }
trap 'scripts/servers/zk.sh stop "$port"; scripts/servers/redis.sh stop "$redis_port"' EXIT
export DLOCK_TEST_REDIS=$redis DLOCK_TEST_REDIS_PORT=$redis_port
export DLOCK_REDIS_SCRIPT=$PWD/scripts/servers/redis.sh
echo "test: Redis at $redis"
pg_port=${DLOCK_TEST_PG_PORT:-23432}
pg=$(scripts/servers/pg.sh start "$pg_port") || { echo "test: PostgreSQL did not start"; echo "0 passed, 1 failed"; exit 1; }
trap 'scripts/servers/zk.sh stop "$port"; scripts/servers/redis.sh stop "$redis_port"; scripts/servers/pg.sh stop "$pg_port"' EXIT
mysql_port=${DLOCK_TEST_MYSQL_PORT:-23306}
mysql=$(scripts/servers/mysql.sh start "$mysql_port") || { echo "test: MariaDB did not start"; echo "0 passed, 1 failed"; exit 1; }
trap 'scripts/servers/zk.sh stop "$port"; scripts/servers/redis.sh stop "$redis_port"; scripts/servers/pg.sh stop "$pg_port"; scripts/servers/mysql.sh stop "$mysql_port"' EXIT
export DLOCK_TEST_PG=$pg DLOCK_TEST_PG_PORT=$pg_port DLOCK_TEST_MYSQL=$mysql DLOCK_TEST_MYSQL_PORT=$mysql_port
export DLOCK_PG_SCRIPT=$PWD/scripts/servers/pg.sh DLOCK_MYSQL_SCRIPT=$PWD/scripts/servers/mysql.sh
echo "test: PostgreSQL at $pg, MariaDB at $mysql"

passed=0 failed=0

echo "== core tests (C, no PHP)"
# the SQL drivers' own tests (core/sql/tests, against DLOCK_TEST_PG and
# DLOCK_TEST_MYSQL) run after the core's, when present
core_src=(core/dlock_*.c core/zk/*.c core/redis/*.c core/sql/*.c)
read -r -a core_libs <<<"$(pkg-config --cflags --libs libpq libmariadb) -lzookeeper_mt -lhiredis -lpthread"
for t in core/tests/test_core core/sql/tests/test_my; do
	[[ -f $t.c ]] || continue
	rm -f "$t"
	# a test program is every .c file of its folder (one per module, main() in $t.c)
	gcc -std=gnu11 -DDLOCK_FAULT_INJECTION -Wall -Wextra -Werror -g -o "$t" "$(dirname "$t")"/*.c "${core_src[@]}" "${core_libs[@]}"
	core_out=$("$t" 2>&1)
	echo "$core_out" | grep -v '^ok' | tail -20
	line=$(echo "$core_out" | tail -1)
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
	else
		failed=$((failed + 1))
	fi
done

echo "== style (clang-format with the repo's .clang-format; dlock_arginfo.h is generated)"
mapfile -t c_files < <(git ls-files '*.c' '*.h' 2>/dev/null | grep -v '^dlock_arginfo\.h$')
# DLOCK_STYLE_ELSEWHERE=why: another run checks the style (scripts/runners/matrix.sh: the
# repo's .clang-format is Debian 12's clang-format 14; newer ones format differently)
if [[ -n ${DLOCK_STYLE_ELSEWHERE:-} ]]; then
	echo "style: not checked here ($DLOCK_STYLE_ELSEWHERE)"
elif ((${#c_files[@]} == 0)) || clang-format --dry-run --Werror "${c_files[@]}"; then
	passed=$((passed + 1))
else
	failed=$((failed + 1))
	echo "not ok: clang-format -i the files above"
fi

echo "== package (package.xml, pecl package, pecl install)"
if scripts/checks/check_pecl.sh; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

if ((${#@} == 0)); then
	echo "== a build with only the Redis and PostgreSQL backends (scripts/checks/check_reduced_build.sh)"
	out=$(scripts/checks/check_reduced_build.sh 2>&1)
	line=$(echo "$out" | tail -1)
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
	else
		failed=$((failed + 1))
	fi
	echo "$out" | tail -5
fi

echo "== docs (scripts/checks/check_docs.php: links, anchors, snippets and the INI table of README.md and docs/)"
if php -n -d "extension=$PWD/modules/dlock.so" scripts/checks/check_docs.php; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo "== phpt tests"
[[ -f run-tests.php ]] || cp "$(php-config --prefix)"/lib/php/build/run-tests.php . 2>/dev/null ||
	cp /usr/lib/php/*/build/run-tests.php .
# run-tests retries a failed test that calls usleep()/microtime() and reports
# a pass: here a test that fails once has failed, so that retry is switched off
mkdir -p build
sed 's/if (!\$passed && !\$retried && error_may_be_retried(/if (false \&\& error_may_be_retried(/' \
	run-tests.php >build/run-tests-noretry.php
grep -q 'if (false && error_may_be_retried(' build/run-tests-noretry.php ||
	{ echo "test: cannot switch off run-tests retries"; echo "$passed passed, $((failed + 1)) failed"; exit 1; }

# runs run-tests.php with "$@" and adds its counts (skips, warnings, borked
# and leaked tests count as failures)
phpt() {
	local log tp tf ts tw tb tl
	log=$(mktemp)
	NO_INTERACTION=1 NO_COLOR=1 TEST_PHP_EXECUTABLE=$(command -v php) \
		php -n build/run-tests-noretry.php -n -d "extension=$PWD/modules/dlock.so" -P -q --show-diff \
		-j2 --set-timeout 900 "$@" 2>&1 | tee "$log" | tr '\r' '\n' |
		grep -aE '^(FAIL|SKIP|BORK|LEAK)|^[0-9]+[+-] |Tests (passed|failed|skipped|warned)' | head -400
	count() { sed -n "s/^Tests $1 *: *\([0-9]*\).*/\1/p" "$log" | head -1; }
	tp=$(count passed) tf=$(count failed) ts=$(count skipped) tw=$(count warned)
	# a result line can follow the progress line after a carriage return
	tb=$(tr '\r' '\n' <"$log" | grep -ac '^BORK' || true) tl=$(tr '\r' '\n' <"$log" | grep -ac '^LEAK' || true)
	if [[ -z "$tp" ]]; then
		tail -30 "$log"
		failed=$((failed + 1))
	else
		passed=$((passed + tp))
		failed=$((failed + ${tf:-0} + ${ts:-0} + ${tw:-0} + tb + tl))
	fi
	rm -f "$log"
}

args=("$@")
((${#args[@]})) || args=(tests/)
# DLOCK_TEST_LEAVE_OUT="pattern ..." leaves the phpt files whose paths contain a
# pattern out of the run, each named here (the matrix: tests that need an
# extension Debian does not build for that PHP); never silently
if [[ -n ${DLOCK_TEST_LEAVE_OUT:-} ]]; then
	list=build/phpt-list.txt
	find "${args[@]}" -name '*.phpt' | sort >"$list.all"
	cp "$list.all" "$list"
	for pat in $DLOCK_TEST_LEAVE_OUT; do
		grep -F -- "$pat" "$list.all" | sed 's/^/test: left out (DLOCK_TEST_LEAVE_OUT): /'
		grep -vF -- "$pat" "$list" >"$list.tmp" && mv "$list.tmp" "$list"
	done
	phpt -r "$list"
else
	phpt "${args[@]}"
fi

# the Symfony and Laravel bridges (PHPUnit) and the composer/PIE checks
if ((${#@} == 0)); then
	echo "== bridges (scripts/runners/test_bridges.sh)"
	out=$(DLOCK_TEST_HOSTS=$hosts scripts/runners/test_bridges.sh 2>&1)
	line=$(echo "$out" | tail -1)
	if [[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		passed=$((passed + BASH_REMATCH[1]))
		failed=$((failed + BASH_REMATCH[2]))
		((BASH_REMATCH[2] == 0)) || echo "$out" | tail -40
	else
		failed=$((failed + 1))
		echo "$out" | tail -40
	fi
	echo "  $line"
fi

# the randomized fault checker (scripts/runners/torture.sh): fixed seeds on a standalone
# ZooKeeper, an ensemble, Redis, PostgreSQL and MariaDB, PostgreSQL and MariaDB
# over TLS (TLS-only servers, verified DSNs), then one random seed
# on ZooKeeper and the same seed on Redis; each run is one test
torture_seconds=${DLOCK_TORTURE_SECONDS:-45}
if ((${#@} == 0 && torture_seconds > 0)); then
	echo "== randomized fault checker (scripts/runners/torture.sh, $torture_seconds s a run)"
	random_seed=$(( $(od -An -N4 -tu4 /dev/urandom) % 1000000 ))
	for run in "1" "2" "3 --ensemble" "4 --redis" "5 --postgres" "6 --mysql" "7 --postgres --tls" \
		"8 --mysql --tls" "$random_seed" "$random_seed --redis"; do
		read -r seed extra <<<"$run"
		# shellcheck disable=SC2086
		if out=$(scripts/runners/torture.sh --seconds "$torture_seconds" --seed "$seed" $extra 2>&1) &&
			[[ $(echo "$out" | grep '^torture: [0-9]* operations' | tail -1) =~ \ 0\ violations$ ]]; then
			passed=$((passed + 1))
		else
			failed=$((failed + 1))
			echo "$out" | tail -40
		fi
		echo "$out" | grep -E '^torture: (seed|[0-9]+ operations)' | sed "s/^/  seed $seed${extra:+ $extra}: /"
	done
fi

if [[ ${DLOCK_VALGRIND:-0} == 1 ]]; then
	echo "== phpt tests under valgrind (USE_ZEND_ALLOC=0)"
	# every test but the 100,000-cycle one, which would take hours under
	# valgrind (its memory is measured by the normal run), the RSS one over
	# thousands of timed waits (likewise), and the one that runs valgrind
	# itself on a module unload (it needs an untraced parent); helper processes
	# (the ZooKeeper JVMs, Curator, kazoo, shell wrappers) are not traced
	list=$(mktemp)
	find "${args[@]}" -name '*.phpt' | grep -v -e 007_long_running_memory -e 013_timed_wait_memory_flat -e 021_module_unload_no_leak | sort >"$list"
	USE_ZEND_ALLOC=0 ZEND_DONT_UNLOAD_MODULES=1 \
		VALGRIND_OPTS="--trace-children-skip=*java*,*timeout,*python*,*redis-server*,*redis-cli*,*redis-sentinel*,*php-fpm*,*cgi-fcgi*,*redis.sh,*fpm.sh,*pg.sh,*mysql.sh,*postgres*,*pg_ctl,*initdb,*psql,*runuser,*mariadb*,*sleep,/bin/sh,/usr/bin/sh,/bin/bash,/usr/bin/bash,*zk.sh --suppressions=$PWD/tests/valgrind.supp --error-exitcode=0" \
		phpt -m -d pcre.jit=0 -r "$list"
	rm -f "$list"
fi
if [[ ${DLOCK_BENCH_SMOKE:-0} == 1 ]]; then
	echo "== benchmark smoke run (bench/run.sh --smoke)"
	if DLOCK_BENCH_HOSTS=$hosts bash bench/run.sh --smoke >build/bench-smoke.log 2>&1 &&
		grep -q 'targets met' bench/out/smoke/results.md && ! grep -q '| NO |' bench/out/smoke/results.md; then
		grep -E 'targets met|^\| (dlock|notifications)' bench/out/smoke/results.md | head -8
		passed=$((passed + 1))
	else
		tail -20 build/bench-smoke.log
		failed=$((failed + 1))
	fi
fi

echo "$passed passed, $failed failed"
((failed == 0))
