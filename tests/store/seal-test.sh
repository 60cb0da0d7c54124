#!/usr/bin/env bash
# seal-test.sh ARA_PROVISION ARA_LOADGEN RULE1_ROWS sqlite|postgresql: what a
# database writer without the KEK can do to the secrets at rest
# (docs/provisioning.md, "Secrets at rest"), against the real service and
# devices (ara-loadgen, which checks each DELIVER's secret), on a store of
# that backend. The store starts as a release before sealing rule 2 left it
# (RULE1_ROWS, tests/store/fixtures/rule1-rows.txt): rows sealed under rule
# 1, the name alone bound.
#   twin: v1's sealed value copied into v2's row and a once-only flag
#         cleared, before the upgrade: the service delivers v1's value as
#         v2 and the once-only secret twice (rule 1 cannot tell);
#   rule 2: another KEK at the upgrade is refused with nothing changed;
#         with the KEK every row is re-sealed; then the same two tamperings
#         are refused with a clear audit record, and nothing else is
#         delivered wrong; undone, the rows serve again.
# postgresql: the server of $ARA_PG_URL and $ARA_PG_CONNINFO
# (tests/pg/pg-harness.sh run), a schema per store. Prints "seal-test: PASS".
set -euo pipefail
prov=$1 loadgen=$2 rows=$3 backend=$4
tmp=$(mktemp -d)
pid=
cleanup() {
	[ -z "$pid" ] || { kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
	rm -rf "$tmp"
}
trap cleanup EXIT
fail() {
	echo "seal-test: FAILED: $*" >&2
	[ ! -s "$tmp/serve.err" ] || sed 's/^/  serve: /' "$tmp/serve.err" >&2
	exit 1
}
case $backend in sqlite | postgresql) ;; *) fail "backend '$backend': sqlite or postgresql" ;; esac
[ "$backend" = sqlite ] || [ -n "${ARA_PG_URL:-}" ] ||
	fail "ARA_PG_URL is not set: run under tests/pg/pg-harness.sh run"

# The fixture's KEK and rows; another KEK.
read -r _ kek_hex < <(grep '^kek ' "$rows")
(umask 077
python3 -c 'import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]))' "$kek_hex" >"$tmp/kek"
head -c 32 /dev/urandom >"$tmp/other-kek")
value_of() { awk -v n="$1" -v v="$2" '$1 == "row" && $2 == n && $3 == v { print $6 }' "$rows"; }

# A dev-insecure policy with no secrets (the store holds them); the
# devices' copy names the secret value each DELIVER must hold.
hex_of() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
printf 'backend dev-insecure\nmax-age 600\nloader %s\nlibara %s\nentry %s\napp %s\n' \
	"$(hex_of 32)" "$(hex_of 32)" "$(hex_of 32)" "$(hex_of 32)" >"$tmp/policy"
expect() { # expect NAME VALUE: the devices' policy
	(umask 077; printf '%s %s\n' "$1" "$(printf '%s' "$2" | od -An -tx1 | tr -d ' \n')" >"$tmp/secrets-$1")
	{ cat "$tmp/policy"; echo "secrets secrets-$1"; } >"$tmp/devices-$1"
}

# store NAME: a fresh store ($url, sql) at schema version 3 holding the
# fixture's rows. Step 4 changes no table, so that is a new store with its
# step-4 row taken out of ara_schema and the rows put in.
store() {
	case $backend in
	sqlite)
		url=sqlite:$tmp/$1.db
		sql() { sqlite3 -batch "${url#sqlite:}" "$1"; }
		blob() { echo "x'$1'"; }
		hex='hex(sealed)' first_byte="substr(sealed, 1, 1) = x'02'"
		;;
	postgresql)
		psql "$ARA_PG_CONNINFO" -XAtq -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $1" >/dev/null
		url="$ARA_PG_URL?options=-c%20search_path%3D$1"
		eval "sql() { psql \"\$ARA_PG_CONNINFO options='-c search_path=$1'\" -XAtq -v ON_ERROR_STOP=1 -c \"\$1\"; }"
		blob() { echo "'\\x$1'::bytea"; }
		hex="encode(sealed, 'hex')" first_byte="get_byte(sealed, 0) = 2"
		;;
	esac
	"$prov" device --store "$url" >/dev/null || fail "$1: cannot create the store"
	sql "DELETE FROM ara_schema WHERE version = 4" >/dev/null
	while read -r _ name version once created _ sealed; do
		sql "INSERT INTO secrets (name, version, once, sealed, created_ms)
		     VALUES ('$name', $version, $once, $(blob "$sealed"), $created)" >/dev/null
	done < <(grep '^row ' "$rows")
}
schema() { sql "SELECT max(version) FROM ara_schema"; }
dump() { sql "SELECT name, version, once, created_ms, $hex FROM secrets ORDER BY name, version"; }
sealed_of() { sql "SELECT $hex FROM secrets WHERE name = '$1' AND version = $2"; }
set_sealed() { # NAME VERSION HEX
	sql "UPDATE secrets SET sealed = $(blob "$3") WHERE name = '$1' AND version = $2" >/dev/null
}

