#!/usr/bin/env bash
# Installs what dlock needs on Debian 12 (when missing) and builds the extension
# into modules/dlock.so. Safe to run again: it only does what is not done yet.
#   DLOCK_EXTRA_PACKAGES="..."  more Debian packages to install (tests add peers)
#   DLOCK_PACKAGES_PRESENT=1    do not check or install packages (a chroot of
#                               scripts/runners/matrix.sh, whose Debian names differ and
#                               which has no network while its tests run)
#   DLOCK_BIN_DIR=/usr/local/bin  where to install the dlock command (bin/dlock);
#                               empty: not installed
set -euo pipefail
cd "$(dirname "$0")/.."

packages="make gcc libc6-dev php-cli php-dev libzookeeper-mt-dev libhiredis-dev libpq-dev libmariadb-dev pkg-config libzookeeper-java default-jre-headless php-parser ${DLOCK_EXTRA_PACKAGES:-}"
missing=()
[[ ${DLOCK_PACKAGES_PRESENT:-0} == 1 ]] && packages=""
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
	if [[ $(id -u) -ne 0 ]]; then
		echo "setup: missing packages: ${missing[*]} (run as root or: sudo apt-get install ${missing[*]})" >&2
		exit 1
	fi
	echo "setup: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# the operator's command (docs/operations.md) on the PATH; DLOCK_BIN_DIR= skips it
bin_dir=${DLOCK_BIN_DIR-/usr/local/bin}
if [[ -n $bin_dir && -d $bin_dir && -w $bin_dir ]] && ! cmp -s bin/dlock "$bin_dir/dlock"; then
	install -m 755 bin/dlock "$bin_dir/dlock" && echo "setup: installed $bin_dir/dlock"
fi

sources=(config.m4 dlock*.c php_dlock*.h dlock_arginfo.h core/*.c core/*.h core/redis/*.c core/redis/*.h core/sql/*.c core/sql/*.h core/zk/*.c core/zk/*.h)
if [[ -f modules/dlock.so ]]; then
	stale=0
	for f in "${sources[@]}"; do [[ $f -nt modules/dlock.so ]] && stale=1; done
	((stale)) || exit 0
fi
echo "setup: building the extension"
if [[ ! -f configure || config.m4 -nt configure ]]; then
	phpize >/dev/null
fi
if [[ ! -f Makefile || configure -nt Makefile ]]; then
	./configure --enable-dlock >/dev/null 2>build-configure.log || { cat build-configure.log >&2; exit 1; }
	rm -f build-configure.log
fi
make -j"$(nproc)" >/dev/null
echo "setup: built modules/dlock.so"
