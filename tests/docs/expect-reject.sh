#!/usr/bin/env bash
# A checker's twin: runs CHECKER... on input it must reject, and passes only
# if it exits 1 and its output holds every EXPECTED text (so a check that
# rejects for the wrong reason, or cannot run at all, fails too).
set -uo pipefail
expected=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do expected+=("$1"); shift; done
[ $# -gt 1 ] && [ ${#expected[@]} -gt 0 ] || { echo "usage: $0 EXPECTED... -- CHECKER [ARG...]" >&2; exit 2; }
shift
out=$("$@" 2>&1)
rc=$?
echo "$out"
[ $rc = 1 ] || { echo "FAIL: $1 exited $rc, not 1"; exit 1; }
for e in "${expected[@]}"; do
	grep -qF -- "$e" <<<"$out" || { echo "FAIL: $1 did not report: $e"; exit 1; }
done
echo "ok: $1 rejected it as expected"
