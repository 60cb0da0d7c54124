#!/bin/sh
# One row of the tools' bad-input table (tests/tools/CMakeLists.txt): runs a
# command in a fresh folder of fixtures and checks its exit status, its
# output, and that it left nothing behind but what it should create and
# changed no fixture. POSIX sh (busybox in the guest). Prints every check,
# then "tool-case: PASS" and exits 0 if all held; otherwise "FAIL:" lines
# and exit 1.
#
# Usage: tool-case.sh [--stdin FILE] [--creates NAME]... STATUS [CHECK...] -- COMMAND [ARG...]
#   --stdin FILE    the command's stdin (default /dev/null)
#   --creates NAME  a file the command must leave (the only new file allowed)
#   STATUS          the exit status it must have
#   CHECK           out~REGEX or err~REGEX: a line of stdout or stderr
#                   matches the extended REGEX; out= or err=: it is empty;
#                   json~EXPR: stdout is one JSON value d (python3's
#                   json.load) for which the Python expression EXPR holds
#
# Fixtures, in the command's working directory:
#   in        1000 bytes of random data; in.link a symbolic link to it,
#             in.hard a hard link
#   key       a 256-bit key as 64 hex digits and a newline; key.short 30 digits
#   empty     an empty file
#   bind31    31 bytes (a binding one byte short)
#   bad.manifest  a manifest of an unknown version
set -u

stdin=/dev/null
creates=
while :; do
	case ${1:-} in
	--stdin) stdin=$2; shift 2 ;;
	--creates) creates="$creates $2"; shift 2 ;;
	*) break ;;
	esac
done
[ $# -ge 3 ] || { echo "usage: $0 [--stdin FILE] [--creates NAME]... STATUS [CHECK...] -- COMMAND..."; exit 2; }
want_status=$1
shift
checks=
while [ $# -gt 0 ] && [ "$1" != -- ]; do
	checks="$checks
$1"
	shift
done
[ "${1:-}" = -- ] && [ $# -ge 2 ] || { echo "FAIL: no -- COMMAND"; exit 1; }
shift

failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/work"
cd "$tmp/work" || exit 1
head -c 1000 /dev/urandom >in
ln -s in in.link
ln in in.hard
printf '%s\n' 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f >key
printf '%s\n' 000102030405060708090a0b0c0d0e >key.short
: >empty
head -c 31 /dev/urandom >bind31
printf 'ara-manifest 2\n' >bad.manifest
# What is here now, and every fixture's content.
ls -A | sort >"$tmp/before"
md5sum in key key.short empty bind31 bad.manifest >"$tmp/sums"

echo "run: $*"
"$@" <"$stdin" >"$tmp/out" 2>"$tmp/err"
status=$?
sed 's/^/  stdout: /' "$tmp/out"
sed 's/^/  stderr: /' "$tmp/err"

echo "check: status $want_status"
[ "$status" = "$want_status" ] || fail "status $status, not $want_status"

# The checks, one a line (a regex may hold spaces).
echo "$checks" | while IFS= read -r c; do
	case $c in
	'') ;;
	out~*) echo "check: a line of stdout matches ${c#out~}"
		grep -Eq -- "${c#out~}" "$tmp/out" || echo "FAIL: no line of stdout matches ${c#out~}" ;;
	err~*) echo "check: a line of stderr matches ${c#err~}"
		grep -Eq -- "${c#err~}" "$tmp/err" || echo "FAIL: no line of stderr matches ${c#err~}" ;;
	out=) echo "check: stdout is empty"
		[ ! -s "$tmp/out" ] || echo "FAIL: stdout is not empty" ;;
	err=) echo "check: stderr is empty"
		[ ! -s "$tmp/err" ] || echo "FAIL: stderr is not empty" ;;
	json~*) echo "check: stdout is JSON for which ${c#json~}"
		python3 -c 'import json, sys
sys.exit(0 if eval(sys.argv[2], {"d": json.load(open(sys.argv[1]))}) else 1)' "$tmp/out" "${c#json~}" ||
			echo "FAIL: stdout is not JSON for which ${c#json~}" ;;
	*) echo "FAIL: unknown check '$c'" ;;
	esac
done >"$tmp/checks"
cat "$tmp/checks"
grep -q '^FAIL:' "$tmp/checks" && failed=1

echo "check: nothing left behind but${creates:- nothing}; no fixture changed"
for f in $creates; do
	[ -e "$f" ] || fail "$f was not created"
done
for f in $creates; do echo "$f"; done | cat "$tmp/before" - | sort >"$tmp/want"
ls -A | sort >"$tmp/after"
if ! cmp -s "$tmp/want" "$tmp/after"; then
	fail "the folder holds other files than it should:"
	diff "$tmp/want" "$tmp/after" | sed 's/^/  /'
fi
md5sum -c "$tmp/sums" >/dev/null 2>&1 || fail "a fixture changed: $(md5sum -c "$tmp/sums" 2>&1 | grep -v ': OK$')"

if [ "$failed" = 0 ]; then
	echo "tool-case: PASS"
	exit 0
fi
exit 1
