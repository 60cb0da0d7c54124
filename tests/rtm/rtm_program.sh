#!/bin/sh
# A third-party program under the RTM, in the POE guest (docs/rtm.md,
# "SQLite's speedtest1", "The zstd CLI"): runs the instrumented App once
# under ara-loader with ARGS, leaving its evidence (report, segments,
# ATTEST) at exit; its output must equal the expected one, and ara-verify
# must accept the evidence under a policy made from the App's manifest.
#
# Usage: rtm_program.sh NAME BUILD_DIR APP PLAIN EXPECTED [--lines ERE] -- ARGS...
#   NAME      the test's name, in messages and in the evidence directory
#             BUILD_DIR/tests/rtm/evidence/NAME
#   APP       the instrumented App (<prog>_rtm)
#   PLAIN     the same program without the instrumentation (<prog>_plain),
#             run first with the same ARGS: its output and time; or -
#   EXPECTED  the file the output of both must equal, or "plain": PLAIN's
#             output
#   --lines ERE  compare only the output lines that match ERE (at least
#             one must): a program that prints timings beside its results
# Prints the entries logged and, as a measurement that is not checked, the
# wall time of both runs.
# Exit status: 0 passed, 1 failed.
set -u
[ $# -ge 6 ] || { sed -n 's/^# \{0,1\}//; /^Usage:/,/^Exit/p' "$0"; exit 1; }
name=$1 build=$2 app=$3 plain=$4 expected=$5
shift 5
lines=.
if [ "$1" = --lines ]; then
	lines=$2
	shift 2
fi
[ "${1:-}" = -- ] || { echo "$name: FAILED: no -- before the program's arguments"; exit 1; }
shift
loader=$build/loader/ara-loader
verify=$build/services/ara-verify
ev=$build/tests/rtm/evidence/$name

fail() {
	echo "$name: FAILED: $*"
	exit 1
}

# rtm_evidence_env, rtm_write_policy, rtm_check, rtm_accepted, rtm_report_entries.
# shellcheck source=rtm_evidence.sh
. "$(dirname "$0")/rtm_evidence.sh"
# Centiseconds since boot: busybox's date has no sub-second format.
now_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
secs() { echo "$(($1 / 100)).$(($1 / 10 % 10))s"; }
# results FILE: the lines of FILE that are compared.
results() { grep -E -- "$lines" "$1"; }

for f in "$loader" "$verify" "$app"; do
	[ -x "$f" ] || fail "$f: not an executable file"
done
rm -rf "$ev"
mkdir -p "$ev" || fail "mkdir $ev"

t0=$(now_cs)
if [ "$plain" != - ]; then
	ARA_EVIDENCE=dev-insecure "$loader" "$plain" "$@" >"$ev/plain.out" 2>"$ev/plain.err" ||
		fail "$plain exited with $? under ara-loader: $(tail -n 5 "$ev/plain.err")"
fi
t1=$(now_cs)
# shellcheck disable=SC2046 # assignments without spaces, one a word
env $(rtm_evidence_env "$ev") "$loader" "$app" "$@" >"$ev/out" 2>"$ev/err"
st=$?
t2=$(now_cs)
[ "$st" = 0 ] || fail "$app exited with $st under ara-loader: $(tail -n 5 "$ev/err")"

[ "$expected" = plain ] && expected=$ev/plain.out
[ -f "$expected" ] || fail "no expected output $expected"
results "$expected" >"$ev/expected.lines" || fail "no line of $expected matches '$lines'"
results "$ev/out" >"$ev/out.lines" || fail "no line of the App's output matches '$lines'"
cmp -s "$ev/out.lines" "$ev/expected.lines" ||
	fail "the App's output ($ev/out) differs from $expected"
if [ "$plain" != - ] && [ "$expected" != "$ev/plain.out" ]; then
	results "$ev/plain.out" | cmp -s - "$ev/expected.lines" ||
		fail "the plain build's output ($ev/plain.out) differs from $expected"
fi

for f in report attest; do
	[ -s "$ev/$f" ] || fail "the run left no $f"
done
# A short run seals no segment: all its entries are in the report.
[ -e "$ev/segments" ] || : >"$ev/segments"
rtm_write_policy "$ev" "$app"
rtm_check "$ev" "$app" "$ev/segments"
status=$?
sed 's/^/  verifier: /' "$ev/verdict"
if [ "$status" != 0 ] || ! rtm_accepted "$ev"; then
	fail "ara-verify did not accept the run (exit $status)"
fi

echo "ara-evidence: $name: output equal to $expected ($(wc -l <"$ev/expected.lines") lines" \
	"compared); $(rtm_report_entries "$ev/report") entries logged in" \
	"$(($(wc -c <"$ev/segments") / 1048576)) sealed segments and the report; verified"
p=$((t1 - t0)) r=$((t2 - t1))
[ "$plain" = - ] || echo "ara-evidence: measurement (not a check): wall time under ara-loader" \
	"in the guest: plain $(secs "$p"), instrumented $(secs "$r")"
echo "$name: passed"
