#!/bin/sh
# Prints, from a ctest LastTest.log, the lines that show what each test
# established (which POE state a guest found, each Linux selftest's verdict,
# conformance totals, the demo's verdict), each prefixed with its test's
# name. ctest hides the output of passing tests; this keeps the evidence in
# the log of every run without making it verbose. POSIX sh and awk, so it
# runs in the guest's busybox too.
# Usage: ctest-evidence.sh BUILD_DIR
log="$1/Testing/Temporary/LastTest.log"
[ -f "$log" ] || { echo "ctest-evidence: no $log" >&2; exit 1; }
awk '
	/^[0-9]+\/[0-9]+ Testing: / { test = $3; next }
	/^ARA-GUEST: POE/ ||
	/^selftest [a-z_]+: (PASS|FAIL)/ ||
	/^S1POE not implemented/ ||
	/^[0-9]+ passed, [0-9]+ failed$/ ||
	/^POE works|^POE demonstration FAILED/ ||
	/^expect-failure: / ||
	/^ara-evidence: / ||
	/^scan-elf: |^scan-vs-capstone: |^fuzz-smoke: / ||
	/^loader-case [a-z-]+: PASS/ { printf "  evidence  %-36s %s\n", test, $0 }
' "$log"
