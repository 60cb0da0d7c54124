#!/bin/sh
# End-to-end provisioning in the POE guest: ara-provision with a policy that
# ara-policy makes from the App's manifest, and provision_app under
# ara-loader, one CASE per ctest test. Each case names what the provisioner
# must do (deliver, or refuse for one reason) and checks it on both sides:
# the provisioner's log line with the reason, and what the App saw. Any "BREACH" in the App's
# output fails the test (ctest's FAIL_REGULAR_EXPRESSION), as does a
# missing log line. The provisioner-key cases pin a provisioner's key in
# the App's manifest (ara-manifest --provisioner-key) and sign with it or
# another (ara-provision --signing-key).
#
# Usage: provision.sh CASE BUILD_DIR [BACKEND]
#   BACKEND: dev-insecure (default) or tpm (the guest must have a TPM and
#   IMA; tests/provision/tpm_enrol.sh is run first).
set -u
case=$1 build=$2 backend=${3:-dev-insecure}
here=$(cd "$(dirname "$0")" && pwd)
loader=$build/loader/ara-loader
provision=$build/services/ara-provision
app=$build/tests/provision/provision_app
tools=$build/tests/provision
tmp=$(mktemp -d) || exit 1
umask 077 # the provisioner refuses a secrets file that others may read
# Each case's provisioner has a store of its own (its default store and KEK).
export ARA_PROVISION_STATE="$tmp/state"
server=
cleanup() {
	[ -n "$server" ] && kill "$server" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
	echo "provision[$case]: FAILED: $*"
	echo "--- provisioner log"
	cat "$tmp/server.log" 2>/dev/null
	exit 1
}

hex_of() { head -c "$1" /dev/urandom | od -An -tx1 | tr -d ' \n'; }
secret=$(hex_of 32)
# A content key for the RTS cases, provisioned under its key ID.
content_key=$(hex_of 16) key_id=$(hex_of 16)
{
	echo "media-key $secret"
	echo "kid-$key_id $content_key"
} >"$tmp/secrets"

# The evidence backend's environment for ara-loader's process.
ara_env="ARA_EVIDENCE=$backend"
if [ "$backend" = tpm ]; then
	ara_env="$ara_env ARA_TPM_QUOTE=$build/services/evidence/ara-tpm-quote"
	sh "$here/tpm_enrol.sh" "$build" "$tmp/ak.pem" || fail "enrolling the TPM's attestation key"
fi

# tpm_ak [unused-ak]: ara-policy's option for the TPM's key: the enrolled
# one (none without a TPM), or one no TPM here holds.
tpm_ak() {
	if [ "${1:-}" = unused-ak ]; then
		echo "--tpm-ak $here/unused-ak.pem"
	elif [ -f "$tmp/ak.pem" ]; then
		echo "--tpm-ak $tmp/ak.pem"
	fi
}

# write_policy BACKENDS MAX_AGE [unused-ak]: the policy of the genuine App
# and libara, by ara-policy from the App's manifest (it pins the manifest
# too), with tpm_ak's key.
write_policy() {
	backends=
	for b in $1; do backends="$backends --backend $b"; done
	# shellcheck disable=SC2046,SC2086 # $backends, tpm_ak's option and $pin are lists of words
	"$build/services/ara-policy" --manifest "${policy_manifest:-$app.ara-manifest}" --loader "$loader" \
		$backends --max-age "$2" $(tpm_ak "${3:-}") $pin --secrets "$tmp/secrets" -o "$tmp/policy" ||
		fail "ara-policy"
}
# The manifest the policy is made from: the App's own (whichever App the
# case runs, as cenc_setup changes it), or pin_key's.
policy_manifest= pin=

# pin_key [LIBARA]: a provisioner key pair ($tmp/prov.pem, $tmp/prov.pub.pem)
# and the App's manifest pinning its public key ($tmp/pinned.ara-manifest),
# with libara or LIBARA, which the policy then names (ara-policy checks the pin).
pin_key() {
	"$tools/p256_keygen" "$tmp/prov.pem" "$tmp/prov.pub.pem" || fail "p256_keygen"
	"$build/loader/ara-manifest" --libara "${1:-$build/libara/libara.so}" \
		--entry "$build/entry/libara-entry.so" --app "$app" \
		--provisioner-key "$tmp/prov.pub.pem" -o "$tmp/pinned.ara-manifest" >/dev/null ||
		fail "ara-manifest --provisioner-key"
	grep -q '^provisioner 04[0-9a-f]\{128\}$' "$tmp/pinned.ara-manifest" ||
		fail "the manifest pins no key"
	policy_manifest=$tmp/pinned.ara-manifest pin="--provisioner-key $tmp/prov.pub.pem"
}

