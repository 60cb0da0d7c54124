#!/bin/sh
# One row of the tools' command-line table (tests/tools/CMakeLists.txt):
# runs COMMAND in a fresh empty directory and checks its exit status, its
# stdout and its stderr, and that a failed run (status not 0) leaves
# nothing behind there: no partial output, no socket, no log. It prints
# every failed check, then "tool-case NAME: PASS" only if all held.
#
# Usage: tool-case.sh NAME STATUS STDOUT STDERR COMMAND [ARG...]
#   STDOUT, STDERR: "empty", an extended regular expression one line must
#   match, or for STDOUT "json:EXPR": stdout is one JSON value d (python3's
#   json.load) for which the Python expression EXPR is true.
set -u
[ $# -ge 5 ] || { echo "usage: $0 NAME STATUS STDOUT STDERR COMMAND [ARG...]"; exit 2; }
name=$1 want=$2 want_out=$3 want_err=$4
shift 4
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work" "$work.out" "$work.err"' EXIT
failed=0
fail() {
	echo "FAIL: $*"
	failed=1
}

# matches FILE SPEC WHAT: FILE's text is what SPEC asks for.
matches() {
	case $2 in
	empty) [ ! -s "$1" ] || fail "$3 is not empty" ;;
	json:*)
		python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "${2#json:}" ||
			fail "$3 is not JSON for which ${2#json:}"
		;;
	*) grep -Eq -- "$2" "$1" || fail "$3 does not match '$2'" ;;
	esac
}

(cd "$work" && exec "$@") >"$work.out" 2>"$work.err"
status=$?
echo "$ $*"
sed 's/^/  stdout: /' "$work.out"
sed 's/^/  stderr: /' "$work.err"
[ "$status" = "$want" ] || fail "exit status $status, not $want"
matches "$work.out" "$want_out" stdout
matches "$work.err" "$want_err" stderr
if [ "$status" != 0 ] && [ -n "$(ls -A "$work")" ]; then
	fail "a failed run left $(ls -A "$work" | tr '\n' ' ')behind"
fi
[ "$failed" = 0 ] && echo "tool-case $name: PASS"
exit "$failed"
