#!/bin/sh
# Runs a command that must be refused: passes only if it exits with STATUS,
# its output matches PATTERN (grep -E), and it does not contain FORBIDDEN
# (what the App would print had any of it run).
# Usage: refused.sh STATUS PATTERN FORBIDDEN -- COMMAND [ARG...]
set -u
want=$1 pattern=$2 forbidden=$3
shift 3
[ "$1" = -- ] && shift
out=$("$@" 2>&1)
status=$?
echo "$out"
if [ "$status" != "$want" ]; then
	echo "refused: status $status, expected $want"
	exit 1
fi
if ! echo "$out" | grep -Eq "$pattern"; then
	echo "refused: no line matches '$pattern'"
	exit 1
fi
if echo "$out" | grep -Fq "$forbidden"; then
	echo "refused: the App ran ('$forbidden' in the output)"
	exit 1
fi
echo "ara-evidence: refused with status $status: $(echo "$out" | grep -E "$pattern" | head -n 1)"