# start_server SESSIONS [LISTEN...]: the provisioner, serving that many sessions.
start_server() {
	n=$1
	shift
	[ $# -gt 0 ] || set -- --unix "$tmp/sock"
	rm -f "$tmp/sock" "$tmp/server.log"
	"$provision" serve --policy "$tmp/policy" --sessions "$n" --log "$tmp/server.log" "$@" &
	server=$!
}

# run_app [--manifest M] [--app A] MODE ARGS...: provision_app under ara-loader.
run_app() {
	manifest=$app.ara-manifest the_app=$app
	while :; do
		case $1 in
		--manifest) manifest=$2; shift 2 ;;
		--app) the_app=$2; shift 2 ;;
		*) break ;;
		esac
	done
	env $ara_env "$loader" --manifest "$manifest" "$the_app" "$@" >"$tmp/app.out" 2>&1
	app_status=$?
	sed 's/^/  app: /' "$tmp/app.out"
}

# finish: the provisioner served its sessions and exited 0 (within 60 s:
# if the App never came, the provisioner would wait for it for ever).
finish() {
	for _ in $(seq 600); do
		kill -0 "$server" 2>/dev/null || break
		sleep 0.1
	done
	if kill -0 "$server" 2>/dev/null; then
		sed 's/^/  provisioner: /' "$tmp/server.log"
		fail "ara-provision is still waiting for a session after 60 s"
	fi
	wait "$server" || fail "ara-provision exited with status $?"
	server=
	sed 's/^/  provisioner: /' "$tmp/server.log"
}

# The log is JSON lines (docs/provisioning.md, "The log").
expect_log() { grep -q -- "$1" "$tmp/server.log" || fail "the provisioner's log has no '$1'"; }
# The detail (the reason's values) of the log's refusals.
log_detail() { sed -n 's/.*"decision":"refused","reason":"[a-z]*","detail":"\([^"]*\)".*/\1/p' "$tmp/server.log"; }
expect_app() { grep -q -- "$1" "$tmp/app.out" || fail "the App did not print '$1'"; }
expect_status() { [ "$app_status" = "$1" ] || fail "the App exited with $app_status, not $1"; }

# refused REASON CODE MODE ARGS...: one session that must be refused.
refused() {
	reason=$1 code=$2
	shift 2
	start_server 1
	run_app "$@"
	finish
	expect_log "\"decision\":\"refused\",\"reason\":\"$reason\""
	expect_app "refused $code "
	expect_status 0
	echo "ara-evidence: provision $case: refused ($reason), as the policy requires: $(log_detail)"
}

# rts_stream: a 300000-byte clip sealed as 5 chunks (4 whole, 1 short) under
# the content key, in $tmp/clip.sealed; the chunks start at 36 + i * 65552.
rts_stream() {
	head -c 300000 /dev/urandom >"$tmp/clip"
	printf '%s\n' "$content_key" | "$build/services/ara-seal-chunks" --key-file - \
		--key-id "$key_id" "$tmp/clip" "$tmp/clip.sealed" >/dev/null || fail "ara-seal-chunks"
}

# rts_run [APP ARGS AFTER IN OUT]: provision_app rts over $tmp/clip.sealed.
rts_run() {
	start_server 1
	run_app rts "$tmp/sock" "kid-$key_id" "$tmp/clip.sealed" "$tmp/clip.out" "$@"
	finish
	expect_status 0
}

