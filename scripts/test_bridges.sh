#!/usr/bin/env bash
# Runs the Symfony and Laravel bridge tests (bridges/tests, PHPUnit 9 from
# Debian) against the test servers of every backend (ZooKeeper in
# DLOCK_TEST_HOSTS, Redis in DLOCK_TEST_REDIS, PostgreSQL in DLOCK_TEST_PG,
# MariaDB in DLOCK_TEST_MYSQL, as scripts/test.sh exports them), then checks the root
# composer.json's php-ext block (scripts/check_composer.php), runs the two
# bridge examples and examples/first_lock.php on every backend, and validates
# the composer.json files (composer validate). Each of those four is one more
# check. Ends with one line "N passed, N failed" (a skipped, incomplete, risky
# or warned test counts as failed) and exits non-zero on any failure.
#   DLOCK_TEST_HOSTS=127.0.0.1:21810 DLOCK_TEST_REDIS=127.0.0.1:26379 \
#   DLOCK_TEST_PG=postgres://... DLOCK_TEST_MYSQL=mysql://... scripts/test_bridges.sh [phpunit args]
# scripts/test.sh starts the servers and calls this; alone, start each with
# scripts/zk.sh, redis.sh, pg.sh and mysql.sh (start PORT prints what to export).
set -uo pipefail
cd "$(dirname "$0")/.."

passed=0 failed=0
finish() {
	echo "$passed passed, $failed failed"
	((failed == 0))
	exit
}

for var in DLOCK_TEST_HOSTS DLOCK_TEST_REDIS DLOCK_TEST_PG DLOCK_TEST_MYSQL; do
	if [[ -z "${!var:-}" ]]; then
		echo "test_bridges: set $var (scripts/test.sh starts every test server and exports it)"
		failed=1
		finish
	fi
done
# Debian's packages stand in for Packagist: symfony/lock and /semaphore 5.4,
# illuminate 8.83 (cache; container and config for the service provider test);
# php-fpm and cgi-fcgi for the request-end test
export DLOCK_EXTRA_PACKAGES="${DLOCK_EXTRA_PACKAGES:-} php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-container php-illuminate-config phpunit composer php-fpm libfcgi-bin"
scripts/setup.sh || { failed=1; finish; }

echo "== bridge tests (PHPUnit; ZooKeeper at $DLOCK_TEST_HOSTS, Redis at $DLOCK_TEST_REDIS, PostgreSQL and MariaDB)"
load=(-d "extension=$PWD/modules/dlock.so")
php -m 2>/dev/null | grep -qx dlock && load=() # already enabled in php.ini
log=$(mktemp)
export DLOCK_SO=$PWD/modules/dlock.so # php-fpm loads it in FpmRequestEndTest
timeout 900 php "${load[@]}" "$(command -v phpunit)" -c bridges/phpunit.xml --do-not-cache-result "$@" 2>&1 | tee "$log"
# PHPUnit 9 ends with "OK (N tests, M assertions)" or a line
# "Tests: N, Assertions: M, Errors: E, Failures: F, Warnings: W, Skipped: S, Incomplete: I, Risky: R."
field() { sed -n "s/.*\<$1: \([0-9]*\).*/\1/p" "$log" | tail -1; }
if ok=$(sed -n 's/^OK (\([0-9]*\) tests\?,.*/\1/p' "$log" | tail -1) && [[ -n "$ok" ]]; then
	passed=$((passed + ok))
elif total=$(field Tests) && [[ -n "$total" ]]; then
	bad=0
	for f in Errors Failures Warnings Skipped Incomplete Risky; do
		n=$(field "$f")
		bad=$((bad + ${n:-0}))
	done
	((bad > total)) && bad=$total
	passed=$((passed + total - bad))
	failed=$((failed + bad))
else
	echo "test_bridges: no PHPUnit summary (crashed or timed out)"
	failed=$((failed + 1))
fi
rm -f "$log"

echo "== composer.json php-ext block (PIE's schema)"
if php scripts/check_composer.php; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo "== examples/symfony.php and examples/laravel.php (locked runs issue no duplicate)"
# run as the README shows them (no DLOCK_SO: the workers load the extension the
# parent loaded); a run that prints a failure exits non-zero
ok=1
for ex in symfony laravel; do
	out=$(env -u DLOCK_SO DLOCK_HOSTS=$DLOCK_TEST_HOSTS timeout 120 \
		php "${load[@]}" "examples/$ex.php" 4 10 2>&1) || { echo "test_bridges: examples/$ex.php exited non-zero"; ok=0; }
	echo "$out"
	grep -q "^$ex locked .* 40 unique, 0 duplicates, counter ends at 40\(, fencing tokens grow\)\? (" <<<"$out" || ok=0
done
if ((ok)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo "== examples/first_lock.php on every backend (the README's first lock and quick starts)"
ok=1
for dsn in "zookeeper://$DLOCK_TEST_HOSTS" "redis://$DLOCK_TEST_REDIS" "$DLOCK_TEST_PG" "$DLOCK_TEST_MYSQL"; do
	out=$(timeout 60 php "${load[@]}" examples/first_lock.php "$dsn" 2>&1) &&
		[[ $out == *"held, fencing token "*"held again, inside synchronized()"* ]] ||
		{ echo "test_bridges: examples/first_lock.php failed on ${dsn%%://*}:"; echo "$out"; ok=0; }
done
if ((ok)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi

echo "== composer validate (root, bridges/symfony, bridges/laravel)"
ok=1
for dir in . bridges/symfony bridges/laravel; do
	COMPOSER_ALLOW_SUPERUSER=1 composer validate --no-interaction --no-check-publish --working-dir="$dir" ||
		{ echo "test_bridges: composer validate failed in $dir"; ok=0; }
done
if ((ok)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi

finish
