#!/bin/sh
# The RTM on a third-party program, in the POE guest (docs/rtm.md, "A
# third-party program: Lua"): Debian's Lua 5.4 interpreter, built with the
# instrumentation (lua_rtm), runs workload.lua under ara-loader; its output
# must equal the build machine's lua5.4's, and ara-verify must accept the
# evidence it leaves at exit (report, segments, attestation) under a policy
# made from its manifest.
#
# Usage: lua_rtm.sh MODE BUILD_DIR SCRIPT EXPECTED
#   run              the run and its verification; keeps the evidence in
#                    BUILD_DIR/tests/rtm/lua/evidence for the next mode, and
#                    prints the cost of the instrumentation (a measurement,
#                    not a check: the same script under lua_plain)
#   flipped-segment  the same evidence with one byte of a segment flipped:
#                    ara-verify must reject it at the chain
set -u
mode=$1 build=$2 script=$3 expected=$4
loader=$build/loader/ara-loader
verify=$build/services/ara-verify
dir=$build/tests/rtm/lua
app=$dir/lua_rtm
ev=$dir/evidence

fail() {
	echo "lua_rtm[$mode]: FAILED: $*"
	exit 1
}

# hex_of, rtm_evidence_env, rtm_write_policy, rtm_check, rtm_accepted.
# shellcheck source=../rtm_evidence.sh
. "$(dirname "$0")/../rtm_evidence.sh"
# Centiseconds since boot: busybox's date has no sub-second format.
now_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }

# check SEGMENTS: ara-verify's verdict on the run's evidence with those
# segments, in $ev/verdict, its status in $status.
check() {
	rtm_check "$ev" "$app" "$1"
	status=$?
	sed 's/^/  verifier: /' "$ev/verdict"
}

case $mode in
run)
	rm -rf "$ev"
	mkdir -p "$ev" || fail "mkdir $ev"
	evidence_env=$(rtm_evidence_env "$ev")

	t0=$(now_cs)
	ARA_EVIDENCE=dev-insecure "$loader" "$dir/lua_plain" "$script" >"$ev/plain.out" \
		2>"$ev/plain.err" || fail "lua_plain exited with $? under ara-loader: $(cat "$ev/plain.err")"
	t1=$(now_cs)
	# shellcheck disable=SC2086 # assignments without spaces, one a word
	env $evidence_env "$loader" "$app" "$script" >"$ev/out" 2>"$ev/err"
	st=$?
	t2=$(now_cs)
	sed 's/^/  lua_rtm: /' "$ev/out" "$ev/err"
	[ "$st" = 0 ] || fail "lua_rtm exited with $st under ara-loader"
	cmp -s "$ev/out" "$expected" ||
		fail "lua_rtm's output differs from the host's lua5.4 ($expected)"
	cmp -s "$ev/plain.out" "$expected" ||
		fail "lua_plain's output differs from the host's lua5.4 ($expected)"
	for f in report attest segments; do
		[ -s "$ev/$f" ] || fail "the run left no $f"
	done

	rtm_write_policy "$ev" "$app"
	check "$ev/segments"
	if [ "$status" != 0 ] || ! rtm_accepted "$ev"; then
		fail "ara-verify did not accept the run (exit $status)"
	fi
	segs=$(($(wc -c <"$ev/segments") / 1048576))
	[ "$segs" -ge 2 ] || fail "only $segs sealed segment(s): the workload is too small"
	# The VM's computed-goto dispatch is logged (and was just verified):
	# entries of kind ARA_RTM_IJMP (3, the top byte of the little-endian
	# entry) in the first segment.
	ijmp=$(head -c 1048576 "$ev/segments" | od -An -v -tx1 -w8 | awk '$8 == "03"' | wc -l)
	[ "$ijmp" -gt 0 ] || fail "no indirect jump logged: is the VM's computed goto instrumented?"
	echo "ara-evidence: Lua 5.4 under the RTM: output equal to the host's lua5.4" \
		"($(wc -l <"$expected") lines); $(sed -n 's/^ara-verify: OK: //p' "$ev/verdict");" \
		"$segs segment files of 1 MiB; $ijmp of segment 0's 131072 entries are the VM's computed gotos"
	plain=$((t1 - t0)) rtm=$((t2 - t1))
	[ "$plain" -gt 0 ] || plain=1
	echo "ara-evidence: measurement (not a check): wall time under ara-loader in the guest:" \
		"lua_plain $((plain / 100)).$((plain / 10 % 10))s, lua_rtm" \
		"$((rtm / 100)).$((rtm / 10 % 10))s, ratio $((rtm / plain)).$((rtm * 10 / plain % 10))"
	;;
flipped-segment)
	[ -s "$ev/segments" ] || fail "no evidence in $ev (the lua_rtm test runs first)"
	cp "$ev/segments" "$ev/flipped" || fail "cp"
	# One byte in the middle of the first segment, XOR 1.
	off=524288
	b=$(od -An -tu1 -j$off -N1 "$ev/flipped" | tr -d ' ')
	# shellcheck disable=SC2059 # the format is the byte's octal escape
	printf "\\$(printf %o $((b ^ 1)))" |
		dd of="$ev/flipped" bs=1 seek=$off conv=notrunc 2>/dev/null || fail "dd"
	cmp -s "$ev/segments" "$ev/flipped" && fail "the byte was not flipped"
	check "$ev/flipped"
	[ "$status" = 0 ] && { echo "BREACH: ara-verify accepted a rewritten segment"; fail "accepted"; }
	[ "$status" = 1 ] || fail "ara-verify made no decision (exit $status)"
	grep -q '^ara-verify: REJECTED: .*chain value is not the hash of the segments' "$ev/verdict" ||
		fail "ara-verify rejected the flipped segment, but not at the chain"
	echo "ara-evidence: Lua 5.4 under the RTM: a flipped byte in segment 0 is rejected at the chain"
	;;
*)
	fail "unknown mode (run, flipped-segment)"
	;;
esac
echo "lua_rtm[$mode]: passed"
