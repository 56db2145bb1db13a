#!/usr/bin/env bash
# Runs the Symfony and Laravel bridge tests (bridges/tests) against the test
# servers of every backend (ZooKeeper in DLOCK_TEST_HOSTS, Redis in
# DLOCK_TEST_REDIS, PostgreSQL in DLOCK_TEST_PG, MariaDB in DLOCK_TEST_MYSQL, as
# scripts/test.sh exports them), in legs:
#   - the distribution's own packages (Debian 12: symfony/lock and /semaphore 5.4,
#     illuminate 8.83, PHPUnit 9.6; whatever version the machine has);
#   - Composer legs: frameworks and PHPUnit from Packagist installed into
#     DLOCK_BRIDGES_CACHE (default .cache/bridges, not tracked), the bridges
#     installed as Composer packages from a path repository; each leg is for
#     the PHP versions its packages support (see "legs" below). Symfony's own
#     AbstractStoreTestCase runs against DlockStore there, and the scratch apps
#     (bridges/apps, bridges/tests/Apps) take locks through framework features.
#     DLOCK_BRIDGES_COMPOSER=0 leaves them out (no network); CI runs them. In
#     a chroot Composer needs the host's way to Packagist (CA certificates,
#     repository config): without it the legs fail, they are not skipped.
# then checks the root composer.json's php-ext block (scripts/checks/check_composer.php),
# runs the two bridge examples and examples/first_lock.php on every backend, and
# validates the composer.json files (composer validate --strict). Each of those
# is one more check. Ends with one line "N passed, N failed" (a skipped,
# incomplete, risky or warned test counts as failed, and so does a leg that
# cannot install or run) and exits non-zero on any failure.
#   DLOCK_TEST_HOSTS=127.0.0.1:21810 DLOCK_TEST_REDIS=127.0.0.1:26379 \
#   DLOCK_TEST_PG=postgres://... DLOCK_TEST_MYSQL=mysql://... scripts/runners/test_bridges.sh [phpunit args]
# scripts/test.sh starts the servers and calls this; alone, start each with
# scripts/servers/zk.sh, redis.sh, pg.sh and mysql.sh (start PORT prints what to export).
set -uo pipefail
cd "$(dirname "$0")/../.."

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
# php-fpm and cgi-fcgi for the request-end test; php-curl makes Composer fast
export DLOCK_EXTRA_PACKAGES="${DLOCK_EXTRA_PACKAGES:-} php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-container php-illuminate-config phpunit composer php-curl php-fpm libfcgi-bin"
scripts/setup.sh || { failed=1; finish; }

load=(-d "extension=$PWD/modules/dlock.so")
php -m 2>/dev/null | grep -qx dlock && load=() # already enabled in php.ini
export DLOCK_SO=$PWD/modules/dlock.so # php-fpm loads it in FpmRequestEndTest
root=$PWD

# phpunit_config FILE MAJOR [DIR...]: writes a configuration for PHPUnit 10 and
# later (bridges/phpunit.xml is PHPUnit 9's schema) with the same strictness;
# the DIRs (Upstream: Symfony's AbstractStoreTestCase; Apps: the scratch
# apps) are in, the others of the two left out.
phpunit_config() {
	local exclude="" d file=$1 major=$2
	shift 2
	for d in Upstream Apps; do
		[[ " $* " == *" $d "* ]] || exclude+="<exclude>$root/bridges/tests/$d</exclude>"
	done
	cat >"$file" <<-EOF
		<?xml version="1.0" encoding="UTF-8"?>
		<!-- written by scripts/runners/test_bridges.sh for PHPUnit $major -->
		<phpunit bootstrap="$root/bridges/tests/bootstrap.php" colors="false" cacheResult="false"
		         beStrictAboutOutputDuringTests="true" beStrictAboutTestsThatDoNotTestAnything="true"
		         failOnRisky="true" failOnWarning="true" failOnSkipped="true" failOnIncomplete="true"
		         failOnNotice="true" executionOrder="default">
		    <testsuites>
		        <testsuite name="bridges">
		            <directory suffix="Test.php">$root/bridges/tests</directory>
		            $exclude
		        </testsuite>
		    </testsuites>
		</phpunit>
	EOF
}

