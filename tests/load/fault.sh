#!/usr/bin/env bash
# fault.sh BUILD BACKEND [PROFILE]: the provisioning service under faults,
# two instances on 127.0.0.1 sharing one store (BACKEND sqlite or
# postgresql; docs/performance.md, "Provisioning service"), a tenth of the
# devices with tpm evidence (swtpm): malformed and oversized messages and
# replays at volume, stalled and slow clients, a once-only secret asked for
# on both instances at once, kill -9 of an instance mid-session, and with
# PostgreSQL the database restarted under load. Afterwards the invariants,
# from the database too (invariants.sh): no faulty session delivered, no
# once-only secret twice, no audit record lost for a session the generator
# saw delivered, no crash, a replayed session refused on either instance.
# PROFILE: short (the ctest, default) or long. Prints "fault: PASS"; any failure "fault: FAILED: what".
set -euo pipefail
prog=fault
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/load/lib.sh
. "$here/lib.sh"
build=$1 backend=$2 profile=${3:-short}
case $profile in
short) sessions=400 window=2 ;;
long) sessions=20000 window=15 ;;
*) echo "$prog: FAILED: profile '$profile': short or long" >&2; exit 2 ;;
esac
fail() {
	echo "$prog: FAILED: $*" >&2
	for l in "$work"/*.log "$work"/*.err; do [ ! -s "$l" ] || tail -n 5 "$l" | sed "s|^|  $(basename "$l"): |" >&2; done
	exit 1
}
load_setup "$build" "$backend"
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
policy_main=$policy store_main=("${store_args[@]}")
# Its own store: the shared one would take its secret as a new version.
store_args=(--store "sqlite:$work/other/store.db" --kek "$work/kek")
policy=$work/other/policy instance_start other
store_args=("${store_main[@]}")
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
replayed=$(($(json "$work/mixed.json" ends.replay.refused) + 4))

# A once-only secret, asked for by 40 sessions on both instances at once:
# the database lets one through, the others are refused (status 1).
head -c 32 /dev/urandom >"$work/once.bin"
"$provision" secret add once-key --value "$work/once.bin" --once "${admin_args[@]}" >/dev/null ||
	fail "secret add once-key --once"
mkdir "$work/gen"
sed -e "s|^secrets .*|secrets $work/gen/secrets|" -e "s|^tpm-ak .*|tpm-ak $work/ak.pem|" \
	"$policy" >"$work/gen/policy"
(umask 077; echo "once-key $(od -An -tx1 "$work/once.bin" | tr -d ' \n')" >"$work/gen/secrets")
status=0
"$loadgen" --policy "$work/gen/policy" --name once-key "${both[@]}" --sessions 40 --concurrency 20 \
	--json "$work/once.json" >"$work/once.txt" 2>&1 || status=$?
if [ "$status" != 1 ] || [ "$(json "$work/once.json" delivered)" != 1 ] ||
	[ "$(json "$work/once.json" ends.genuine.refused)" != 39 ]; then
	fail "once-only: status $status, not one delivered and 39 refused: $(cat "$work/once.txt")"
fi
delivered=$((delivered + 1))

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

# The database restarted under load (PostgreSQL; SQLite is a file in the
# service): sessions fail meanwhile, none is a breach; then all deliver.
delivered_restart=0
if [ "$backend" = postgresql ]; then
	loadgen --json "$work/restart.json" "${both[@]}" --duration "$window" --sessions 0 \
		--concurrency 64 >"$work/restart.txt" 2>&1 &
	lg=$!
	sleep 1
	"$pg_harness" restart "$pg_dir" immediate || fail "the database does not restart"
	status=0
	wait $lg || status=$?
	[ "$status" = 0 ] || [ "$status" = 1 ] || fail "restart: status $status: $(cat "$work/restart.txt")"
	[ "$(json "$work/restart.json" breaches)" = 0 ] || fail "restart: a breach"
	delivered_restart=$(json "$work/restart.json" delivered)
	run 0 after-restart "${both[@]}" --sessions 200 --concurrency 32
fi

# No crash: both instances alive, no sanitizer report.
for n in a b; do
	v=pid_$n
	kill -0 "${!v}" 2>/dev/null || fail "instance $n is gone"
done
! grep -l 'AddressSanitizer\|runtime error' "$work"/*.err /dev/null >/dev/null || fail "a sanitizer report"

# Every session the generator saw delivered has its records: in a's and
# b's logs (b's before the kill included), and in the database.
seen=$((delivered + delivered_killed + delivered_restart))
logged=$(cat "$work"/a.log "$work"/b.log* | grep -c '"decision":"delivered"' || true)
[ "$logged" -ge "$seen" ] || fail "records: $logged deliveries logged, $seen seen by the generator"
bash "$here/invariants.sh" "$store" "$seen" "$replayed" >"$work/invariants.txt" 2>&1 ||
	fail "$(cat "$work/invariants.txt")"
cat "$work/invariants.txt"
echo "$prog: $seen sessions delivered, $logged logged; faults refused; no crash"
echo "$prog: PASS"
