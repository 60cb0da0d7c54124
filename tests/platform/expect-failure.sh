#!/usr/bin/env bash
# Control test: passes only if COMMAND fails AND its output shows that it
# failed for the expected reason (every REGEX matches some line), so that a
# crash, a hang or a missing file cannot pass for "POE is absent".
# Usage: expect-failure.sh REGEX... -- COMMAND [ARG...]
set -uo pipefail

regexes=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do regexes+=("$1"); shift; done
[ $# -ge 2 ] && [ ${#regexes[@]} -gt 0 ] || {
	echo "usage: $0 REGEX... -- COMMAND [ARG...]" >&2
	exit 2
}
shift

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}

verdict=0
if [ "$status" -eq 0 ]; then
	echo "expect-failure: the command succeeded (status 0), but it must fail here"
	verdict=1
fi
for re in "${regexes[@]}"; do
	if ! grep -Eq -- "$re" "$log"; then
		echo "expect-failure: no output line matches /$re/"
		verdict=1
	fi
done
[ $verdict -eq 0 ] && echo "expect-failure: failed as expected (status $status)"
exit $verdict