# run_phpunit LABEL PHPUNIT CONFIG [ARGS...]: runs the bridge tests and adds
# the result to passed/failed. PHPUnit ends with "OK (N tests, M assertions)"
# or a line "Tests: N, Assertions: M, Errors: E, Failures: F, ..." (9 to 13).
run_phpunit() {
	local label=$1 bin=$2 config=$3 log n bad=0 f total ok
	shift 3
	log=$(mktemp)
	local cache=(--do-not-cache-result)
	[[ $config != */bridges/phpunit.xml ]] && cache=()
	timeout 900 php "${load[@]}" "$bin" -c "$config" "${cache[@]}" "$@" 2>&1 | tee "$log"
	field() { sed -n "s/.*\<$1: \([0-9]*\).*/\1/p" "$log" | tail -1; }
	if ok=$(sed -n 's/^OK (\([0-9]*\) tests\?,.*/\1/p' "$log" | tail -1) && [[ -n "$ok" ]]; then
		passed=$((passed + ok))
		echo "test_bridges: $label: $ok tests passed"
	elif total=$(field Tests) && [[ -n "$total" ]]; then
		for f in Errors Failures Warnings Skipped Incomplete Risky Notices; do
			n=$(field "$f")
			bad=$((bad + ${n:-0}))
		done
		((bad > total)) && bad=$total
		passed=$((passed + total - bad))
		failed=$((failed + bad))
		echo "test_bridges: $label: $((total - bad)) passed, $bad failed"
	else
		echo "test_bridges: $label: no PHPUnit summary (crashed or timed out)"
		failed=$((failed + 1))
	fi
	rm -f "$log"
}

phpunit_major() { php "${load[@]}" "$1" --version 2>/dev/null | sed -n 's/^PHPUnit \([0-9]*\)\..*/\1/p' | head -1; }

t0=$EPOCHREALTIME
bin=$(command -v phpunit)
major=$(phpunit_major "$bin")
echo "== bridge tests, distribution packages (PHPUnit ${major:-?}; ZooKeeper at $DLOCK_TEST_HOSTS, Redis at $DLOCK_TEST_REDIS, PostgreSQL and MariaDB)"
config=$root/bridges/phpunit.xml
if [[ ${major:-9} != 9 ]]; then
	config=$(mktemp --suffix=.xml)
	phpunit_config "$config" "$major"
fi
run_phpunit "distribution packages" "$bin" "$config" "$@"
[[ $config == */bridges/phpunit.xml ]] || rm -f "$config"
echo "test_bridges: distribution leg took $(php -r "printf('%.0f', $EPOCHREALTIME - $t0);") s"

# The Composer legs: NAME MIN_PHP_ID REQUIRE [PHPUNIT ARGS]. A leg whose
# packages need a newer PHP than this one is not part of this PHP's matrix
# (said, not counted); the PHP 8.4 and 8.5 legs of CI run those. Every leg
# has symfony/framework-bundle and laravel/framework for the scratch apps
# (bridges/apps, tests/Apps); framework-bundle 8 is not installable from the
# Packagist mirror (symfony/polyfill-deepclone missing), so the Symfony 8 leg
# runs its app on framework-bundle 7.4 with symfony/lock 8.
# symfony/semaphore is not on the Packagist mirror: its tests (group
# semaphore) run in the distribution leg only.
legs=(
	'symfony6.4-laravel10-phpunit10|80100|"symfony/lock": "6.4.*", "symfony/framework-bundle": "6.4.*", "laravel/framework": "10.*", "phpunit/phpunit": "10.*"|'
	'symfony7.4-laravel11-phpunit11|80200|"symfony/lock": "7.4.*", "symfony/framework-bundle": "7.4.*", "laravel/framework": "11.*", "phpunit/phpunit": "11.*"|'
	'laravel12-phpunit11|80200|"symfony/lock": "7.4.*", "symfony/framework-bundle": "7.4.*", "laravel/framework": "12.*", "phpunit/phpunit": "11.*"|--filter Laravel'
	'symfony8-laravel13-phpunit12up|80400|"symfony/lock": "8.*", "symfony/framework-bundle": "7.4.*", "laravel/framework": "13.*", "phpunit/phpunit": ">=12"|'
)
cache=${DLOCK_BRIDGES_CACHE:-$root/.cache/bridges}
export COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1 COMPOSER_CACHE_DIR=$cache/composer
composer=(php "${load[@]}" "$(command -v composer)")
php_id=$(php -r 'echo PHP_VERSION_ID;')

