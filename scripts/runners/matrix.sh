#!/usr/bin/env bash
# One leg of the PHP version matrix (CI's .ci/run calls it): as root on Debian 12,
# makes a debootstrap chroot with the PHP of that leg and every package the tests
# need, copies this checkout into it, builds dlock with -Wall -Wextra -Werror on
# its own files, and runs scripts/test.sh (C core tests, phpt suite, php-fpm,
# bridges) plus one short fault-checker run inside it. Ends with one line
# "N passed, N failed" and exits non-zero on any failure.
#
#   scripts/runners/matrix.sh prepare VERSION   make (or reuse) the chroot of VERSION
#   scripts/runners/matrix.sh run VERSION       prepare, then build and test in it
#   scripts/runners/matrix.sh clean VERSION     unmount and remove the chroot of VERSION
#   VERSION: 8.4 (Debian 13 trixie), 8.5 or 8.6 (sid + experimental)
#
# The servers (ZooKeeper, Redis, PostgreSQL, MariaDB, php-fpm) run inside the
# chroot, started by the project's own scripts with the chroot's binaries: the
# tests stop, kill and restart servers through those scripts, which must see the
# same files as the test. The test run gets its own network namespace
# (unshare -n, only loopback): its ports cannot collide with the host's run or
# another leg, so every leg uses the default ports.
#
#   DLOCK_MATRIX_DIR=/srv/dlock-matrix   where chroots and the debootstrap cache live
#   DLOCK_MATRIX_MIRROR                  Debian mirror (default: the host's apt source)
#   DLOCK_MATRIX_TORTURE_SECONDS=8       length of each fault-checker run (ZooKeeper; Redis over TLS)
#   DLOCK_MATRIX_TESTS="tests/00_api ..."  test paths for scripts/test.sh (default: all,
#                                        with the bridges; paths leave the bridges out)
# A chroot is reused when its stamp says it is complete for the same package
# list; a debootstrap of each suite is kept (base-SUITE) and copied per leg.
# Mounts (proc, sys, dev, dev/pts) exist only while a step runs: every exit path
# unmounts them (umount -l) before anything could remove the tree.
set -uo pipefail
cd "$(dirname "$0")/../.."
REPO=$PWD
TOP=${DLOCK_MATRIX_DIR:-/srv/dlock-matrix}
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

die() { echo "matrix: $*" >&2; echo "0 passed, 1 failed"; exit 1; }

cmd=${1:-} ver=${2:-}
case "$ver" in
8.4) suite=trixie ;;
8.5 | 8.6) suite=sid ;;
*) sed -n '2,29p' "$0" >&2; exit 2 ;;
esac
[[ $(id -u) -eq 0 ]] || die "needs root (debootstrap, chroot, mounts)"
DIR=$TOP/php$ver

