#!/bin/sh
# A C++ program under the RTM, in the POE guest (docs/rtm.md, "A C++
# program: Stockfish"): Debian's Stockfish 17, built with the
# instrumentation (stockfish_rtm), runs its bench under ara-loader; it must
# search exactly what the uninstrumented build (stockfish_plain) searches
# (the node count and the best move of each of the bench's positions), and
# ara-verify must accept the evidence it leaves at exit (report, segments,
# attestation) under a policy made from its manifest. It also prints the cost of the instrumentation (a
# measurement, not a check).
#
# Usage: stockfish_rtm.sh BUILD_DIR DEPTH
set -u
build=$1 depth=$2
# loader and verify: for rtm_evidence.sh.
loader=$build/loader/ara-loader
# shellcheck disable=SC2034
verify=$build/services/ara-verify
dir=$build/tests/rtm/stockfish
app=$dir/stockfish_rtm
ev=$dir/evidence

fail() {
	echo "stockfish_rtm: FAILED: $*"
	exit 1
}

# hex_of, rtm_evidence_env, rtm_write_policy, rtm_check, rtm_accepted.
# shellcheck source=../rtm_evidence.sh
. "$(dirname "$0")/../rtm_evidence.sh"
# Centiseconds since boot: busybox's date has no sub-second format.
now_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
# The bench's node count and number of positions (on stderr), and its
# best moves (on stdout).
nodes_of() { sed -n 's/^Nodes searched *: *//p' "$1"; }
positions_of() { sed -n 's|^Position: 1/\([0-9]*\) .*|\1|p' "$1"; }
moves_of() { grep '^bestmove ' "$1"; }
seconds() { echo "$(($1 / 100)).$(($1 / 10 % 10))s"; }

rm -rf "$ev"
mkdir -p "$ev" || fail "mkdir $ev"
evidence_env=$(rtm_evidence_env "$ev")
bench="bench 16 1 $depth default depth"

t0=$(now_cs)
# shellcheck disable=SC2086 # the bench's arguments are words
ARA_EVIDENCE=dev-insecure "$loader" "$dir/stockfish_plain" $bench >"$ev/plain.out" \
	2>"$ev/plain.err" || fail "stockfish_plain exited with $? under ara-loader: $(cat "$ev/plain.err")"
t1=$(now_cs)
# shellcheck disable=SC2086 # assignments without spaces, and the bench's words
env $evidence_env "$loader" "$app" $bench >"$ev/out" 2>"$ev/err"
st=$?
t2=$(now_cs)
grep -v -e '^Position: ' -e '^$' "$ev/err" | sed 's/^/  stockfish_rtm: /'
[ "$st" = 0 ] || fail "stockfish_rtm exited with $st under ara-loader"

nodes=$(nodes_of "$ev/err")
[ "${nodes:-0}" -gt 0 ] || fail "stockfish_rtm printed no node count"
[ "$nodes" = "$(nodes_of "$ev/plain.err")" ] ||
	fail "stockfish_rtm searched $nodes nodes, stockfish_plain $(nodes_of "$ev/plain.err")"
moves_of "$ev/out" >"$ev/moves"
moves_of "$ev/plain.out" >"$ev/plain.moves"
positions=$(positions_of "$ev/err")
[ "$(wc -l <"$ev/moves")" = "${positions:-none}" ] ||
	fail "stockfish_rtm gave $(wc -l <"$ev/moves") best moves for ${positions:-no} positions"
cmp -s "$ev/moves" "$ev/plain.moves" || fail "stockfish_rtm's best moves differ from stockfish_plain's"
for f in report attest segments; do
	[ -s "$ev/$f" ] || fail "the run left no $f"
done

rtm_write_policy "$ev" "$app"
rtm_check "$ev" "$app" "$ev/segments"
status=$?
sed 's/^/  verifier: /' "$ev/verdict"
if [ "$status" != 0 ] || ! rtm_accepted "$ev"; then
	fail "ara-verify did not accept the run (exit $status)"
fi
segs=$(($(wc -c <"$ev/segments") / 1048576))
[ "$segs" -ge 1 ] || fail "no sealed segment: the workload is too small"
# C++'s indirect calls are logged (and were just verified): entries of
# kind ARA_RTM_ICALL (1, the top byte of the little-endian entry) in the
# first segment.
icall=$(head -c 1048576 "$ev/segments" | od -An -v -tx1 -w8 | awk '$8 == "01"' | wc -l)
[ "$icall" -gt 0 ] || fail "no indirect call logged in segment 0"
echo "ara-evidence: Stockfish 17 under the RTM: bench to depth $depth searched $nodes nodes," \
	"as stockfish_plain, with the same best moves in its $positions positions;" \
	"$(sed -n 's/^ara-verify: OK: //p' "$ev/verdict");" \
	"$icall of segment 0's 131072 entries are indirect calls"
plain=$((t1 - t0)) rtm=$((t2 - t1))
[ "$plain" -gt 0 ] || plain=1
echo "ara-evidence: measurement (not a check): wall time under ara-loader in the guest:" \
	"stockfish_plain $(seconds $plain), stockfish_rtm $(seconds $rtm)," \
	"ratio $((rtm / plain)).$((rtm * 10 / plain % 10))"
echo "stockfish_rtm: passed"