# flip_at FILE OFFSET: increments one byte of FILE.
flip_at() {
	old=$(dd if="$1" bs=1 skip="$2" count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
	printf "\\$(printf %o $(((old + 1) % 256)))" | dd of="$1" bs=1 seek="$2" count=1 conv=notrunc 2>/dev/null
}

# expect_clear N: the output is exactly the clip's first N whole chunks.
expect_clear() {
	head -c $(($1 * 65536)) "$tmp/clip" | cmp -s - "$tmp/clip.out" ||
		fail "the output is not the clip's first $1 chunks"
}

# variant_manifest APP LIBARA OUT: a manifest for a one-byte variant.
variant_manifest() {
	"$build/loader/ara-manifest" --libara "$2" --entry "$build/entry/libara-entry.so" \
		--app "$1" -o "$3" >/dev/null || fail "ara-manifest"
}

# cenc_setup: the CENC App (tests/cenc) and the clip that Debian's ffmpeg
# made and decrypted at build time; its content key is provisioned as
# "cenc-<key ID>", and the policy is the CENC App's.
cenc_setup() {
	clip=$build/tests/cenc/clip
	app=$build/tests/cenc/cenc_app
	[ -x "$app" ] || fail "no $app: the arm64 FFmpeg (qemu/build-ffmpeg.sh) was not built"
	for f in clip.mp4 ref.video ref.audio content-key; do
		[ -s "$clip/$f" ] || fail "no $clip/$f: ffmpeg was missing on the build machine (qemu/host-deps.sh)"
	done
	cat "$clip/content-key" >"$tmp/secrets"
	write_policy "$backend" 300
}

# cenc_run [MODE]: the CENC App over the clip, writing $tmp/out.*.
cenc_run() {
	start_server 1
	run_app "$tmp/sock" "$clip/clip.mp4" "$tmp/out" "$@"
	finish
	expect_status 0
}

# rtm_setup [revoke]: the RTM App (rtm_submit_app) in place of
# provision_app, its policy (with revoke: "rtm-rejected revoke"), its
# segments file, and the service's App files: the App's own named by its
# SHA-256.
rtm_setup() {
	app=$build/tests/provision/rtm_submit_app
	[ -x "$app" ] || fail "no $app: the RTM plugin or clang was missing on the build machine"
	write_policy "$backend" 300
	if [ "${1:-}" = revoke ]; then echo "rtm-rejected revoke" >>"$tmp/policy"; fi
	mkdir -p "$tmp/apps"
	cp "$app" "$tmp/apps/$(sha256sum "$app" | cut -d' ' -f1)" || fail "copying the App file"
	ara_env="$ara_env ARA_RTM_SEGMENTS=$tmp/segments"
}

# rtm_server SESSIONS [OPTION...]: the provisioner, verifying RTM reports.
rtm_server() {
	n=$1
	shift
	start_server "$n" --unix "$tmp/sock" --rtm-apps "$tmp/apps" "$@"
}

# expect_audit DECISION: the store's audit log (ara-provision audit) holds
# a record of that decision.
expect_audit() {
	"$provision" audit --json >"$tmp/audit" || fail "ara-provision audit"
	grep -q "\"decision\":\"$1\"" "$tmp/audit" || fail "the store's audit log has no $1"
}

case $case in
deliver)
	write_policy "$backend" 300
	start_server 1
	run_app fetch "$tmp/sock" media-key "ARA provisioning test message"
	finish
	expect_status 0
	expect_log '"decision":"delivered","secret":"media-key","bytes":32,'
	want=$("$tools/hmac_sha256" "$secret" "ARA provisioning test message")
	expect_app "secret 'media-key', 32 bytes"
	expect_app "hmac $want"
	echo "ara-evidence: provision deliver ($backend): the App's HMAC through ARA matches the provisioned secret's, computed outside ARA"
	;;
tcp)
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up 2>/dev/null
	write_policy "$backend" 300
	start_server 1 --tcp 127.0.0.1:0
	for _ in $(seq 100); do
		port=$(sed -n 's/.*"event":"listening","detail":"tcp 127\.0\.0\.1:\([0-9]*\)".*/\1/p' "$tmp/server.log" 2>/dev/null)
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ] || fail "the provisioner names no TCP port"
	run_app fetch "tcp:127.0.0.1:$port" media-key "over tcp"
	finish
	expect_status 0
	expect_log '"decision":"delivered","secret":"media-key"'
	expect_app "hmac $("$tools/hmac_sha256" "$secret" "over tcp")"
	echo "ara-evidence: provision over TCP port $port: delivered"
	;;
scan)
	write_policy "$backend" 300
	start_server 1
	run_app scan "$tmp/sock" media-key "$secret"
	finish
	expect_status 0
	expect_log '"decision":"delivered","secret":"media-key"'
	expect_app "the secret not found"
	grep '^ara-evidence: provision scan' "$tmp/app.out"
	;;
app-byte)
	write_policy "$backend" 300
	cp "$app" "$tmp/app"
	"$tools/flip_byte" "$tmp/app" "ARA-PROVISION-APP-VARIANT:" || fail "flip_byte"
	[ "$(cmp -l "$app" "$tmp/app" | wc -l)" = 1 ] || fail "the copy differs in more than one byte"
	variant_manifest "$tmp/app" "$build/libara/libara.so" "$tmp/app.ara-manifest"
	refused measurement 4 --manifest "$tmp/app.ara-manifest" --app "$tmp/app" \
		fetch "$tmp/sock" media-key x
	expect_log "the App measured"
	;;