# serve KEK: the service on the store, its port in $port (status 0), or its exit status.
serve() {
	local tries=0
	port=
	: >"$tmp/serve.log"
	"$prov" serve --policy "$tmp/policy" --store "$url" --kek "$1" --tcp 127.0.0.1:0 \
		--log "$tmp/serve.log" 2>"$tmp/serve.err" &
	pid=$!
	while [ -z "$port" ]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			local status=0
			wait "$pid" || status=$?
			pid=
			return "$status"
		fi
		[ $((tries += 1)) -lt 400 ] || fail "the service does not start"
		sleep 0.05
		port=$(sed -n 's/^{.*"event":"listening","detail":"tcp 127\.0\.0\.1:\([0-9]*\)"}$/\1/p' "$tmp/serve.log")
	done
}
stop() { kill -TERM "$pid"; wait "$pid" || fail "the service exited $?"; pid=; }

# devices STATUS NAME: one device asks for NAME; ara-loadgen must exit STATUS
# (0 delivered the expected value, 1 refused, 4 a DELIVER with another value).
devices() {
	local status=0
	"$loadgen" --policy "$tmp/devices-$2" --name "$2" --connect "127.0.0.1:$port" --sessions 1 \
		--concurrency 1 >"$tmp/loadgen.out" 2>&1 || status=$?
	[ "$status" = "$1" ] || fail "$2: ara-loadgen status $status, not $1: $(cat "$tmp/loadgen.out")"
}
# last_refusal: the audit log's newest record is a refusal (internal); its detail.
last_refusal() {
	"$prov" audit --store "$url" --limit 1 --json >"$tmp/audit.json" || fail "audit: status $?"
	python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))
if a["decision"] != "refused" or a["reason"] != "internal":
    sys.exit("not refused as internal: %s" % a)
print(a["detail"])' "$tmp/audit.json" || fail "the audit record: $(cat "$tmp/audit.json")"
}
delivered() { sql "SELECT count(*) FROM deliveries WHERE secret = '$1'"; }

v2=$(value_of media-key 2) single=$(value_of single 1)
expect media-key "$v2"
expect single "$single"

# The twin: the same tampering on rule-1 rows gets through.
store twin
set_sealed media-key 2 "$(sealed_of media-key 1)"
sql "UPDATE secrets SET once = 0 WHERE name = 'single'" >/dev/null
serve "$tmp/kek" || fail "twin: the service exited $?"
[ "$(schema)" = 4 ] || fail "twin: not migrated"
devices 4 media-key
devices 0 single
devices 0 single
[ "$(delivered single)" = 2 ] || fail "twin: the once-only secret not delivered twice"
stop

# Rule 2: the upgrade with another KEK is refused, nothing changed.
store rule2
before=$(dump)
status=0
serve "$tmp/other-kek" || status=$?
[ "$status" = 3 ] || fail "another KEK: the service's status $status, not 3"
grep -q "does not open under this KEK.*nothing was changed" "$tmp/serve.err" ||
	fail "another KEK: no clear refusal: $(cat "$tmp/serve.err")"
[ "$(schema)" = 3 ] || fail "another KEK: the schema changed"
[ "$(dump)" = "$before" ] || fail "another KEK: the rows changed"
# With the KEK: every row re-sealed, and served right.
serve "$tmp/kek" || fail "the service exited $?"
[ "$(schema)" = 4 ] || fail "not migrated"
[ "$(sql "SELECT count(*) FROM secrets WHERE $first_byte")" = 3 ] ||
	fail "not every row re-sealed under rule 2"
devices 0 media-key
# v1's value in v2's row: refused, with the reason in the audit log.
v2_sealed=$(sealed_of media-key 2)
set_sealed media-key 2 "$(sealed_of media-key 1)"
devices 1 media-key
detail=$(last_refusal)
[[ $detail == *"secret 'media-key' version 2 does not open"*"altered in the database"* ]] ||
	fail "media-key: the audit detail: $detail"
# A once flag cleared: refused, nothing recorded as delivered.
sql "UPDATE secrets SET once = 0 WHERE name = 'single'" >/dev/null
devices 1 single
detail=$(last_refusal)
[[ $detail == *"secret 'single' version 1 does not open"* ]] || fail "single: the audit detail: $detail"
[ "$(delivered single)" = 0 ] || fail "single: delivered while tampered"
# Undone, the rows serve again: once-only is once.
sql "UPDATE secrets SET once = 1 WHERE name = 'single'" >/dev/null
devices 0 single
devices 1 single
[ "$(delivered single)" = 1 ] || fail "single: not delivered exactly once"
set_sealed media-key 2 "$v2_sealed"
devices 0 media-key
stop
echo "seal-test: PASS ($backend)"
