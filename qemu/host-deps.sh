#!/usr/bin/env bash
# Installs, idempotently, everything the platform needs on a Debian 12 host:
# apt sources for the newer suites (pinned low), arm64 multiarch, the cross
# toolchain, the project's dependencies for host and arm64, QEMU's build
# dependencies. Run as root.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

[ "$(id -u)" = 0 ] || die "run as root (it installs Debian packages)"
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] ||
	die "this script targets Debian 12 (bookworm); found '${PRETTY_NAME:-unknown}'"

stamp="$ARA_CACHE/host-deps.stamp"
want=$(stamp_of "$0" <(echo "$MESON_SUITE"))
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && [ -z "${ARA_FORCE_DEPS:-}" ]; then
	info "host packages already installed (stamp $want)"
	exit 0
fi

# The mirror is the one this machine already uses: read it from the existing
# deb822 sources (or the one-line format), never from this repository.
mirror_uri() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ && u {print u; exit}
		     /^$/ {u=""}' "$f"
	done | head -n1
	if [ -f /etc/apt/sources.list ]; then
		awk '$1=="deb" && $3=="bookworm" {print $2; exit}' /etc/apt/sources.list
	fi
}
uri=$(mirror_uri | head -n1)
[ -n "$uri" ] || die "cannot find the Debian mirror of 'bookworm' in /etc/apt/sources*"

step "apt sources: bookworm-backports, trixie, sid and deb-src from $uri (pinned low)"
cat >/etc/apt/sources.list.d/ara-suites.sources <<EOS
# Written by ARA qemu/host-deps.sh. Newer suites are pinned low in
# /etc/apt/preferences.d/ara-suites: only what is asked for by name comes
# from them.
Types: deb deb-src
URIs: $uri
Suites: bookworm-backports trixie sid
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOS
cat >/etc/apt/preferences.d/ara-suites <<'EOS'
# Written by ARA qemu/host-deps.sh.
Package: *
Pin: release n=bookworm-backports
Pin-Priority: 100

Package: *
Pin: release n=trixie
Pin-Priority: 100

Package: *
Pin: release n=sid
Pin-Priority: 50
EOS
dpkg --print-foreign-architectures | grep -qx arm64 || dpkg --add-architecture arm64

step "apt-get update"
apt-get update -q -o DPkg::Lock::Timeout=600 >/dev/null

