#!/bin/sh
# A tool's long options are the same in its --help, its man page's OPTIONS
# section and its bash completion (docs/man, docs/completion). POSIX sh
# (busybox in the guest). Prints the three lists, then "options-sync: PASS"
# and exits 0 if they agree; otherwise a FAIL line naming the difference.
#
# Usage: options-sync.sh TOOL MANPAGE COMPLETION
set -u
[ $# -eq 3 ] || { echo "usage: $0 TOOL MANPAGE COMPLETION"; exit 2; }
tool=$1 page=$2 completion=$3
for f in "$page" "$completion"; do
	[ -f "$f" ] || { echo "FAIL: missing $f"; exit 1; }
done
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

options() { grep -oE -- '--[a-z][a-z-]*' | sort -u; }
"$tool" --help | options >"$tmp/help" || { echo "FAIL: $tool --help"; exit 1; }
sed -n '/^\.SH OPTIONS/,/^\.SH /p' "$page" | sed 's/\\-/-/g' | options >"$tmp/man"
options <"$completion" >"$tmp/completion"

failed=0
for src in help man completion; do
	echo "$src: $(tr '\n' ' ' <"$tmp/$src")"
done
[ -s "$tmp/help" ] || { echo "FAIL: no options in --help"; failed=1; }
for src in man completion; do
	if ! cmp -s "$tmp/help" "$tmp/$src"; then
		echo "FAIL: $src differs from --help:"
		diff "$tmp/help" "$tmp/$src" | sed 's/^/  /'
		failed=1
	fi
done
[ "$failed" = 0 ] && echo "options-sync: PASS"
exit "$failed"
