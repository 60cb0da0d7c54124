#!/bin/sh
# The RTM under multi-threaded load, in the POE guest (docs/rtm.md, "The
# log in DOM0"): rtm_instrumented_app's 8 threads log as fast as they can
# under ara-loader; the runtime writes the run's evidence at exit (final
# report, segments, ATTEST), and ara-verify must accept it: no segment
# dropped, no entry refused, every one of the threads' transfers in it.
#
# Usage: rtm_threads.sh BUILD_DIR
set -u
build=$1
loader=$build/loader/ara-loader
verify=$build/services/ara-verify
app=$build/tests/rtm/instrument/rtm_instrumented_app
ev=$build/tests/rtm/instrument/threads.evidence

fail() {
	echo "rtm_threads: FAILED: $*"
	exit 1
}

rm -rf "$ev"
mkdir -p "$ev" || fail "mkdir $ev"
nonce=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n')
env ARA_EVIDENCE=dev-insecure ARA_RTM_SEGMENTS="$ev/segments" ARA_RTM_NONCE="$nonce" \
	ARA_RTM_REPORT="$ev/report" ARA_RTM_ATTEST="$ev/attest" \
	"$loader" "$app" threads >"$ev/out" 2>"$ev/err"
st=$?
sed 's/^/  app: /' "$ev/out" "$ev/err"
[ "$st" = 0 ] || fail "the App exited with $st"
grep -q '^rtm_instrumented: PASS' "$ev/out" || fail "the App's own checks"

"$build/services/ara-policy" --manifest "$app.ara-manifest" --loader "$loader" \
	--backend dev-insecure --max-age 3600 -o "$ev/policy" || fail "ara-policy"
"$verify" --nonce "$nonce" --report "$ev/report" --segments "$ev/segments" \
	--attest "$ev/attest" --policy "$ev/policy" --app "$app" >"$ev/verdict" 2>&1
vst=$?
sed 's/^/  verifier: /' "$ev/verdict"
if [ "$vst" != 0 ] || ! grep -q '^ara-verify: OK' "$ev/verdict"; then
	fail "ara-verify refused the honest run (exit $vst)"
fi
# 8 threads x 49152 calls, a call and a return each: 786432 entries at least.
n=$(sed -n 's/^ara-verify: OK: \([0-9]*\) entries.*/\1/p' "$ev/verdict")
[ "${n:-0}" -ge 786432 ] || fail "only ${n:-0} entries verified, the threads made 786432"
segs=$(($(wc -c <"$ev/segments") / 1048576))
[ "$segs" -ge 5 ] || fail "only $segs segments sealed"
echo "ara-evidence: 8 threads logging at once: $n entries, $segs segments, verified"
echo "rtm_threads: passed"
