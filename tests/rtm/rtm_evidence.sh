# shellcheck shell=sh
# The evidence of an App run under the RTM, in the POE guest: what
# tests/rtm/lua/lua_rtm.sh, tests/rtm/rtm_program.sh and the case study's driver
# (tests/rtm/study/rtm_study.sh) all do. Sourced; the caller sets
#   loader  ara-loader's path
#   verify  ara-verify's path
# Every function takes the evidence directory EV (report, attest, segments,
# nonce, policy and the verdict live there).

# hex_of N: N random bytes in hex.
hex_of() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }

# rtm_evidence_env EV: the environment (for env(1)) of a run that leaves
# its evidence in EV at exit, over a fresh nonce written to EV/nonce
# (include/ara/rtm_runtime.h). No path may hold a space.
rtm_evidence_env() {
	hex_of 32 >"$1/nonce"
	echo "ARA_EVIDENCE=dev-insecure ARA_RTM_SEGMENTS=$1/segments" \
		"ARA_RTM_NONCE=$(cat "$1/nonce") ARA_RTM_REPORT=$1/report ARA_RTM_ATTEST=$1/attest"
}

# rtm_write_policy EV APP: the policy ara-verify checks the attestation
# against (EV/policy), by ara-policy (beside ara-verify): the evidence
# backend and the digests of the loader and of APP's manifest.
rtm_write_policy() {
	"$(dirname "$verify")/ara-policy" --manifest "$2.ara-manifest" --loader "$loader" \
		--backend dev-insecure --max-age 3600 -o "$1/policy"
}

# rtm_check EV APP SEGMENTS: ara-verify's verdict on the run's evidence
# with those segments, in EV/verdict; returns its status (0: accepted).
# --app: the file of the module ara-loader mapped the App from (its digest
# must be the measured one); libc is read from its own path.
rtm_check() {
	"$verify" --nonce "$(cat "$1/nonce")" --report "$1/report" --segments "$3" \
		--attest "$1/attest" --policy "$1/policy" --app "$2" >"$1/verdict" 2>&1
}

# rtm_accepted EV: whether EV/verdict is ara-verify's acceptance.
rtm_accepted() { grep -q '^ara-verify: OK' "$1/verdict"; }

# rtm_report_entries REPORT: the report's entry count (rtm_format.h: 8
# bytes at offset 120, little-endian as the guest).
rtm_report_entries() { od -An -tu8 -j120 -N8 "$1" | tr -d ' '; }
