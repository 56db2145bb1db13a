#!/usr/bin/env bash
# Lists the longest C functions of the tracked sources, longest first, as
# "<lines> <file>:<line> <name>", where lines counts from the function's
# opening "{" to its closing "}" (the house style, .clang-format's Linux
# braces, puts both alone at column 0, so a brace counter needs no parser).
#   scripts/checks/longest_functions.sh [N]          the N longest (default 10)
#   scripts/checks/longest_functions.sh --max L      also fails (exit 1) when one is longer than L
# Files: git ls-files '*.c' (the generated dlock_arginfo.h has no functions).
set -euo pipefail
cd "$(dirname "$0")/../.."
top=10 max=0
while (($#)); do
	case $1 in
	--max) max=$2; shift 2 ;;
	*) top=$1; shift ;;
	esac
done
mapfile -t files < <(git ls-files '*.c')
list=$(awk '
	FNR == 1 { sig = ""; start = 0 }
	start == 0 && $0 == "{" && sig != "" {
		name = sig
		if (match(sig, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
			name = substr(sig, RSTART, RLENGTH - 1)
			if (name ~ /^[A-Z0-9_]+$/ && match(sig, /[A-Z0-9_]+\([^)]*\)/)) {
				name = substr(sig, RSTART, RLENGTH) # PHP_METHOD(Class, name) and the like
			}
		}
		start = FNR
		next
	}
	start > 0 && $0 == "}" {
		printf "%d %s:%d %s\n", FNR - start + 1, FILENAME, start, name
		start = 0
		sig = ""
		next
	}
	start == 0 {
		if ($0 ~ /^[ \t]*$/ || $0 ~ /[;}][ \t]*$/ || $0 ~ /^#/ || $0 ~ /\*\/[ \t]*$/) {
			sig = ""
		} else {
			sig = sig " " $0
		}
	}
' "${files[@]}" | sort -k1,1nr)
echo "$list" | head -n "$top"
if ((max > 0)); then
	longest=$(echo "$list" | head -1 | cut -d' ' -f1)
	if ((longest > max)); then
		echo "longest_functions: a function of $longest lines (more than $max)" >&2
		exit 1
	fi
fi
