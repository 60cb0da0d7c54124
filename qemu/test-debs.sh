#!/usr/bin/env bash
# Tests ARA's Debian packages (qemu/build-debs.sh) in the POE guest: builds
# two Apps with pkg-config against the files of libara-dev and the runtime
# packages only (unpacked into a sysroot, as they would be on a developer's
# machine): examples/hello with its own Makefile, and
# tests/packaging/installed_app.c. Then it boots the guest with the packages
# and the Apps and runs tests/packaging/deb_install.sh there: dpkg -i, then
# the Apps under the installed ara-loader.
# Usage: test-debs.sh [DEB_DIR]   (default build/deb)
# Exit status: 0 passed, 1 failed; 124/125 as run-guest.sh's.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need_cmd pkg-config pkg-config
need_cmd dpkg-deb dpkg

deb_dir=${1:-$ARA_SRC_DIR/build/deb}
[ -d "$deb_dir" ] || die "$deb_dir: no such directory: build the packages first (qemu/build-debs.sh)"
deb_dir=$(cd "$deb_dir" && pwd -P)
# deb PACKAGE: its .deb in DEB_DIR, exactly one.
deb() {
	local found=("$deb_dir/$1"_*_arm64.deb)
	if [ ${#found[@]} != 1 ] || [ ! -f "${found[0]}" ]; then
		die "$deb_dir: want one $1_*_arm64.deb, found: ${found[*]##*/} (run qemu/build-debs.sh)"
	fi
	echo "${found[0]}"
}
for pkg in libara0 libara-entry0 libara-dev ara-tools; do deb "$pkg" >/dev/null; done

work="$deb_dir/test"
sysroot=$(mktemp -d)
trap 'rm -rf "$sysroot"' EXIT
rm -rf "$work"
mkdir -p "$work"

step "building Apps against the installed files of libara-dev"
for pkg in libara0 libara-entry0 libara-dev; do dpkg-deb -x "$(deb "$pkg")" "$sysroot"; done
# pkg-config of the sysroot only. ara.pc finds its prefix from its own
# place, so -I, -L and the paths of its variables point into the sysroot.
pc() {
	PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig" pkg-config "$@"
}
# device_path VARIABLE: ara.pc's VARIABLE, a path in the sysroot, as the
# path on the device.
device_path() {
	local path
	path=$(realpath --no-symlinks "$(pc --variable="$1" ara)")
	[ "${path#"$sysroot"/}" != "$path" ] || die "ara.pc's $1 ($path) is not in the sysroot $sysroot"
	echo "/${path#"$sysroot"/}"
}
pc --exists ara || die "pkg-config finds no ara.pc in libara-dev"
# shellcheck disable=SC2046 # pkg-config's flags are word lists
aarch64-linux-gnu-gcc -O2 -Wall -Wextra -Werror $(pc --cflags ara) \
	"$ARA_SRC_DIR/tests/packaging/installed_app.c" -o "$work/installed_app" $(pc --libs ara) ||
	die "tests/packaging/installed_app.c does not build against libara-dev"
# The example's Makefile as its comment says, with the sysroot's pkg-config;
# only the App: its manifest is written in the guest, from the installed files.
PKG_CONFIG_PATH='' PKG_CONFIG_LIBDIR="$sysroot/usr/lib/aarch64-linux-gnu/pkgconfig" \
	make -s -C "$work" -f "$ARA_SRC_DIR/examples/hello/Makefile" hello ||
	die "examples/hello does not build against libara-dev"
libara=$(device_path libara)
entry=$(device_path entry)
info "libara.so: $libara, entry object: $entry"

step "installing the packages in the POE guest and running the Apps"
t0=$(date +%s)
rc=0
"$ARA_QEMU_DIR/guest/run-guest.sh" --embed "$deb_dir" --embed "$ARA_SRC_DIR/tests/packaging" -- \
	/bin/sh "$ARA_SRC_DIR/tests/packaging/deb_install.sh" "$deb_dir" "$work" "$libara" "$entry" || rc=$?
info "guest run took $(elapsed "$t0")"
exit $rc
