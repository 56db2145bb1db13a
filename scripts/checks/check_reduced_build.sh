#!/usr/bin/env bash
# Builds dlock with only the Redis and PostgreSQL backends
# (--without-dlock-zookeeper --without-dlock-mysql) in a scratch copy and
# checks what a user of such a build sees: phpinfo lists the two backends,
# the module links neither libzookeeper_mt nor libmariadb, a ZooKeeper or
# MySQL DSN is refused with an exception naming the missing backend, and a
# Redis lock works (against DLOCK_TEST_REDIS when set); and that the build,
# with config.m4's -Wall -Wextra, prints no compiler warning.
# Prints "N passed, N failed" last; exit status non-zero on a failure.
set -uo pipefail
cd "$(dirname "$0")/../.."
dir=$(mktemp -d "${TMPDIR:-/tmp}/dlock-reduced-XXXX")
trap 'rm -rf "$dir"' EXIT
passed=0 failed=0
check() { # check "what" command...
	local what=$1
	shift
	if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "not ok: $what"; fi
}
git ls-files -z 2>/dev/null | grep -zv '^bridges/\|^tests/\|^bench/\|^docs/' | xargs -0 cp --parents -t "$dir" 2>/dev/null ||
	cp -r config.m4 config.w32 ./*.c ./*.h dlock.stub.php core "$dir"
(cd "$dir" && phpize >/dev/null 2>&1 &&
	./configure --without-dlock-zookeeper --without-dlock-mysql >configure.log 2>&1 &&
	make -j"$(nproc)" >make.log 2>&1) || { tail -20 "$dir"/configure.log "$dir"/make.log 2>/dev/null; echo "0 passed, 1 failed"; exit 1; }
so=$dir/modules/dlock.so
# the extension builds with -Wall -Wextra (config.m4): clean, as its tests
check "no compiler warnings ($(grep -c 'warning:' "$dir/make.log") in make.log)" bash -c "! grep -q 'warning:' $dir/make.log"
check "configure names what it left out" grep -q 'left out: zookeeper (--without-dlock-zookeeper) mysql (--without-dlock-mysql)' "$dir/configure.log"
check "phpinfo lists redis and postgres only" bash -c "php -n -d extension=$so --ri dlock | grep -qx 'Backends => redis, postgres'"
check "no ZooKeeper or MariaDB client linked" bash -c "! ldd $so | grep -q 'zookeeper\|mariadb'"
out=$(php -n -d "extension=$so" -r '
foreach ([[], ["dsn" => "zookeeper://127.0.0.1:2181"], ["dsn" => "mysql://u@127.0.0.1/db"]] as $o) {
    try { new DistributedLock("/x", $o); echo "accepted\n"; }
    catch (DistributedLockException $e) { echo preg_match("/has no (zookeeper|mysql) backend/", $e->getMessage()) ? "refused\n" : $e->getMessage() . "\n"; }
}
$redis = getenv("DLOCK_TEST_REDIS");
if ($redis) { $l = new DistributedLock("/dlock-tests/reduced", ["dsn" => (str_contains($redis, "://") ? "" : "redis://") . $redis]); echo $l->tryAcquire() ? "held\n" : "not held\n"; $l->release(); }
else { echo "held\n"; }' 2>&1)
check "missing backends refused, Redis works ($(echo $out | tr '\n' ' '))" test "$out" = "$(printf 'refused\nrefused\nrefused\nheld')"
echo "$passed passed, $failed failed"
((failed == 0))