libara-byte)
	write_policy "$backend" 300
	cp "$build/libara/libara.so" "$tmp/libara.so"
	"$tools/flip_byte" "$tmp/libara.so" "ARA-DOM0-CANARY: if you can read this, DOM0 leake" ||
		fail "flip_byte"
	[ "$(cmp -l "$build/libara/libara.so" "$tmp/libara.so" | wc -l)" = 1 ] ||
		fail "the copy differs in more than one byte"
	variant_manifest "$app" "$tmp/libara.so" "$tmp/app.ara-manifest"
	refused measurement 4 --manifest "$tmp/app.ara-manifest" fetch "$tmp/sock" media-key x
	expect_log "libara measured"
	;;
stale)
	write_policy "$backend" 2
	refused stale 5 stale "$tmp/sock" media-key 5
	;;
replay)
	write_policy "$backend" 300
	start_server 2
	run_app replay "$tmp/sock" media-key
	finish
	expect_status 0
	expect_log '"session":1,.*"decision":"delivered"'
	expect_log '"session":2,.*"decision":"refused","reason":"session"'
	expect_app "refused 6 "
	echo "ara-evidence: provision replay: the first session's ATTEST, replayed in a second session, was refused"
	;;
relay-share) write_policy "$backend" 300; refused session 6 relay-share "$tmp/sock" media-key ;;
unsigned-share) write_policy "$backend" 300; refused session 6 unsigned-share "$tmp/sock" media-key ;;
other-instance) write_policy "$backend" 300; refused evidence 3 other-instance "$tmp/sock" media-key ;;
provisioner-key)
	pin_key
	write_policy "$backend" 300
	start_server 1 --unix "$tmp/sock" --signing-key "$tmp/prov.pem"
	run_app --manifest "$tmp/pinned.ara-manifest" fetch "$tmp/sock" media-key "signed"
	finish
	expect_status 0
	expect_log '"event":"signing","detail":"DELIVERs signed with key 04'
	expect_log '"decision":"delivered","secret":"media-key","bytes":32,'
	expect_app "hmac $("$tools/hmac_sha256" "$secret" "signed")"
	echo "ara-evidence: provision provisioner-key ($backend): the manifest pins the provisioner's key; its signed DELIVER opened, the App's HMAC matches the secret's"
	;;
wrong-provisioner)
	pin_key
	write_policy "$backend" 300
	"$tools/p256_keygen" "$tmp/other.pem" "$tmp/other.pub.pem" || fail "p256_keygen"
	# A provisioner with the App's policy and secrets but another key: it
	# delivers, and ARA refuses before it opens anything.
	for how in "--signing-key $tmp/other.pem" unsigned; do
		[ "$how" = unsigned ] && how=
		# shellcheck disable=SC2086 # $how is a list of words
		start_server 1 --unix "$tmp/sock" $how
		run_app --manifest "$tmp/pinned.ara-manifest" fetch "$tmp/sock" media-key x
		finish
		expect_status 0
		expect_log '"decision":"delivered","secret":"media-key"'
		expect_app "fetch failed: the provisioner did not prove the key the manifest pins"
		grep -q "hmac" "$tmp/app.out" && fail "the App used a secret from the wrong provisioner"
	done
	# ara-policy will not write that provisioner's policy for the App.
	# shellcheck disable=SC2046 # tpm_ak's option is two words
	"$build/services/ara-policy" --manifest "$tmp/pinned.ara-manifest" --loader "$loader" \
		--backend "$backend" $(tpm_ak) --provisioner-key "$tmp/other.pub.pem" -o "$tmp/p2" 2>"$tmp/err" &&
		fail "ara-policy accepted a key the manifest does not pin"
	grep -q "pins another provisioner key" "$tmp/err" || fail "ara-policy: $(cat "$tmp/err")"
	echo "ara-evidence: provision wrong-provisioner ($backend): a DELIVER signed with another key, and an unsigned one, refused by ARA (ARA_E_PROVISIONER) before any secret was opened"
	;;
relay-deliver)
	pin_key
	write_policy "$backend" 300
	start_server 1 --unix "$tmp/sock" --signing-key "$tmp/prov.pem"
	run_app --manifest "$tmp/pinned.ara-manifest" relay-deliver "$tmp/sock" media-key
	finish
	expect_status 0
	expect_app "the relay's own secret in the provisioner's signed DELIVER: the provisioner did not prove the key the manifest pins"
	echo "ara-evidence: provision relay-deliver ($backend): the provisioner's signed DELIVER with a relay's secret sealed in its place: refused"
	;;
