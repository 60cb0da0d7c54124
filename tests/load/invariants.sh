#!/usr/bin/env bash
# invariants.sh STORE DELIVERED REPLAYED: the invariants of the fault tests,
# checked in the service's database afterwards (schema: services/provision/
# server/store_*_schema.h). STORE is the store's URL, sqlite:PATH or a
# postgresql:// URI; DELIVERED the sessions the load generator saw
# delivered; REPLAYED the replayed sessions it sent, which it saw refused.
#   - no once-only secret version delivered twice;
#   - no audit record lost: at least DELIVERED "delivered" records, and
#     one for each delivery record and no more (one transaction keeps both);
#   - fault.sh's once-only secret (once-key): one delivery, the other 39
#     sessions' refusals ("secret") audited;
#   - every replay refused in the audit log too ("session"), on each
#     instance that received one.
# Prints "invariants: PASS" or "invariants: FAILED: what" (status 1).
set -euo pipefail
store=$1 delivered=$2 replayed=$3
fail() { echo "invariants: FAILED: $*" >&2; exit 1; }
q() {
	case $store in
	sqlite:*) sqlite3 -batch -noheader "${store#sqlite:}" "$1" ;;
	postgresql:*) psql "$store" -XAtqc "$1" ;;
	*) fail "store '$store': sqlite:PATH or postgresql://..." ;;
	esac
}

twice=$(q "SELECT count(*) FROM (SELECT secret, secret_version FROM deliveries WHERE once = 1
	GROUP BY secret, secret_version HAVING count(*) > 1) AS t")
[ "$twice" = 0 ] || fail "$twice once-only secret version(s) delivered more than once"

audited=$(q "SELECT count(*) FROM audit WHERE decision = 'delivered'")
[ "$audited" -ge "$delivered" ] ||
	fail "$audited 'delivered' audit records for $delivered sessions the generator saw delivered"

records=$(q "SELECT count(*) FROM deliveries")
[ "$records" = "$audited" ] || fail "$records delivery records but $audited 'delivered' audit records"

once=$(q "SELECT count(*) FROM deliveries WHERE secret = 'once-key'"):$(q "SELECT count(*) FROM audit
	WHERE decision = 'refused' AND reason = 'secret' AND secret = 'once-key'")
[ "$once" = 1:39 ] || fail "once-key: $once (deliveries:refusals audited), not 1:39"

refused=$(q "SELECT count(*) FROM audit WHERE decision = 'refused' AND reason = 'session'")
[ "$refused" -ge "$replayed" ] || fail "$refused 'session' refusals for $replayed replays"

echo "invariants: $delivered delivered seen, $audited audited, $records delivery records; once-key 1 delivered, 39 refusals audited; no once-only secret twice; $refused session refusals for $replayed replays"
echo "invariants: PASS"
