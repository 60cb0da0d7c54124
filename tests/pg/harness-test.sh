#!/usr/bin/env bash
# harness-test.sh HARNESS: pg-harness.sh does what its header says: a
# server only its password opens, on loopback TCP with no Unix socket,
# restarted on the same port, gone with its directory afterwards, and
# run's status that of the command. Prints "harness-test: PASS".
set -euo pipefail
h=$1
fail() { echo "harness-test: FAILED: $*" >&2; exit 1; }
q() { psql "$1" -XAtqc "$2" 2>&1 || true; }

out=$("$h" run sh -c 'psql "$ARA_PG_CONNINFO" -XAtqc "select 6 * 7"; exit 7') && status=0 || status=$?
[ "$status" = 7 ] || fail "run: status $status, not the command's 7"
[ "$out" = 42 ] || fail "run: the command's query printed '$out'"

eval "$("$h" start)"
trap '[ ! -d "$ARA_PG_DIR" ] || "$h" stop "$ARA_PG_DIR"' EXIT
[ -d "$ARA_PG_DIR/data" ] || fail "start: no data directory in '$ARA_PG_DIR'"
port=$(sed -n 's/.*port=\([0-9]*\).*/\1/p' <<<"$ARA_PG_CONNINFO")
[ "$(q "$ARA_PG_CONNINFO" 'select current_database()')" = ara ] || fail "start: no database 'ara'"
[ "$(q "$ARA_PG_URL" 'select current_user')" = ara ] || fail "start: ARA_PG_URL does not connect"
[ "$(q "$ARA_PG_CONNINFO" 'show listen_addresses')" = 127.0.0.1 ] || fail "start: not loopback only"
[ -z "$(q "$ARA_PG_CONNINFO" 'show unix_socket_directories')" ] || fail "start: a Unix socket"
nopw=${ARA_PG_CONNINFO/password=/password=x}
grep -q 'password authentication failed' <<<"$(q "$nopw" 'select 1')" || fail "a wrong password is accepted"
q "$ARA_PG_CONNINFO" 'create table t (v int); insert into t values (5)' >/dev/null
"$h" restart "$ARA_PG_DIR" immediate
[ "$(q "$ARA_PG_CONNINFO" 'select v from t')" = 5 ] || fail "restart: the data or the port is lost"
"$h" stop "$ARA_PG_DIR"
[ ! -e "$ARA_PG_DIR" ] || fail "stop: '$ARA_PG_DIR' is still there"
grep -q "port $port failed: Connection refused" <<<"$(q "$ARA_PG_CONNINFO" 'select 1')" ||
	fail "stop: the server still answers on port $port"

"$h" stop /nonexistent 2>/dev/null && status=0 || status=$?
[ "$status" = 2 ] || fail "stop of a folder that is not the harness's: status $status, not 2"
"$h" 2>/dev/null && status=0 || status=$?
[ "$status" = 2 ] || fail "no command: status $status, not 2"
echo "harness-test: PASS"