unchecked-provisioner)
	# The twin of wrong-provisioner and relay-deliver: libara without the
	# provisioner's check (tests/variants) opens what they show refused.
	pin_key "$build/tests/variants/libara-variant-no-provisioner-check.so"
	write_policy "$backend" 300
	ara_env="$ara_env ARA_ALLOW_TEST_VARIANT=1"
	"$tools/p256_keygen" "$tmp/other.pem" "$tmp/other.pub.pem" || fail "p256_keygen"
	start_server 1 --unix "$tmp/sock" --signing-key "$tmp/other.pem"
	run_app --manifest "$tmp/pinned.ara-manifest" fetch "$tmp/sock" media-key x
	finish
	expect_status 0
	expect_app "hmac $("$tools/hmac_sha256" "$secret" x)"
	start_server 1 --unix "$tmp/sock" --signing-key "$tmp/prov.pem"
	run_app --manifest "$tmp/pinned.ara-manifest" relay-deliver "$tmp/sock" media-key
	finish
	expect_status 0
	expect_app "BREACH: ARA kept a secret the provisioner did not sign"
	echo "ara-evidence: provision unchecked-provisioner ($backend): without DOM0's check, a DELIVER signed with another key opened and a relay's secret was kept: the refusals of wrong-provisioner and relay-deliver are that check's"
	;;
rtm-oracle | rtm-oracle-unlabelled)
	# A compromised RTM (tests/variants: the probe in the RTM's domain)
	# has provisioning sign the App's session hash for the App's own key
	# share. Provisioning signs a hash of it under its label for a
	# module, which is no session's signature: refused. The twin's
	# provisioning signs the digest as it is: the provisioner seals the
	# secret to the App's share, and the App opens it.
	variant=rtm-probe
	[ "$case" = rtm-oracle-unlabelled ] && variant=rtm-probe-sign-unlabelled
	variant_manifest "$app" "$build/tests/variants/libara-variant-$variant.so" "$tmp/variant.ara-manifest"
	policy_manifest=$tmp/variant.ara-manifest
	write_policy "$backend" 300
	ara_env="$ara_env ARA_ALLOW_TEST_VARIANT=1"
	start_server 1
	run_app --manifest "$tmp/variant.ara-manifest" rtm-oracle "$tmp/sock" media-key
	finish
	expect_status 0
	expect_app "the RTM's domain had provisioning sign the session's hash: success"
	if [ "$case" = rtm-oracle ]; then
		expect_app "the signature is over the label for a module"
		expect_log '"decision":"refused","reason":"session"'
		expect_app "refused 6 "
		echo "ara-evidence: provision rtm-oracle ($backend): the instance key's signature that a compromised RTM obtained for the App's session hash was refused as the session's: $(log_detail)"
	else
		expect_app "the signature is over the session's hash itself"
		expect_log '"decision":"delivered","secret":"media-key","bytes":32,'
		expect_app "BREACH: the secret, sealed to the App's share, opened outside ARA: $secret"
		echo "ara-evidence: provision rtm-oracle-unlabelled ($backend): where provisioning signs the RTM's digest as it is, the provisioner delivered to the App's own key share and the App read the secret: the refusal of rtm-oracle is SIGN's label"
	fi
	;;
dev-in-production)
	write_policy tpm 300 unused-ak
	refused backend 2 fetch "$tmp/sock" media-key x
	expect_log "dev-insecure backend"
	;;
no-secret) write_policy "$backend" 300; refused secret 7 fetch "$tmp/sock" other-key x ;;
truncated | oversized | random)
	write_policy "$backend" 300
	start_server 2
	run_app "$case" "$tmp/sock" media-key
	expect_app "refused 1 "
	# The provisioner lives on: the next session is served.
	run_app fetch "$tmp/sock" media-key after
	finish
	expect_log '"session":1,.*"decision":"refused","reason":"malformed"'
	expect_log '"session":2,.*"decision":"delivered"'
	echo "ara-evidence: provision $case ATTEST: refused (malformed: $(log_detail)); the next session was served"
	;;
rts)
	write_policy "$backend" 300
	rts_stream
	rts_run
	expect_app "rts close after 5 chunks: success"
	cmp -s "$tmp/clip" "$tmp/clip.out" || fail "the clear stream is not the clip"
	echo "ara-evidence: provision rts: a 300000-byte clip in 5 sealed chunks opened by ARA with the provisioned content key, equal to the clip"
	;;
