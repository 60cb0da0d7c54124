#!/bin/sh
# Runs in the POE guest (qemu/test-debs.sh boots it). Installs ARA's Debian
# packages with dpkg -i, whose dependencies dpkg checks against the guest's
# own package database (no --force option), then runs two Apps under the
# installed ara-loader with the installed libara.so and entry object:
# examples/hello, and installed_app, which shows that those are the files
# ARA verified.
# Usage: deb_install.sh DEB_DIR APP_DIR LIBARA ENTRY
#   DEB_DIR  the .debs; APP_DIR  hello and installed_app (built against
#   libara-dev's files); LIBARA, ENTRY  where the packages install libara.so
#   and the entry object (ara.pc's variables libara and entry)
# Exit status: 0 passed, 1 failed (the reason on a FAIL: line).
set -u
[ $# -eq 4 ] || { echo "usage: $0 DEB_DIR APP_DIR LIBARA ENTRY" >&2; exit 2; }
deb_dir=$1 app_dir=$2 libara=$3 entry=$4
# Full paths: busybox sh would run its own dpkg applet for "dpkg".
dpkg=/usr/bin/dpkg
fail() { echo "FAIL: $*"; exit 1; }

set -- "$deb_dir"/*.deb
[ -f "$1" ] || fail "no .deb in $deb_dir"
# First ara-tools alone: dpkg must refuse it for want of ARA's own
# libraries only; the guest's database satisfies the rest (libc6, tpm2-tss).
echo "== dpkg -i ara-tools alone"
out=$($dpkg -i "$deb_dir"/ara-tools_*_arm64.deb 2>&1) && fail "dpkg -i installed ara-tools without libara0"
echo "$out"
echo "$out" | grep -q "depends on libara0" || fail "dpkg did not name the missing libara0"
echo "$out" | grep "depends on" | grep -Ev "depends on (libara0|libara-entry0) " &&
	fail "dpkg found a dependency missing that the guest's database should satisfy"
echo "== dpkg -i $*"
$dpkg -i "$@" || fail "dpkg -i exited $?"
for pkg in libara0 libara-entry0 libara-dev ara-tools; do
	status=$(/usr/bin/dpkg-query -W -f='${Status}' "$pkg")
	[ "$status" = "install ok installed" ] || fail "$pkg: status '$status'"
done
$dpkg --audit || fail "dpkg --audit found a broken package"

# The files the test uses come from the packages, not from anywhere else
# (LIBARA and ENTRY may be libara-dev's links to the runtime packages' files).
owner() { $dpkg -S "$(readlink -f "$1")" | cut -d: -f1; }
[ "$(owner "$libara")" = libara0 ] || fail "$libara is not libara0's"
[ "$(owner "$entry")" = libara-entry0 ] || fail "$entry is not libara-entry0's"
[ "$(owner /usr/bin/ara-loader)" = ara-tools ] || fail "/usr/bin/ara-loader is not ara-tools'"

# run APP [ARG...]: APP's manifest from the installed ara-manifest, then APP
# under the installed ara-loader; its output in $out.
run() {
	app=$1
	echo "== ara-loader $*"
	/usr/bin/ara-manifest --libara "$libara" --entry "$entry" --app "$app" \
		-o "$app.ara-manifest" || fail "ara-manifest for $app exited $?"
	out=$(/usr/bin/ara-loader "$@") || fail "ara-loader $* exited $?"
	echo "$out"
}

# hello checks the echo itself (exit status 1 if it is wrong).
run "$app_dir/hello" 0x6465622d
echo "$out" | grep -q "^hello: echo 0x6465622d -> " || fail "hello did not echo its number"

run "$app_dir/installed_app"
echo "$out" | grep -qx "echo ok" || fail "installed_app's echo check is missing"
# verified ROLE FILE: the App printed FILE's digest for ROLE.
verified() {
	want="$1 $(sha256sum "$2" | cut -d' ' -f1)"
	echo "$out" | grep -qx "$want" || fail "ARA did not verify $2 (want '$want')"
}
verified libara "$libara"
verified entry "$entry"
verified app "$app_dir/installed_app"
echo "PASS: the packages installed with dpkg -i; the Apps ran from the installed files"
