#!/usr/bin/env bash
# Checks the PECL package: package.xml lists every shipped file, validates,
# `pecl package` builds a tarball, and `pecl install` builds and installs it
# (then uninstalls it again). Prints "ok" or what failed; exit status says.
set -euo pipefail
cd "$(dirname "$0")/../.."
php scripts/checks/package_files.php --check
command -v pecl >/dev/null || { echo "check_pecl: needs php-pear" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"; pecl uninstall dlock >/dev/null 2>&1 || true' EXIT
pecl package-validate package.xml | grep -q '0 error(s)'
(cd "$work" && pecl package "$OLDPWD/package.xml" >/dev/null)
pecl uninstall dlock >/dev/null 2>&1 || true
pecl install "$work"/dlock-*.tgz >"$work/install.log" 2>&1 || { tail -20 "$work/install.log"; exit 1; }
v=$(php -n -d extension=dlock -r 'echo phpversion("dlock");')
[[ -n "$v" ]] || { echo "check_pecl: installed extension does not load" >&2; exit 1; }
echo "check_pecl: ok (dlock $v installed from $(basename "$work"/dlock-*.tgz))"