rts-tamper)
	write_policy "$backend" 300
	rts_stream
	flip_at "$tmp/clip.sealed" $((36 + 2 * 65552 + 100))
	rts_run
	expect_app "rts chunk 2 refused"
	expect_app "rts close after 2 chunks: a provisioning message did not decode or verify"
	expect_clear 2
	echo "ara-evidence: provision rts-tamper: one byte changed in chunk 2: refused, nothing of it returned, the stream failed"
	;;
rts-reorder)
	write_policy "$backend" 300
	rts_stream
	# chunks 1 and 2 swapped
	{
		head -c $((36 + 65552)) "$tmp/clip.sealed"
		tail -c +$((36 + 2 * 65552 + 1)) "$tmp/clip.sealed" | head -c 65552
		tail -c +$((36 + 65552 + 1)) "$tmp/clip.sealed" | head -c 65552
		tail -c +$((36 + 3 * 65552 + 1)) "$tmp/clip.sealed"
	} >"$tmp/swapped"
	mv "$tmp/swapped" "$tmp/clip.sealed"
	rts_run
	expect_app "rts chunk 1 refused"
	expect_clear 1
	echo "ara-evidence: provision rts-reorder: chunks 1 and 2 swapped: chunk 1 refused"
	;;
rts-truncate)
	write_policy "$backend" 300
	rts_stream
	head -c $((36 + 4 * 65552)) "$tmp/clip.sealed" >"$tmp/cut" && mv "$tmp/cut" "$tmp/clip.sealed"
	rts_run
	expect_app "rts chunk 3 refused"
	expect_clear 3
	# Whole chunks, but the App stops before the last: CLOSE says so.
	rts_stream
	rts_run 2
	expect_app "rts close after 2 chunks: a provisioning message did not decode or verify"
	expect_clear 2
	echo "ara-evidence: provision rts-truncate: the last chunk dropped: chunk 3 (presented as last) refused; a stream closed before its last chunk: refused"
	;;
rts-wrong-key)
	write_policy "$backend" 300
	rts_stream
	# The right key ID, another key under it.
	echo "media-key $secret" >"$tmp/secrets"
	echo "kid-$key_id $(hex_of 16)" >>"$tmp/secrets"
	rts_run
	expect_app "rts chunk 0 refused"
	# A key ID no key is held for.
	flip_at "$tmp/clip.sealed" 8
	start_server 1
	run_app rts "$tmp/sock" "kid-$key_id" "$tmp/clip.sealed" "$tmp/clip.out"
	finish
	expect_app "rts open: no such provisioning session or secret handle"
	echo "ara-evidence: provision rts-wrong-key: another key under the key ID: chunk 0 refused; a key ID with no key: the stream does not open"
	;;
cenc)
	cenc_setup
	cenc_run
	expect_log '"decision":"delivered","secret":"cenc-'
	expect_app "close: success"
	secs=$(sed -n 's/^cenc-app: .*: 2 streams, \([0-9]*\)\.[0-9]* s$/\1/p' "$tmp/app.out")
	[ "${secs:-0}" -ge 10 ] || fail "the clip is not at least 10 s long"
	for k in video audio; do
		[ -s "$tmp/out.$k" ] || fail "no $k samples"
		cmp "$clip/ref.$k" "$tmp/out.$k" || fail "the $k samples differ from FFmpeg's decryption"
		# Were the clip clear, a decryption that did nothing would pass the comparison.
		cmp -s "$tmp/out.$k.enc" "$tmp/out.$k" && fail "the $k samples came back still encrypted"
	done
	# Both kinds of sample went through ARA: H.264 with maps, AAC whole.
	grep -Eq "\([1-9][0-9]* with a subsample map, [1-9][0-9]* whole\)" "$tmp/app.out" ||
		fail "not both kinds of sample (with a subsample map, whole) were decrypted"
	echo "ara-evidence: provision cenc: a ${secs} s H.264/AAC clip CENC-encrypted by ffmpeg, demuxed by libavformat and decrypted by ARA ($(sed -n 's/^cenc-app: decrypted \(.*\); close.*/\1/p' "$tmp/app.out")): equal to FFmpeg's own decryption, bit for bit ($(wc -c <"$tmp/out.video") + $(wc -c <"$tmp/out.audio") bytes)"
	;;
