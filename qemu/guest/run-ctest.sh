#!/usr/bin/env bash
# Runs `ctest --output-on-failure` inside the test guest over a cross-built
# CMake tree and exits with ctest's status (or run-guest.sh's 124/125).
#
# Usage: run-ctest.sh [--qemu Q] [--poe P] [--machine M] [--timeout S]
#                     BUILD_DIR [CTEST_ARG...]
#   The options go to run-guest.sh (defaults: patched QEMU, -M virt, POE
#   expected, 3600 s for the whole run). Each test gets 600 s unless it sets
#   its own TIMEOUT property or CTEST_ARG has --timeout.
# The guest holds BUILD_DIR, the ARA source tree and the directories in
# $ARA_GUEST_EMBED (colon-separated), each at its host path: ctest files and
# test commands name absolute host paths.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

guest_opts=(--timeout 3600)
while [ $# -gt 0 ]; do
	case $1 in
	--qemu|--poe|--machine|--timeout) guest_opts+=("$1" "${2:?}"); shift 2 ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || die "usage: $0 [--qemu Q] [--poe P] [--machine M] [--timeout S] BUILD_DIR [CTEST_ARG...]"
build=$(cd "$1" && pwd)
shift
[ -f "$build/CTestTestfile.cmake" ] || die "$build has no CTestTestfile.cmake: not a configured CMake tree"

embeds=(--embed "$build" --embed "$ARA_SRC_DIR")
IFS=: read -ra extra <<<"${ARA_GUEST_EMBED:-}"
for d in "${extra[@]}"; do
	[ -n "$d" ] && embeds+=(--embed "$d")
done

# After ctest, the guest prints the evidence lines of every test (ctest hides
# the output of passing tests), then reports ctest's status.
evidence="$ARA_SRC_DIR/tests/platform/ctest-evidence.sh"
exec "$ARA_QEMU_DIR/guest/run-guest.sh" "${guest_opts[@]}" "${embeds[@]}" --cwd "$build" -- \
	sh -c 'ctest --output-on-failure --timeout 600 "$@"; status=$?; "$0" .; exit $status' \
	"$evidence" "$@"
