#!/usr/bin/env bash
# The SDK as a user outside ARA's tree meets it: every App of examples/ is
# built only against the installed SDK (DEV, the arm64 tree's install;
# TOOLS, the host tree's: docs/sdk.md), with CMake, and examples/hello also
# with make and pkg-config. Then all of them run under DEV's ara-loader in
# one boot of the POE guest, and the host checks what they did:
#   hello, hello-make  the null and echo services answer, and the echo of a
#                      random number is ara_echo_expect's
#   hello_cxx          the same from C++, and ARA's measured App digest is
#                      the manifest's
#   provision_rts      ara-provision (DEV's, on the guest's loopback) hands
#                      the content key of a stream sealed on the host with
#                      TOOLS' ara-seal-chunks to ARA; the App's decryption
#                      is the clear file, byte for byte
#   rtm_calc           computes a random expression; DEV's ara-verify
#                      accepts the run's RTM evidence, and refuses it with
#                      one byte of the report changed
# Last, tests/sdk/run_app's App runs through qemu/run-app.sh (a second
# boot): its exit status, a random one, and the file it wrote must come
# back, and its unchanged input must not. qemu/ara.sh test runs this after
# the arm64 build.
#
# Usage: examples.sh DEV TOOLS
# Exit status: 0 all passed; 1 a check failed (each prints "examples: PASS
# <name>" or "examples: FAIL <name>: <why>"), or a build or a boot did;
# 2 usage.
set -euo pipefail
. "$(dirname "$0")/../../qemu/lib/common.sh"
. "$ARA_QEMU_DIR/lib/guest-files.sh"