cenc-tamper)
	cenc_setup
	cenc_run tamper-map
	expect_app "a subsample map one byte too long: malformed request"
	expect_app "refused, nothing written"
	echo "ara-evidence: provision cenc-tamper: a subsample map that does not add up to its sample: refused, nothing written"
	;;
cenc-wrong-kid)
	cenc_setup
	cenc_run wrong-kid
	expect_app "cenc open: no such provisioning session or secret handle"
	echo "ara-evidence: provision cenc-wrong-kid: a key ID with no provisioned key: no session opens"
	;;
cenc-stream-key)
	# One key, one service (docs/rts.md): a chunk stream's key, provisioned
	# as "cenc-<key ID>", opens no stream...
	write_policy "$backend" 300
	rts_stream
	echo "cenc-$key_id $content_key" >"$tmp/secrets"
	start_server 1
	run_app rts "$tmp/sock" "cenc-$key_id" "$tmp/clip.sealed" "$tmp/clip.out"
	finish
	expect_status 0
	expect_log "\"decision\":\"delivered\",\"secret\":\"cenc-$key_id\""
	expect_app "rts open: no such provisioning session or secret handle"
	# ...and the clip's 'cenc' key, provisioned as a chunk stream's
	# "kid-<key ID>", opens no 'cenc' session.
	cenc_setup
	sed 's/^cenc-/kid-/' "$clip/content-key" >"$tmp/secrets"
	grep -q '^kid-' "$tmp/secrets" || fail "the clip's content-key is not a 'cenc-' line"
	cenc_run stream-key
	expect_log '"decision":"delivered","secret":"kid-'
	expect_app "cenc open: no such provisioning session or secret handle"
	echo "ara-evidence: provision cenc-stream-key: a key provisioned as 'cenc-<id>' opens no chunk stream; one provisioned as 'kid-<id>' opens no 'cenc' session"
	;;
demo)
	# The demonstration (README: ./qemu/ara.sh demo), each step shown: the
	# RTM-instrumented CENC App decrypts the clip with a provisioned key,
	# and its run is attested and verified.
	show() { printf '\n==> %s\n' "$*"; }
	cenc_setup
	app=$build/tests/cenc/cenc_demo
	[ -x "$app" ] || fail "no $app: the demonstration App was not built"
	write_policy "$backend" 300
	nonce=$(hex_of 32)
	show "1/6 the POE guest: Linux $(uname -r), POE $(grep -qw poe /proc/cpuinfo && echo present || echo MISSING)"
	grep -qw poe /proc/cpuinfo || fail "this CPU has no POE"
	show "2/6 ara-provision: the policy pins the loader, libara, entry object and App digests; it holds the clip's content key"
	sed 's/^/  policy: /' "$tmp/policy"
	start_server 1
	show "3/6 ara-loader $app: the manifest's digests checked, libara loaded, the App scanned, its domains tagged"
	show "4/6 the App fetches the content key by attested provisioning (it never sees it) and decrypts every sample through ARA; at exit its RTM report and attestation are written"
	ara_env="$ara_env ARA_VERBOSE=1 ARA_RTM_NONCE=$nonce ARA_RTM_REPORT=$tmp/report ARA_RTM_ATTEST=$tmp/attest ARA_RTM_SEGMENTS=$tmp/segments"
	: >"$tmp/segments"
	run_app "$tmp/sock" "$clip/clip.mp4" "$tmp/out"
	finish
	expect_status 0
	show "5/6 the clear samples against FFmpeg's own decryption"
	for s in video audio; do
		cmp "$tmp/out.$s" "$clip/ref.$s" || fail "the $s samples differ from FFmpeg's decryption"
		echo "  $s: $(wc -c <"$tmp/out.$s") bytes, equal to FFmpeg's, bit for bit"
	done
	show "6/6 ara-verify: the attestation under the policy, the report's signature and nonce, the log's chain, every transfer against the App's binary"
	"$build/services/ara-verify" --nonce "$nonce" --attest "$tmp/attest" --policy "$tmp/policy" \
		--report "$tmp/report" --segments "$tmp/segments" --app "$app" >"$tmp/verify.out" 2>&1
	verify_status=$?
	sed 's/^/  /' "$tmp/verify.out"
	[ "$verify_status" = 0 ] || fail "ara-verify refused the run (status $verify_status)"
	# Kept for the evidence line: the next run writes verify.out again.
	verified=$(sed -n 's/^ara-verify: OK: //p' "$tmp/verify.out")
	[ -n "$verified" ] || fail "ara-verify printed no 'OK' line"
	# The same report with one byte of its pending log changed.
	cp "$tmp/report" "$tmp/report.edited"
	flip_at "$tmp/report.edited" $(($(wc -c <"$tmp/report") - 70))
	"$build/services/ara-verify" --nonce "$nonce" --attest "$tmp/attest" --policy "$tmp/policy" \
		--report "$tmp/report.edited" --segments "$tmp/segments" --app "$app" >"$tmp/verify.out" 2>&1
	verify_status=$?
	echo "  the same report with one byte changed:"
	sed 's/^/  /' "$tmp/verify.out"
	[ "$verify_status" = 1 ] || fail "ara-verify did not refuse an edited report (status $verify_status)"
	echo "ara-evidence: provision demo: the instrumented App decrypted the clip bit for bit as FFmpeg does, and ara-verify accepted its RTM report ($verified)"
	;;
