#!/bin/sh
# Runs Linux's pkey/POE selftests (built by build-selftests.sh, which puts
# this script next to the binaries) inside the POE guest, and judges each.
# Usage: run-selftests.sh [NAME...]   runs the named tests (default: all)
#        run-selftests.sh --list      prints the test names
# Prints each test's output, then "selftest NAME: PASS|FAIL (exit N)", and
# finally "N passed, M failed"; exits 1 if any failed.
# Written for busybox sh: the guest's /bin/sh is busybox ash.
#
# Pass means exit status 0 AND the output lines that prove POE was really
# exercised. Exit status alone is not enough: protection_keys and
# poe_siginfo exit 0 on a CPU without POE (they test that pkeys are absent),
# hwcap exits 0 whatever it finds, and a kselftest SKIP ("pkeys not
# supported") is a failure here, because on the POE platform a POE test
# that finds no POE has found a broken platform.

ALL="protection_keys pkey_sighandler_tests poe_siginfo hwcap_poe"

# binary NAME
binary() {
	case $1 in
	hwcap_poe) echo hwcap ;;
	*) echo "$1" ;;
	esac
}

# tunables NAME: the GLIBC_TUNABLES the test runs with. pkey_sighandler_tests
# denies pkey 0 in threads from pthread_create, whose rseq area (glibc's,
# under pkey 0) the kernel updates through the thread's POR_EL0 after a
# preemption: a preemption in that window would end the thread with a
# SIGSEGV of the kernel's (tests/platform/rseq_preempt.c). Without the area
# the tests see only what they test.
tunables() {
	case $1 in
	pkey_sighandler_tests) echo glibc.pthread.rseq=0 ;;
	*) echo "${GLIBC_TUNABLES:-}" ;;
	esac
}

# expected NAME: the lines (extended regexps) the output must contain.
expected() {
	case $1 in
	protection_keys)
		# The kernel's pkey_alloc() works (it fails without POE), and all
		# 22 iterations of its tests ran; a failed assertion exits early.
		printf '%s\n' '^has pkeys: 1$'
		printf '%s\n' '^done \(all tests OK\)$' ;;
	pkey_sighandler_tests)
		# kselftest TAP summary: every test passed, none skipped.
		printf '%s\n' '^# Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:0 error:0$' ;;
	poe_siginfo)
		# Both the HWCAP2_POE bit and the POR_EL0 signal frame record.
		printf '%s\n' '^POR_EL0 sigframe present on system with POE$'
		printf '%s\n' '^==>> completed\. PASS\(1\)$' ;;
	hwcap_poe)
		# Only the POE entries of hwcap count: its other entries test
		# features that are no business of this platform.
		printf '%s\n' '^# POE present$'
		printf '%s\n' '^ok [0-9]+ cpuinfo_match_POE$'
		printf '%s\n' '^ok [0-9]+ sigill_POE$' ;;
	esac
}

if [ "${1:-}" = --list ]; then
	for t in $ALL; do echo "$t"; done
	exit 0
fi

dir=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2086 # the names are split on purpose
[ $# -gt 0 ] || set -- $ALL
# hwcap reads /proc/cpuinfo, protection_keys /proc/self/*.
[ -r /proc/cpuinfo ] || { echo "run-selftests.sh: /proc is not mounted" >&2; exit 1; }
# protection_keys read()s /etc/passwd, as a file every system has, into
# pkey-protected buffers; qemu/guest/build-guest.sh provides it.
[ -r /etc/passwd ] || { echo "run-selftests.sh: no /etc/passwd (protection_keys reads it)" >&2; exit 1; }
log=$(mktemp) || exit 1
trap 'rm -f "$log" "$log.rc"' EXIT

passed=0
failed=0
for t in "$@"; do
	if [ -z "$(expected "$t")" ]; then
		echo "run-selftests.sh: unknown test '$t' (known: $ALL)" >&2
		exit 1
	fi
	echo "==> selftest $t"
	start=$(date +%s)
	# The output is shown as it comes (protection_keys runs for minutes
	# under TCG) and kept for the checks; the exit status crosses the pipe
	# in a file.
	{ GLIBC_TUNABLES=$(tunables "$t") "$dir/bin/$(binary "$t")" 2>&1; echo $? >"$log.rc"; } | tee "$log"
	rc=$(cat "$log.rc")
	result=PASS
	[ "$rc" = 0 ] || result=FAIL
	while IFS= read -r re; do
		if ! grep -Eq "$re" "$log"; then
			echo "# missing expected output: $re"
			result=FAIL
		fi
	done <<-EOF
		$(expected "$t")
	EOF
	echo "# $t took $(( $(date +%s) - start ))s"
	echo "selftest $t: $result (exit $rc)"
	if [ $result = PASS ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
