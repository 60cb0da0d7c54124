#!/usr/bin/env bash
# Runs `ctest --output-on-failure` inside the test guest over a cross-built
# CMake tree, in two boots: the tests not labelled tpm on Debian's kernel,
# then the tests labelled tpm in the TPM guest (run-guest.sh --tpm). A boot
# whose share of the selected tests is empty is skipped, with a note. Exits
# 0 if both passed, else the status of the first that failed (ctest's, or
# run-guest.sh's 124/125).
#
# Usage: run-ctest.sh [--qemu Q] [--poe P] [--machine M] [--timeout S]
#                     BUILD_DIR [CTEST_ARG...]
#   The options go to run-guest.sh (defaults: patched QEMU, -M virt, POE
#   expected, 3600 s for each boot). Each test gets 600 s unless it sets
#   its own TIMEOUT property or CTEST_ARG has --timeout. CTEST_ARGs select
#   tests as usual (-R, -E, -L, ...) in both boots.
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

# The label is matched exactly: ctest's -L and -LE take regular expressions,
# and "tpm" alone would also match tpm-host (host-only tests).
tpm_label='^tpm$'
# The TPM boot adds -L: repeated -L options must all match, as wanted. The
# other boot cannot simply add -LE: ctest excludes a test only if its
# labels match every -LE given, so a caller's own -LE is folded into one
# regular expression with ours instead.
tpm_args=(-L "$tpm_label" "$@")
stock_args=() caller_le=
while [ $# -gt 0 ]; do
	case $1 in
	-LE|--label-exclude|--label-exclude=*)
		[ -z "$caller_le" ] || die "run-ctest.sh takes at most one -LE (it merges it with its own)"
		if [ "$1" = "${1#*=}" ]; then caller_le=${2:?}; shift 2; else caller_le=${1#*=}; shift; fi
		;;
	*) stock_args+=("$1"); shift ;;
	esac
done
stock_args=(-LE "${caller_le:+($caller_le)|}$tpm_label" "${stock_args[@]}")

# selected CTEST_ARG...: how many tests these arguments select. ctest -N
# reads the test files without running anything, so the host can answer for
# the cross-built tree; a boot that would find nothing to run is not worth a
# minute of emulation, and must not fail for lack of tests either.
selected() {
	(cd "$build" && ctest -N "$@") | sed -n 's/^Total Tests: //p'
}
n_stock=$(selected "${stock_args[@]}" || true)
n_tpm=$(selected "${tpm_args[@]}" || true)
[[ $n_stock =~ ^[0-9]+$ && $n_tpm =~ ^[0-9]+$ ]] ||
	die "ctest -N in $build did not count the tests (are the CTEST_ARGs valid?)"
[ $((n_stock + n_tpm)) -gt 0 ] || die "the CTEST_ARGs select no test in $build"

# After ctest, the guest prints the evidence lines of every test (ctest hides
# the output of passing tests), then reports ctest's status.
evidence="$ARA_SRC_DIR/tests/platform/ctest-evidence.sh"
# in_guest [RUN-GUEST-OPTION...] -- CTEST_ARG...
in_guest() {
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	"$ARA_QEMU_DIR/guest/run-guest.sh" "${guest_opts[@]}" "${opts[@]}" "${embeds[@]}" --cwd "$build" -- \
		sh -c 'ctest --output-on-failure --timeout 600 "$@"; status=$?; "$0" .; exit $status' \
		"$evidence" "$@"
}

stock_status=skipped tpm_status=skipped
if [ "$n_stock" -gt 0 ]; then
	step "ctest on Debian's kernel: $n_stock tests not labelled tpm"
	stock_status=0
	in_guest -- "${stock_args[@]}" || stock_status=$?
else
	step "no selected test runs on Debian's kernel (all are labelled tpm): that boot is skipped"
fi
if [ "$n_tpm" -gt 0 ]; then
	step "ctest in the TPM guest: $n_tpm tests labelled tpm"
	tpm_status=0
	# --no-tests=error: the host counted some; the guest must find them too.
	in_guest --tpm -- --no-tests=error "${tpm_args[@]}" || tpm_status=$?
else
	step "no selected test is labelled tpm: the TPM guest's boot is skipped"
fi

info "Debian's kernel: $stock_status; TPM guest: $tpm_status (ctest status, or skipped)"
for s in "$stock_status" "$tpm_status"; do
	case $s in 0|skipped) ;; *) exit "$s" ;; esac
done
exit 0