sessions)
	run_app sessions
	expect_status 0
	expect_app "a fifth unfinished session ends the oldest"
	;;
open-tpm)
	# App code opens no TPM, by its name or by a node of its own.
	for dev in /dev/tpmrm0 /dev/tpm0; do
		# A node of the same numbers under another name (made here: ARA
		# leaves App code no CAP_MKNOD).
		alias=$tmp/tpm-alias-${dev##*/}
		mknod "$alias" c $((0x$(stat -c %t "$dev"))) $((0x$(stat -c %T "$dev"))) ||
			fail "mknod of an alias of $dev failed"
		run_app open-tpm "$dev" "$alias"
		expect_status 0
		[ "$(grep -c ': Permission denied$' "$tmp/app.out")" = 2 ] ||
			fail "App code's opens of $dev were not both refused with EACCES"
	done
	echo "ara-evidence: provision open-tpm: App code's opens of /dev/tpmrm0, /dev/tpm0 and of other nodes with their numbers were refused (EACCES)"
	;;
rtm-report)
	rtm_setup
	"$tools/p256_keygen" "$tmp/ear.pem" "$tmp/ear.pub.pem" || fail "p256_keygen"
	rtm_server 1 --ear-key "$tmp/ear.pem"
	run_app "$tmp/sock" genuine
	finish
	expect_status 0
	expect_app "rtm-submit-app: accepted"
	# The App's three indirect calls, at least, are in it.
	entries=$(sed -n 's/^rtm-submit-app: accepted (OK: \([0-9]*\) entries.*/\1/p' "$tmp/app.out")
	[ "${entries:-0}" -ge 3 ] || fail "the accepted report holds ${entries:-no} entries, not the App's 3 or more"
	grep -q '^rtm-submit-app: ear [1-9]' "$tmp/app.out" || fail "the VERDICT carries no EAR"
	expect_log '"decision":"rtm-verified"'
	expect_audit rtm-verified
	echo "ara-evidence: provision rtm-report: the App's RTM report, sent with ara_rtm_submit, verified by the service: $(sed -n 's/^rtm-submit-app: accepted //p' "$tmp/app.out"); kept in its store"
	;;
rtm-report-tamper)
	# The twin of rtm-report: the same App, one byte of its report changed.
	rtm_setup
	rtm_server 1
	run_app "$tmp/sock" tamper
	finish
	expect_status 0
	expect_app "rtm-submit-app: rejected"
	expect_log '"decision":"rtm-rejected"'
	expect_audit rtm-rejected
	echo "ara-evidence: provision rtm-report-tamper: a report the App changed was rejected: $(sed -n 's/^rtm-submit-app: rejected //p' "$tmp/app.out")"
	;;
rtm-revoke)
	# tpm evidence names the device: a rejected report revokes it, and
	# the same App's next provisioning session is refused. First the
	# twin: the device is served before the rejection.
	[ "$backend" = tpm ] || fail "rtm-revoke needs tpm evidence: dev-insecure names no device"
	rtm_setup revoke
	rtm_server 3
	run_app "$tmp/sock" fetch media-key
	expect_app "rtm-submit-app: delivered"
	run_app "$tmp/sock" tamper
	expect_app "rtm-submit-app: rejected"
	run_app "$tmp/sock" fetch media-key
	finish
	expect_status 0
	expect_app "rtm-submit-app: refused 3 "
	expect_log "is revoked"
	expect_audit rtm-rejected
	echo "ara-evidence: provision rtm-revoke: delivered, then a rejected RTM report revoked the device: $(log_detail | tail -1)"
	;;
*)
	echo "provision.sh: no case '$case'"
	exit 2
	;;
esac
echo "provision[$case]: passed"
