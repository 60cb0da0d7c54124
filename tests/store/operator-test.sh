#!/usr/bin/env bash
# operator-test.sh ARA_PROVISION AK_PEM POLICY sqlite|postgresql: ara-provision's
# operator commands (docs/man/ara-provision.1, "Operator commands") on a
# fresh store of that backend: each command's effect, read back by another
# command and from the database, its exit status on a second try, and
# --json lines that parse. postgresql: the server of $ARA_PG_URL and
# $ARA_PG_CONNINFO (tests/pg/pg-harness.sh run). Prints "operator-test: PASS".
set -euo pipefail
prov=$1 ak=$2 policy=$3 backend=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
fail() { echo "operator-test: FAILED: $*" >&2; exit 1; }

case $backend in
sqlite)
	store=sqlite:$tmp/store.db
	sql() { /usr/bin/python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1]); r = c.execute(sys.argv[2]).fetchall(); c.commit()
print("\n".join("|".join(str(v) for v in row) for row in r))' "$tmp/store.db" "$1"; }
	blob() { echo "x'$1'"; }
	;;
postgresql)
	[ -n "${ARA_PG_URL:-}" ] || fail "ARA_PG_URL is not set: run under tests/pg/pg-harness.sh run"
	store=$ARA_PG_URL
	sql() { psql "$ARA_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "$1"; }
	blob() { echo "'\\x$1'::bytea"; }
	;;
*) fail "backend '$backend': sqlite or postgresql" ;;
esac

# run STATUS ARGS...: ara-provision ARGS on the store, which must exit STATUS; its stdout in $out.
run() {
	local want=$1 status=0
	shift
	out=$("$prov" "$@" --store "$store" 2>"$tmp/err") || status=$?
	[ "$status" = "$want" ] || fail "ara-provision $*: status $status, not $want ($(cat "$tmp/err"))"
}
# json EXPR: every line of $out is a JSON object; EXPR holds of the list of them, d.
json() {
	/usr/bin/python3 -c 'import json, sys
d = [json.loads(l) for l in sys.stdin.read().splitlines()]
sys.exit(0 if eval(sys.argv[1]) else 1)' "$1" <<<"$out" || fail "JSON: not $1 of: $out"
}

run 0 enrol dev-1
[ "$out" = "dev-1: enrolled" ] || fail "enrol: '$out'"
run 5 enrol dev-1
run 0 enrol dev-2 --ak "$ak" --json
json "len(d) == 1 and d[0]['device'] == 'dev-2' and d[0]['enrolled'] and len(d[0]['ak_signer']) == 68"
signer=$(/usr/bin/python3 -c 'import json, sys; print(json.loads(sys.argv[1])["ak_signer"])' "$out")
[ "$(sql "SELECT count(*) FROM aks WHERE device = 'dev-2'")" = 1 ] || fail "no AK row for dev-2"
# The same AK for another device: refused, and that device not enrolled either.
run 5 enrol dev-3 --ak "$ak"
run 4 device dev-3
run 0 revoke dev-1 --reason stolen --json
json "d[0]['revoke_reason'] == 'stolen' and d[0]['revoked_ms'] > 0"
run 5 revoke dev-1
run 4 revoke dev-9
run 0 device --json
json "[x['device'] for x in d] == ['dev-1', 'dev-2'] and d[1]['last_attest'] is None"

run 0 policy add "$policy"
[ "$out" = "policy version 1 added" ] || fail "policy add: '$out'"
run 0 policy add "$policy" --json
json "d == [{'policy_version': 2}]"
[ "$(sql "SELECT count(*) FROM policies")" = 2 ] || fail "not 2 policy versions"

head -c 32 /dev/urandom >kek
chmod 600 kek
printf 'the-disk-key' >value
run 0 secret add disk-key --value value --once --kek kek --json
json "d == [{'secret': 'disk-key', 'version': 1, 'once': True}]"
run 5 secret add disk-key --value value --kek kek
run 0 secret rotate disk-key --value - --kek kek <value
[ "$out" = "secret disk-key version 2 added" ] || fail "rotate: '$out'"
run 4 secret rotate other --value value --kek kek
[ "$(sql "SELECT count(*) FROM secrets WHERE name = 'disk-key'")" = 2 ] || fail "not 2 versions"
hex=$(od -An -tx1 value | tr -d ' \n')
[ "$(sql "SELECT count(*) FROM secrets WHERE $( [ "$backend" = sqlite ] &&
	echo "instr(sealed, $(blob "$hex")) > 0" || echo "position($(blob "$hex") IN sealed) > 0")")" = 0 ] ||
	fail "the secret is in the database in plaintext"
chmod 640 kek
run 3 secret rotate disk-key --value value --kek kek

# Deliveries and decisions are the service's to record: two of each, here by SQL.
pub=04$(printf '%0128d' 0) app=$(printf 'ab%.0s' $(seq 32))
for i in 1 2; do
	sql "INSERT INTO deliveries (time_ms, peer, session, service, device, instance_pub, app,
	     secret, secret_version, once) VALUES ($((1767225600000 + i * 1000)), 'tcp 127.0.0.1:$((4000 + i))',
	     $i, 'svc-a', 'dev-2', $(blob "$pub"), $(blob "$app"), 'disk-key', $i, $((2 - i)))" >/dev/null
	sql "INSERT INTO audit (time_ms, peer, session, service, decision, reason, detail, device,
	     secret, policy_version) VALUES ($((1767225600000 + i * 1000)), 'unix /run/p.sock', $i, 'svc-a',
	     '$([ $i = 1 ] && echo refused || echo delivered)', '$([ $i = 1 ] && echo stale)',
	     'line $i', 'dev-2', 'disk-key', 2)" >/dev/null
done
run 0 deliveries --json
json "[x['secret_version'] for x in d] == [1, 2] and d[0]['once'] and not d[1]['once'] and d[0]['app'] == '$app' and d[0]['instance_pub'] == '$pub' and d[0]['time'] == '2026-01-01T00:00:01.000Z'"
run 0 deliveries --since 2026-01-01T00:00:02Z
[ "$(wc -l <<<"$out")" = 1 ] && [[ $out == *"disk-key v2 to device dev-2"* ]] || fail "deliveries --since: '$out'"
run 0 deliveries --until 2026-01-01T00:00:01.500Z --device dev-2 --secret disk-key --json
json "len(d) == 1 and d[0]['session'] == 1"
run 0 deliveries --device dev-1
[ -z "$out" ] || fail "deliveries of dev-1: '$out'"
run 0 audit --decision refused --json
json "len(d) == 1 and d[0]['reason'] == 'stale' and d[0]['peer'] == 'unix /run/p.sock' and d[0]['policy_version'] == 2"
run 0 audit --limit 1
[[ $out == *" delivered peer unix /run/p.sock session 2 device dev-2 secret disk-key: line 2" ]] ||
	fail "audit --limit 1: '$out'"
echo "operator-test: PASS ($backend, AK $signer)"