[ $# -eq 2 ] || { echo "usage: $0 DEV TOOLS" >&2; exit 2; }
dev=$(cd "$1" && pwd -P) || die "no SDK prefix $1"
tools=$(cd "$2" && pwd -P) || die "no tools prefix $2"
toolchain=$dev/lib/cmake/ara/aarch64-linux-gnu.cmake
pc=$(find "$dev" -name ara.pc -print -quit)
for f in "$dev/bin/ara-loader" "$dev/bin/ara-provision" "$dev/bin/ara-verify" "$toolchain" \
	"$tools/bin/ara-manifest" "$tools/bin/ara-policy" "$tools/bin/ara-seal-chunks" "$pc"; do
	[ -f "$f" ] || die "${f:-ara.pc}: missing from the installed SDK (cmake --install of both trees; docs/sdk.md)"
done
examples=$ARA_SRC_DIR/examples

t0=$(date +%s)
work=$(mktemp -d "${TMPDIR:-/tmp}/ara-examples.XXXXXX")
work=$(cd "$work" && pwd -P)
trap 'rm -rf "$work"' EXIT
B=$work/build
mkdir -p "$B" "$work/in"

failed=0
pass() { echo "examples: PASS $1"; }
fail() {
	echo "examples: FAIL $1: $2"
	failed=1
}

# build NAME SOURCE_DIR: the example's CMake project, against the SDK only
# (no package registry: nothing may come from a build tree), in $B/NAME.
build() {
	local log=$B/$1.log
	if cmake -S "$2" -B "$B/$1" -G Ninja --toolchain "$toolchain" -DCMAKE_PREFIX_PATH="$dev" \
		-DARA_MANIFEST_TOOL="$tools/bin/ara-manifest" \
		-DCMAKE_FIND_PACKAGE_NO_PACKAGE_REGISTRY=ON >"$log" 2>&1 &&
		cmake --build "$B/$1" >>"$log" 2>&1; then
		info "built $1 (CMake)"
	else
		sed 's/^/    /' "$log"
		die "the example $1 did not build against the installed SDK (log above)"
	fi
}

# from_sdk NAME MANIFEST: the manifest names DEV's libara.so and entry object.
from_sdk() {
	local role path
	for role in libara entry; do
		path=$(awk -v r=$role '$1 == r { sub(/^[^ ]+ [^ ]+ /, ""); print; exit }' "$2")
		case $path in /*) ;; *) path=$(dirname "$2")/$path ;; esac
		path=$(readlink -f -- "$path")
		case $path in
		"$dev"/*) ;;
		*) fail "$1" "its manifest names $role $path, not the installed SDK's"; return ;;
		esac
	done
}

step "building the examples against the installed SDK $dev"
build hello "$examples/hello"
build cxx "$examples/cxx"
build provision_rts "$examples/provision_rts"
build rtm "$examples/rtm"
build file_app "$ARA_SRC_DIR/tests/sdk/run_app"
mkdir -p "$B/hello-make"
PKG_CONFIG_LIBDIR=$(dirname "$pc") make -s -C "$B/hello-make" -f "$examples/hello/Makefile" \
	ARA_MANIFEST="$tools/bin/ara-manifest" >"$B/hello-make.log" 2>&1 || {
	sed 's/^/    /' "$B/hello-make.log"
	die "examples/hello did not build with make and pkg-config (log above)"
}
info "built hello (make, pkg-config)"
for m in hello/hello cxx/hello_cxx provision_rts/provision_rts rtm/rtm_calc file_app/file_app \
	hello-make/hello; do
	from_sdk "$m" "$B/$m.ara-manifest"
done

# --- the inputs, made on the host -------------------------------------------
rnd() { od -An -tu4 -N4 /dev/urandom | tr -d ' '; }
echo_of() { printf '%#x' $((~$1 ^ 0x4152412d4543484f)); } # ara_echo_expect
digest_of() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
# policy MANIFEST OUT [ara-policy option...]: an ara-provision policy for
# that App under DEV's loader, by TOOLS' ara-policy.
policy() {
	"$tools/bin/ara-policy" --manifest "$1" --loader "$dev/bin/ara-loader" \
		--backend dev-insecure --max-age 3600 -o "$2" "${@:3}" ||
		die "ara-policy (the tools prefix's) failed for $1"
}
n_hello=$(( $(rnd) + 1 )) n_make=$(( $(rnd) + 1 )) n_cxx1=$(( $(rnd) + 1 )) n_cxx2=$(( $(rnd) + 1 ))
# The RTS stream: 200000 random bytes sealed under a random key.
key=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n') key_id=$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')
head -c 200000 /dev/urandom >"$work/in/clip"
echo "$key" | "$tools/bin/ara-seal-chunks" --key-file - --key-id "$key_id" "$work/in/clip" \
	"$work/in/clip.sealed" >/dev/null || die "ara-seal-chunks (the tools prefix's) failed"
echo "kid-$key_id $key" >"$work/in/secrets"
policy "$B/provision_rts/provision_rts.ara-manifest" "$work/in/policy" --secrets "$work/in/secrets"
# The RTM run: a random expression, a fresh nonce, ara-verify's policy.
a=$(( $(rnd) % 100000 )) b=$(( $(rnd) % 100000 )) c=$(( $(rnd) % 100000 ))
nonce=$(od -An -tx1 -N32 /dev/urandom | tr -d ' \n')
policy "$B/rtm/rtm_calc.ara-manifest" "$work/in/rtm-policy"

# --- one boot: every example ------------------------------------------------
R=$work/results
loader=$dev/bin/ara-loader
# shellcheck disable=SC2016 # $L, $B, $I, $E, $R are the guest script's
{
	echo '#!/bin/sh'
	printf 'R=%q L=%q B=%q I=%q\n' "$R" "$loader" "$B" "$work/in"
	cat <<'EOF'
mkdir -p "$R"
# run NAME COMMAND...: COMMAND's stdout, stderr and status in $R/NAME.*
run() {
	name=$1
	shift
	"$@" >"$R/$name.out" 2>"$R/$name.err"
	echo $? >"$R/$name.status"
	cat "$R/$name.out" "$R/$name.err"
}
EOF
	printf 'run hello "$L" "$B/hello/hello" %s\n' "$n_hello"
	printf 'run hello-make "$L" "$B/hello-make/hello" %s\n' "$n_make"
	printf 'run cxx "$L" "$B/cxx/hello_cxx" %s %s\n' "$n_cxx1" "$n_cxx2"
	printf 'P=%q V=%q nonce=%s\n' "$dev/bin/ara-provision" "$dev/bin/ara-verify" "$nonce"
	cat <<'EOF'
# provision_rts against ara-provision on the loopback interface
ip link set lo up
cd "$I"
ARA_PROVISION_STATE="$I/provision-state" "$P" --policy policy --sessions 1 --tcp 127.0.0.1:7878 --log "$R/provision.log" &
server=$!
run provision_rts env ARA_EVIDENCE=dev-insecure "$L" "$B/provision_rts/provision_rts" \
	127.0.0.1:7878 clip.sealed clip.out
for _ in $(seq 100); do kill -0 $server 2>/dev/null || break; sleep 0.1; done
kill $server 2>/dev/null
wait $server
echo $? >"$R/provision.status"
sha256sum <clip.out | cut -d' ' -f1 >"$R/clip.out.sha256"
# rtm_calc with its evidence, then ara-verify on it, and on a changed report
E=$I/rtm
mkdir -p "$E"
EOF
	printf 'run rtm env ARA_EVIDENCE=dev-insecure ARA_RTM_NONCE="$nonce" ARA_RTM_REPORT="$E/report" ARA_RTM_ATTEST="$E/attest" ARA_RTM_SEGMENTS="$E/segments" "$L" "$B/rtm/rtm_calc" %s %s + %s %q\n' \
		"$a" "$b" "$c" '*'
	cat <<'EOF'
# verify NAME REPORT: ara-verify's verdict on the run with that report
verify() {
	segments=
	[ ! -f "$E/segments" ] || segments="--segments $E/segments"
	# $segments: two words or none
	run "$1" "$V" --nonce "$nonce" --report "$2" $segments --attest "$E/attest" \
		--policy "$I/rtm-policy" --app "$B/rtm/rtm_calc"
}
verify verify "$E/report"
# One byte of the report's signed part changed (offset 64).
cp "$E/report" "$E/report.changed"
old=$(dd if="$E/report.changed" bs=1 skip=64 count=1 2>/dev/null | od -An -tu1 | tr -d ' ')
printf "\\$(printf %o $(((old + 1) % 256)))" | dd of="$E/report.changed" bs=1 seek=64 count=1 conv=notrunc 2>/dev/null
verify verify-changed "$E/report.changed"
EOF
	guest_send_dir examples-results "$R"
} >"$work/guest.sh"
chmod +x "$work/guest.sh"

step "running the examples in the POE guest (one boot)"
boot_rc=0
"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 600 \
	--embed "$dev" --embed "$work" -- "$work/guest.sh" | tee "$work/console.log" |
	awk '/^ARA-FILE-BEGIN / { on = 1; next } /^ARA-FILE-END / { on = 0; next } !on' ||
	boot_rc=$?
[ "$boot_rc" = 0 ] || die "the guest run of the examples failed (status $boot_rc)"
host_receive_dir examples-results "$work/console.log" "$R" ||
	die "the examples' results did not come back from the guest"

step "checking the examples' outputs"
# expect NAME STATUS LINE...: NAME exited with STATUS and printed every LINE.
expect() {
	local name=$1 want=$2 got line
	shift 2
	got=$(cat "$R/$name.status" 2>/dev/null || echo none)
	if [ "$got" != "$want" ]; then
		fail "$name" "exit status $got, expected $want"
		return 1
	fi
	for line in "$@"; do
		grep -qxF -- "$line" "$R/$name.out" || {
			fail "$name" "no line '$line' in its output"
			return 1
		}
	done
}
for h in hello:"$n_hello" hello-make:"$n_make"; do
	name=${h%%:*} n=${h#*:}
	expect "$name" 0 "hello: null service: success" "hello: echo service: success" \
		"hello: echo $(printf '%#x' "$n") -> $(echo_of "$n")" && pass "$name"
done
expect cxx 0 "hello_cxx: ARA $(PKG_CONFIG_LIBDIR=$(dirname "$pc") pkg-config --modversion ara), App sha256 $(digest_of app "$B/cxx/hello_cxx.ara-manifest")" \
	"hello_cxx: echo $(printf '%#x' "$n_cxx1") -> $(echo_of "$n_cxx1") (right)" \
	"hello_cxx: echo $(printf '%#x' "$n_cxx2") -> $(echo_of "$n_cxx2") (right)" && pass cxx
if expect provision_rts 0 "provision_rts: ARA holds 'kid-$key_id', 16 bytes"; then
	if [ "$(cat "$R/provision.status")" != 0 ]; then
		fail provision_rts "ara-provision exited with $(cat "$R/provision.status"): $(cat "$R/provision.log")"
	elif [ "$(cat "$R/clip.out.sha256")" != "$(sha256sum <"$work/in/clip" | cut -d' ' -f1)" ]; then
		fail provision_rts "the decrypted stream is not the clear file"
	else
		pass provision_rts
	fi
fi
if expect rtm 0 "rtm_calc: $(((a + b) * c))" && expect verify 0 &&
	grep -q '^ara-verify: OK' "$R/verify.out"; then
	if expect verify-changed 1 && grep -q '^ara-verify: REJECTED' "$R/verify-changed.out"; then
		pass rtm
		info "$(cat "$R/verify.out")"
	else
		fail rtm "ara-verify did not refuse the changed report"
	fi
elif [ -f "$R/verify.status" ] && [ "$(cat "$R/verify.status")" != 0 ]; then
	fail rtm "ara-verify refused the run: $(cat "$R/verify.out")"
fi

# --- qemu/run-app.sh: status and files back -----------------------------------
step "qemu/run-app.sh: an App's exit status and files come back"
status=$(( $(rnd) % 90 + 10 ))
for _ in 1 2 3; do echo $(( $(rnd) * 65536 + $(rnd) )); done >"$work/numbers.txt"
while read -r n; do printf '%016x %016x\n' "$n" $((~n ^ 0x4152412d4543484f)); done \
	<"$work/numbers.txt" >"$work/expected.txt"
rc=0
"$ARA_QEMU_DIR/run-app.sh" --sdk "$dev" --file "$work/numbers.txt" --out "$work/app-out" \
	-- "$B/file_app/file_app" numbers.txt results/echo.txt "$status" || rc=$?
if [ "$rc" != "$status" ]; then
	fail run-app "exit status $rc, the App's was $status"
elif ! cmp -s "$work/expected.txt" "$work/app-out/results/echo.txt"; then
	fail run-app "results/echo.txt did not come back with the App's echoes"
elif [ -e "$work/app-out/numbers.txt" ]; then
	fail run-app "the unchanged input numbers.txt came back"
else
	pass run-app
fi

info "examples.sh took $(elapsed "$t0")"
[ $failed = 0 ] || { echo "examples: FAILED"; exit 1; }
echo "examples: all passed"