# Packages: one list per purpose, so a failure names what it was for.
host_build="cmake ninja-build gcc make pkg-config git xz-utils cpio zstd ca-certificates"
host_libs="libseccomp-dev libcapstone-dev libcmocka-dev libtss2-dev"
cross="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross"
arm64_libs="libseccomp-dev:arm64 libcapstone-dev:arm64 libcmocka-dev:arm64 libtss2-dev:arm64"
# ara-provision's store (services/provision/server/store_sqlite.c): SQLite,
# for the host build and the arm64 one (the provisioner runs in the guest).
store="libsqlite3-dev libsqlite3-dev:arm64"
# EAT Attestation Results (services/ear, docs/ear.md): jansson builds the
# claim set, in ara-verify and ara-provision, host and arm64 (both run in
# the guest, whose package list has libjansson4).
ear="libjansson-dev libjansson-dev:arm64"
# The EAR test's relying party: ordinary JWT code, PyJWT with its ES256
# backend (tests/ear/check_ear.py).
ear_check="python3-jwt python3-cryptography"
# The guest's TPM 2.0 (QEMU's tpm-tis-device) is swtpm on the host; the TPM
# guest's kernel is built here (flex and bison come with QEMU's list).
tpm="swtpm swtpm-tools"
kernel_build="bc perl"
# The CENC interoperability test's clip: made, encrypted and decrypted by
# Debian's ffmpeg at build time (tests/cenc/make_clip.sh).
cenc="ffmpeg"
# The RTM's pass plugin (services/rtm/instrument) and the clang that loads it.
rtm="llvm-14-dev clang-14 g++"
# ara-verify's packed-relocation (SHT_RELR) test fixture: lld links it.
rtm_verify="lld-14"
# The Lua RTM test's reference output (tests/rtm/lua/): Debian's lua5.4.
rtm_lua="lua5.4"
# qemu/ara.sh eval's statistics and plots (qemu/eval-report.py; README.md,
# "Dependencies", says why these).
eval_report="python3-matplotlib python3-scipy"
# The SQLite amalgamation's generation (qemu/fetch-src.sh sqlite3): Tcl.
# The zstd RTM test's reference output (tests/rtm/zstd/) is host_build's zstd.
rtm_sqlite="tcl"
# The C++ program of the RTM case study (tests/rtm/stockfish/): the arm64
# libstdc++ headers and static library clang++ compiles and the App links.
rtm_cxx="libstdc++-12-dev-arm64-cross"
# The ABI check of the shared libraries (abi/, docs/abi.md): abidw, abidiff.
abi_check="abigail-tools"
# The manual pages' check (tests/docs/check-man.sh): groff, man and lexgrog.
man_check="groff-base man-db"
# The C++ example App (examples/cxx), built with the cross g++.
cxx="g++-aarch64-linux-gnu"
# ARA's own Debian packages (debian/, qemu/build-debs.sh) and their check.
packaging="debhelper lintian"
# The provisioner's PostgreSQL store: libpq to build it, and the server its
# tests start from Debian's package (tests/pg/pg-harness.sh).
pg="libpq-dev postgresql"
# The provisioning service's P-256 (services/provision/p256_openssl.c):
# OpenSSL's libcrypto, host and arm64 (the guest's libssl3 is in its list).
service_crypto="libssl-dev libssl-dev:arm64"
# The load and fault tests read the store's database afterwards
# (tests/load/invariants.sh): SQLite's shell (psql comes with postgresql).
load_tests="sqlite3"
# The provisioning service's units checked (tests/provision/verify-units.sh):
# systemd-analyze.
service_units="systemd"
qemu_build="ninja-build libglib2.0-dev libpixman-1-dev libfdt-dev flex bison python3-venv python3-pycotap dpkg-dev"

install() {
	local what=$1; shift
	step "installing $what: $*"
	# Wait for another apt (an unattended upgrade, a parallel run) rather than fail.
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
		-o DPkg::Lock::Timeout=600 "$@" \
		>/dev/null || die "could not install $what ($*)"
}
install "host build tools" $host_build
install "host libraries" $host_libs
install "cross toolchain" $cross
install "arm64 libraries" $arm64_libs
install "the provisioning service's store" $store
install "QEMU build dependencies" $qemu_build
install "the ABI check" $abi_check
install "the RTM's instrumentation" $rtm
install "ara-verify's test fixture linker" $rtm_verify
install "the EAR's JSON library" $ear
install "the EAR test's JWT checker" $ear_check
install "the Lua RTM test's reference interpreter" $rtm_lua
install "the SQLite amalgamation's generator" $rtm_sqlite
install "the arm64 C++ library for instrumented C++" $rtm_cxx
install "the cross C++ compiler for the C++ example" $cxx
install "the software TPM" $tpm
install "the TPM guest's kernel build" $kernel_build
install "the CENC test's ffmpeg" $cenc
install "the evaluation's summary and plots" $eval_report
install "the manual pages' check" $man_check
install "ARA's Debian packaging" $packaging
install "the PostgreSQL store and its test server" $pg
install "the provisioning service's P-256" $service_crypto
install "the load tests' database checks" $load_tests
install "the service units' check" $service_units
install "meson from $MESON_SUITE" -t "$MESON_SUITE" meson
meson_v=$(meson --version)
dpkg --compare-versions "$meson_v" ge 1.5 || die "meson $meson_v is too old (QEMU needs >= 1.5)"

mkdir -p "$ARA_CACHE"
echo "$want" >"$stamp"
info "host packages installed"