# leg_install DIR REQUIRE: a Composer project in DIR with the bridges from a
# path repository and REQUIRE from Packagist; "composer install" again when
# composer.json is unchanged since the last run, "update" otherwise.
leg_install() {
	local dir=$1 json
	mkdir -p "$dir"
	json=$(
		cat <<-EOF
			{
			    "name": "dlock-tests/$(basename "$dir")",
			    "description": "written by scripts/runners/test_bridges.sh",
			    "type": "project",
			    "repositories": [
			        {"type": "path", "url": "$root/bridges/symfony", "options": {"symlink": true}},
			        {"type": "path", "url": "$root/bridges/laravel", "options": {"symlink": true}}
			    ],
			    "require": {"dlock/symfony-lock": "*@dev", "dlock/laravel-lock": "*@dev", $2},
			    "config": {"sort-packages": true}
			}
		EOF
	)
	if [[ -f $dir/composer.lock && -d $dir/vendor && $(<"$dir/composer.json") == "$json" ]]; then
		"${composer[@]}" install --no-progress -q --working-dir="$dir"
	else
		printf '%s\n' "$json" >"$dir/composer.json"
		rm -f "$dir/composer.lock"
		"${composer[@]}" update --no-progress -q --working-dir="$dir"
	fi
}

if [[ ${DLOCK_BRIDGES_COMPOSER:-1} == 0 ]]; then
	echo "== Composer legs: left out (DLOCK_BRIDGES_COMPOSER=0)"
else
	for leg in "${legs[@]}"; do
		IFS='|' read -r name min req args <<<"$leg"
		if ((php_id < min)); then
			echo "== Composer leg $name: needs PHP_VERSION_ID >= $min, this is $php_id: not in this PHP's matrix"
			continue
		fi
		t0=$EPOCHREALTIME
		dir=$cache/legs/$name
		echo "== Composer leg $name (into $dir)"
		if ! out=$(leg_install "$dir" "$req" 2>&1); then
			echo "$out" | tail -30
			echo "test_bridges: $name: composer could not install the leg"
			failed=$((failed + 1))
			continue
		fi
		"${composer[@]}" show --working-dir="$dir" 2>/dev/null |
			grep -E '^(symfony/lock|laravel/framework|phpunit/phpunit|dlock/[a-z-]*) ' | sed 's/  */ /g; s/^/  /' | cut -c1-60
		extra=()
		[[ -f $dir/vendor/symfony/lock/Test/AbstractStoreTestCase.php ]] && extra+=(Upstream)
		[[ -d $dir/vendor/laravel/framework && -d $dir/vendor/symfony/framework-bundle ]] && extra+=(Apps)
		phpunit_config "$dir/phpunit.xml" "$(phpunit_major "$dir/vendor/bin/phpunit")" "${extra[@]}"
		# shellcheck disable=SC2086 # args is a word list
		DLOCK_BRIDGES_VENDOR=$dir/vendor run_phpunit "$name" "$dir/vendor/bin/phpunit" "$dir/phpunit.xml" \
			--exclude-group semaphore $args "$@"
		echo "test_bridges: leg $name took $(php -r "printf('%.0f', $EPOCHREALTIME - $t0);") s"
	done
fi

echo "== composer.json php-ext block (PIE's schema)"
if php scripts/checks/check_composer.php; then passed=$((passed + 1)); else failed=$((failed + 1)); fi

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

echo "== composer validate --strict (root, bridges/symfony, bridges/laravel)"
# Debian 12's Composer 2.5 does not know the root's "php-ext" block (PIE's;
# scripts/checks/check_composer.php checks it), so the root gets --no-check-publish. A
# current composer/composer is not installable from the Packagist mirror (its
# composer/metadata-minifier is missing).
ok=1
validator=(composer) rootflags=(--no-check-publish)
for dir in . bridges/symfony bridges/laravel; do
	flags=(--strict)
	[[ $dir == . ]] && flags+=("${rootflags[@]}")
	"${validator[@]}" validate --no-interaction "${flags[@]}" --working-dir="$dir" ||
		{ echo "test_bridges: composer validate ${flags[*]} failed in $dir"; ok=0; }
done
if ((ok)); then passed=$((passed + 1)); else failed=$((failed + 1)); fi

finish
