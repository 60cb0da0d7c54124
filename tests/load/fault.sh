#!/usr/bin/env bash
# fault.sh BUILD [PROFILE]: the provisioning service under faults, with two
# instances on 127.0.0.1 (docs/performance.md, "Provisioning service") and
# a tenth of the devices with tpm evidence (swtpm); afterwards the
# invariants: no faulty session delivered, no audit record lost for a
# session the generator saw delivered, no crash, a replayed session
# refused on either instance. PROFILE: short (the ctest, default)
# or long. Prints "fault: PASS"; any failure "fault: FAILED: what".
set -euo pipefail
prog=fault
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/load/lib.sh
. "$here/lib.sh"
build=$1 profile=${2:-short}
case $profile in
short) sessions=600 window=2 ;;
long) sessions=20000 window=15 ;;
*) echo "$prog: FAILED: profile '$profile': short or long" >&2; exit 2 ;;
esac
fail() {
	echo "$prog: FAILED: $*" >&2
	for l in "$work"/*.log "$work"/*.err; do [ ! -s "$l" ] || tail -n 5 "$l" | sed "s|^|  $(basename "$l"): |" >&2; done
	exit 1
}
load_setup "$build"
tpm_setup "$build"
instance_start a
instance_start b
both=(--connect "127.0.0.1:$port_a" --connect "127.0.0.1:$port_b")
delivered=0

# run STATUS NAME ARGS...: one ara-loadgen run (NAME.json, NAME.txt); its status must be STATUS.
run() {
	local want=$1 out=$2 status=0
	shift 2
	loadgen --json "$work/$out.json" "$@" >"$work/$out.txt" 2>&1 || status=$?
	[ "$status" = "$want" ] || fail "$out: status $status, not $want: $(cat "$work/$out.txt")"
	[ "$(json "$work/$out.json" breaches)" = 0 ] || fail "$out: a breach: $(cat "$work/$out.txt")"
	delivered=$((delivered + $(json "$work/$out.json" delivered)))
}

# The generator's own check can fail: an instance whose secret is another
# (same name) is a breach to it (status 4).
mkdir "$work/other"
sed "s|^secrets .*|secrets $work/other/secrets|" "$policy" >"$work/other/policy"
sed -i "s|^tpm-ak .*|tpm-ak $work/ak.pem|" "$work/other/policy"
(umask 077; echo "media-key $(hex_of 32)" >"$work/other/secrets")
policy_main=$policy
policy=$work/other/policy instance_start other
status=0
# shellcheck disable=SC2154 # port_other: set by instance_start
loadgen --connect "127.0.0.1:$port_other" --sessions 4 --concurrency 2 >"$work/other.txt" 2>&1 || status=$?
[ "$status" = 4 ] || fail "another secret delivered: status $status, not 4: $(cat "$work/other.txt")"
instance_kill other TERM
policy=$policy_main

# A session recorded on a, for the replays.
run 0 record --connect "127.0.0.1:$port_a" --sessions 8 --concurrency 2 --record "$work/rec.attest"

# Faults at volume on both instances, stalled and slow clients alongside.
# A tenth of the devices have tpm evidence, quoted by swtpm.
run 0 mixed "${both[@]}" --sessions "$sessions" --concurrency 64 --malformed 5 --oversized 2 \
	--replay 5:"$work/rec.attest" --stalled 4 --slow 2 --timeout 30 \
	--devices 60 --tpm-devices 6 "${tpm_args[@]}"
for k in malformed oversized replay; do
	n=$(json "$work/mixed.json" "ends.$k.refused")
	[ "$n" -gt 0 ] || fail "mixed: no $k session refused"
done
# The replay goes to both instances (round-robin): each refused it as not this session's.
[ "$(json "$work/mixed.json" ends.replay.refusals.session)" = "$(json "$work/mixed.json" ends.replay.refused)" ] ||
	fail "mixed: a replay refused for another reason than the session's signature"
run 0 replay-b --connect "127.0.0.1:$port_b" --sessions 4 --concurrency 1 --replay 100:"$work/rec.attest"
[ "$(json "$work/replay-b.json" ends.replay.refusals.session)" = 4 ] || fail "replay-b: not refused"

# kill -9 of instance b mid-session, then b again on its port: sessions to
# b fail meanwhile (status 1), none is a breach; then all deliver again.
loadgen --json "$work/kill.json" "${both[@]}" --duration "$window" --sessions 0 --concurrency 64 \
	>"$work/kill.txt" 2>&1 &
lg=$!
sleep 1
instance_kill b KILL
instance_start b "$port_b"
status=0
wait $lg || status=$?
[ "$status" = 0 ] || [ "$status" = 1 ] || fail "kill: status $status: $(cat "$work/kill.txt")"
[ "$(json "$work/kill.json" breaches)" = 0 ] || fail "kill: a breach"
delivered_killed=$(json "$work/kill.json" delivered)
run 0 after-kill "${both[@]}" --sessions 200 --concurrency 32

# No crash: both instances alive, no sanitizer report.
for n in a b; do
	v=pid_$n
	kill -0 "${!v}" 2>/dev/null || fail "instance $n is gone"
done
! grep -l 'AddressSanitizer\|runtime error' "$work"/*.err /dev/null >/dev/null || fail "a sanitizer report"

# Every session the generator saw delivered has its record: a's and b's
# logs (b's before the kill included) hold at least as many deliveries.
logged=$(cat "$work"/a.log "$work"/b.log* | grep -c '"decision":"delivered"' || true)
[ "$logged" -ge $((delivered + delivered_killed)) ] ||
	fail "records: $logged deliveries logged, $((delivered + delivered_killed)) seen by the generator"
echo "$prog: $((delivered + delivered_killed)) sessions delivered, $logged logged; faults refused; no crash"
echo "$prog: PASS"