mirror() {
	[[ -n ${DLOCK_MATRIX_MIRROR:-} ]] && { echo "$DLOCK_MATRIX_MIRROR"; return; }
	local m
	m=$(grep -hoE '^(URIs:|deb) *(\[[^]]*\] *)?https?://[^ ]*debian/?( |$)' /etc/apt/sources.list.d/*.sources \
		/etc/apt/sources.list 2>/dev/null | grep -oE 'https?://[^ ]*' | grep -v security | head -1)
	echo "${m:-http://deb.debian.org/debian}"
}

# Debian packages of the tests (names as setup.sh, test.sh and test_bridges.sh
# ask for them; on sid the php-* ones are 8.4's and pull what the bridges need)
COMMON="make gcc libc6-dev pkg-config git ca-certificates procps php-cli php-dev php-parser
 libzookeeper-mt-dev libzookeeper-java default-jre-headless libhiredis-dev libpq-dev libmariadb-dev
 redis-server redis-sentinel postgresql mariadb-server pgbouncer php-fpm libfcgi-bin php-pgsql
 php-mysql php-redis php-pear default-jdk-headless libcurator-recipes-java python3-kazoo clang-format
 valgrind gdb libssl-dev openssl iproute2
 php-symfony-lock php-symfony-semaphore php-illuminate-cache php-illuminate-container
 php-illuminate-config phpunit composer"
# the leg's own PHP (sid's default is 8.4: these come from experimental)
OWN="php$ver-cli php$ver-dev php$ver-fpm php$ver-pgsql php$ver-mysql php$ver-xml php$ver-mbstring"

mounts=(proc sys dev dev/pts)
mount_all() {
	mount -t proc proc "$DIR/proc" && mount --rbind /sys "$DIR/sys" && mount --make-rslave "$DIR/sys" &&
		mount --bind /dev "$DIR/dev" && mount --bind /dev/pts "$DIR/dev/pts"
}
umount_all() {
	local i
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
		mountpoint -q "$DIR/${mounts[i]}" && umount -l "$DIR/${mounts[i]}"
	done
	return 0
}
in_root() { chroot "$DIR" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	DEBIAN_FRONTEND=noninteractive "$@"; }

base() { # suite: a pristine debootstrap of the suite, made once
	local b=$TOP/base-$1
	[[ -f $b/.dlock-base-ok ]] && return 0
	rm -rf "$b.tmp"
	mkdir -p "$TOP"
	echo "matrix: debootstrap $1 from $(mirror)"
	debootstrap --variant=minbase "$1" "$b.tmp" "$(mirror)" >"$TOP/debootstrap-$1.log" 2>&1 ||
		{ tail -20 "$TOP/debootstrap-$1.log" >&2; return 1; }
	touch "$b.tmp/.dlock-base-ok"
	rm -rf "$b" && mv "$b.tmp" "$b"
}

prepare() {
	local stamp want t0=$EPOCHSECONDS
	want=$(echo "$suite $COMMON $OWN" | md5sum | cut -c1-32)
	stamp=$DIR/.dlock-matrix-ok
	if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
		echo "matrix: reusing $DIR"
		return 0
	fi
	base "$suite" || return 1
	umount_all
	rm -rf "$DIR"
	cp -a "$TOP/base-$suite" "$DIR" || return 1
	cp /etc/resolv.conf "$DIR/etc/resolv.conf"
	printf '#!/bin/sh\nexit 101\n' >"$DIR/usr/sbin/policy-rc.d" && chmod +x "$DIR/usr/sbin/policy-rc.d"
	# the mirror serves a snapshot: sid's and experimental's Release files are past Valid-Until
	echo 'Acquire::Check-Valid-Until "false";' >"$DIR/etc/apt/apt.conf.d/99dlock"
	echo 'APT::Install-Recommends "false";' >>"$DIR/etc/apt/apt.conf.d/99dlock"
	{
		echo "deb $(mirror) $suite main"
		[[ $suite == sid ]] && echo "deb $(mirror) experimental main"
	} >"$DIR/etc/apt/sources.list"
	rm -f "$DIR"/etc/apt/sources.list.d/*
	mount_all || { umount_all; return 1; }
	local ok=1 own=()
	in_root apt-get update -qq || ok=0
	# shellcheck disable=SC2086
	((ok)) && { in_root apt-get install -y -qq $COMMON >"$DIR/apt.log" 2>&1 || ok=0; }
	if ((ok)) && [[ $suite == sid ]]; then
		# one package at a time from experimental: -t experimental would take its
		# php-common, which Breaks the phpX.Y-common it ships
		for p in $OWN; do own+=("$p/experimental"); done
		in_root apt-get install -y -qq "${own[@]}" >>"$DIR/apt.log" 2>&1 || ok=0
	elif ((ok)); then
		# shellcheck disable=SC2086
		in_root apt-get install -y -qq $OWN >>"$DIR/apt.log" 2>&1 || ok=0
	fi
	if ((ok)); then
		for alt in php phpize php-config; do
			in_root update-alternatives --set "$alt" "/usr/bin/$alt$ver" >/dev/null || ok=0
		done
	fi
	in_root apt-get clean
	umount_all
	((ok)) || { tail -30 "$DIR/apt.log" >&2; echo "matrix: packages for PHP $ver failed" >&2; return 1; }
	echo "$want" >"$stamp"
	echo "matrix: chroot for PHP $ver ready in $((EPOCHSECONDS - t0)) s"
}

# copies this checkout (tracked and untracked, not ignored files) into the chroot
# as a one-commit git repository (package_files.php and the style check read git)
copy_repo() {
	rm -rf "$DIR/dlock" && mkdir -p "$DIR/dlock" || return 1
	git -C "$REPO" ls-files -co --exclude-standard -z | (cd "$REPO" && xargs -0 tar -cf - --no-recursion) |
		tar -xf - -C "$DIR/dlock" || return 1
	in_root sh -c 'cd /dlock && git init -q && git add -A && git -c user.name=ci -c user.email=ci@localhost commit -qm leg'
}

# inside the chroot, in its own network namespace: build with -Werror, then test
LEG='set -uo pipefail
cd /dlock
echo "== PHP $(php -r "echo PHP_VERSION;") ($(gcc --version | head -1)), php-fpm: $(command -v php-fpm'"$ver"')"
phpize >build-configure.log 2>&1 && ./configure --enable-dlock >/dev/null 2>build-configure.log ||
	{ cat build-configure.log; echo "0 passed, 1 failed"; exit 1; }
if ! make -j2 CFLAGS="-g -O2 -Wall -Wextra -Werror" >build.log 2>&1; then
	grep -E "warning|error" build.log | head -40; echo "build: failed (-Wall -Wextra -Werror)"; echo "0 passed, 1 failed"; exit 1
fi
echo "build: modules/dlock.so with -Wall -Wextra -Werror, $(grep -c "warning:" build.log) warnings"
# phpredis (which tests/07_redis/031 and 032 drive, as symfony/lock and
# Laravel do) has no Debian build for every PHP: where it is missing, those
# two are left out, said here, not skipped silently
leave=""
if ! php -m | grep -qx redis; then
	leave="07_redis/031_ 07_redis/032_"
	echo "not run on this PHP: tests/07_redis/031, 032 (they need the redis extension, phpredis, which Debian does not build for PHP $(php -r "echo PHP_MAJOR_VERSION, \".\", PHP_MINOR_VERSION;"))"
fi
# the chroot has no network (its own namespace): the bridges run against the
# framework versions Debian ships there; the Composer legs run on the 8.2 leg
# trixie and sid ship hiredis 1.x with hiredis_ssl: rediss:// must be built
DLOCK_TEST_LEAVE_OUT=$leave DLOCK_TEST_EXPECT_REDIS_TLS=1 DLOCK_BRIDGES_COMPOSER=0 DLOCK_PACKAGES_PRESENT=1 DLOCK_TORTURE_SECONDS=0 \
	DLOCK_STYLE_ELSEWHERE="the 8.2 leg checks it with clang-format 14" \
	scripts/test.sh $TESTS 2>&1 | tee build/leg-test.log | tail -150
line=$(tail -1 build/leg-test.log)
[[ $line =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]] || { echo "0 passed, 1 failed"; exit 1; }
p=${BASH_REMATCH[1]} f=${BASH_REMATCH[2]}
# the checker: one seed on ZooKeeper, and one on Redis over TLS (rediss://
# is built here, hiredis 1.x: the 8.2 leg cannot run that seed)
for args in "" "--redis --tls"; do
	echo "== randomized fault checker (scripts/runners/torture.sh ${args:+$args }--seed 1, $TORTURE s)"
	# shellcheck disable=SC2086
	out=$(DLOCK_PACKAGES_PRESENT=1 scripts/runners/torture.sh --seconds "$TORTURE" --seed 1 $args 2>&1)
	echo "$out" | grep -E "^torture: (seed|[0-9]+ operations)"
	if [[ $(echo "$out" | grep "^torture: [0-9]* operations" | tail -1) =~ \ 0\ violations$ ]]; then
		p=$((p + 1))
	else
		f=$((f + 1)); echo "$out" | tail -30
	fi
done
echo "$p passed, $f failed"
((f == 0))'

run() {
	local t0=$EPOCHSECONDS rc
	prepare || die "no chroot for PHP $ver"
	copy_repo || die "cannot copy the checkout into $DIR"
	mount_all || { umount_all; die "cannot mount proc/sys/dev in $DIR"; }
	trap umount_all EXIT
	unshare -n sh -c 'ip link set lo up' 2>/dev/null || { umount_all; die "unshare -n / ip link failed"; }
	unshare -n sh -c 'ip link set lo up && exec "$@"' sh \
		chroot "$DIR" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		TORTURE="${DLOCK_MATRIX_TORTURE_SECONDS:-8}" TESTS="${DLOCK_MATRIX_TESTS:-}" bash -c "$LEG" 2>&1 | tee "$TOP/php$ver-leg.log" | sed '$d'
	rc=${PIPESTATUS[0]}
	umount_all
	trap - EXIT
	echo "matrix: PHP $ver leg took $((EPOCHSECONDS - t0)) s (log: $TOP/php$ver-leg.log)"
	line=$(tail -1 "$TOP/php$ver-leg.log")
	[[ $line =~ ^[0-9]+\ passed,\ [0-9]+\ failed$ ]] || line="0 passed, 1 failed"
	echo "$line"
	return "$rc"
}

case "$cmd" in
prepare) prepare || die "no chroot for PHP $ver" ;;
run) run ;;
clean)
	umount_all
	if grep -q " $DIR/" /proc/mounts; then die "$DIR still has mounts; not removing it"; fi
	rm -rf "$DIR"
	;;
*) sed -n '2,29p' "$0" >&2; exit 2 ;;
esac
