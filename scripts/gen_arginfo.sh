#!/usr/bin/env bash
# Regenerates dlock_arginfo.h from dlock.stub.php with php-src's gen_stub.php,
# offline: PHP-Parser comes from Debian's php-parser package, not a download.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -f build/gen_stub.php ]] || phpize >/dev/null
parser=/usr/share/php/PhpParser
[[ -d $parser ]] || { echo "gen_arginfo: install the php-parser package" >&2; exit 1; }
mkdir -p build/PHP-Parser-4.15.1
ln -sfn "$(dirname "$parser")" build/PHP-Parser-4.15.1/lib
php build/gen_stub.php -f dlock.stub.php
