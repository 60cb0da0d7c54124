#!/usr/bin/env bash
# Assembles the arm64 test guest from Debian packages and caches it in
# $ARA_CACHE/guest/<key> (<key> digests this script, qemu/guest/init,
# qemu/guest/dpkg-database.sh and the kernel pin; $ARA_CACHE/guest/current
# points at the newest build):
#   vmlinuz        the pinned Debian kernel, checked for POE and seccomp filters
#   base.cpio      busybox, the test runtime libraries, ctest and dpkg (with
#                  the status database of these packages), with /init
#   manifest.txt   every package and version that went in
# Usage: build-guest.sh   prints the guest directory on stdout.
# Run as root: the initramfs needs a /dev/console device node.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

need_cmd apt-get apt
need_cmd dpkg-deb dpkg
need_cmd cpio cpio

# What the tests load at run time, plus ctest (cmake) to drive them inside the
# guest; apt adds the transitive dependencies. Bookworm's cmake matches the
# host cmake that writes the CTestTestfile.cmake files. usr-is-merged states
# that the root file system has the merged /usr layout (built below); apt
# would otherwise pick the alternative usrmerge, which converts a system at
# install time and pulls in 60 MB of perl.
# tpm2-tss's runtime libraries: ara-tpm-quote (the tpm evidence backend's
# device side) and the tpm verifier that ara-provision links.
# dpkg and libc-bin (ldconfig, which dpkg requires in PATH): the test that
# installs ARA's own packages with dpkg -i (tests/packaging/).
# libsqlite3-0: ara-provision's store.
# libjansson4: the EAR's JSON (services/ear), in ara-verify and ara-provision.
# libssl3: ara-provision's P-256 (services/provision/p256_openssl.c).
packages="busybox-static libc6 libgcc-s1 libseccomp2 libcapstone4 libcmocka0
	cmake usr-is-merged dash
	libtss2-mu0 libtss2-sys1 libtss2-rc0 libtss2-tctildr0 libtss2-tcti-device0
	dpkg libc-bin libsqlite3-0 libjansson4 libssl3"

init="$ARA_QEMU_DIR/guest/init"
dpkg_database="$ARA_QEMU_DIR/guest/dpkg-database.sh"
key=$(stamp_of "$0" "$init" "$dpkg_database" <(printf '%s\n' "$GUEST_KERNEL_PKG" "$GUEST_KERNEL_SUITE"))
out="$ARA_CACHE/guest/$key"
debs="$ARA_CACHE/dl/guest"

mkdir -p "$ARA_CACHE/guest" "$debs"
# Runners call this script on every boot, possibly in parallel: one builds,
# the others wait for it and then find the cached guest.
exec 9>"$ARA_CACHE/guest/.lock"
flock 9

if [ -f "$out/manifest.txt" ]; then
	ln -sfn "$key" "$ARA_CACHE/guest/current"
	echo "$out"
	exit 0
fi
[ "$(id -u)" = 0 ] || die "run as root once to build the guest (it creates /dev/console in the initramfs)"

t0=$(date +%s)
# A failed build leaves $work and its logs for inspection; the next build
# starts afresh.
work="$out.tmp"
rm -rf "$work"
mkdir -p "$work/rootfs"

# apt as if this were an empty arm64 system: the solver then returns the whole
# closure of Depends and Pre-Depends (not Recommends), with the versions the
# host's pinning picks, and never counts the host's own packages as present.
# apt's package cache is kept for the second call instead of being rebuilt.
# APT::Sandbox::User=root: $ARA_CACHE is usually under /root, which apt's
# unprivileged download user cannot enter; apt would fall back to root anyway.
apt_arm64() {
	apt-get -q -o Dir::State::status=/dev/null \
		-o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
		-o APT::Install-Recommends=false \
		-o Dir::Cache::pkgcache="$work/pkgcache.bin" \
		-o Dir::Cache::srcpkgcache="$work/srcpkgcache.bin" \
		-o APT::Sandbox::User=root "$@"
}

step "resolving the guest's packages (arm64)"
# shellcheck disable=SC2086 # $packages is a word list
apt_arm64 --simulate install $packages >"$work/resolve.log" ||
	die "apt cannot resolve the guest packages; see $work/resolve.log"
# "Inst NAME (VERSION SUITE [ARCH])" -> NAME=VERSION
mapfile -t pins < <(awk '$1 == "Inst" { print $2 "=" substr($3, 2) }' "$work/resolve.log")
[ "${#pins[@]}" -gt 0 ] || die "apt resolved no packages; see $work/resolve.log"
info "${#pins[@]} packages"

step "downloading $GUEST_KERNEL_PKG and the guest packages"
# "'URI' FILE SIZE SHA256:HASH" per package; the list goes into the manifest.
apt_arm64 download --print-uris "$GUEST_KERNEL_PKG/$GUEST_KERNEL_SUITE" "${pins[@]}" |
	awk '{ print $2, $4 }' >"$work/debs.txt"
# apt-get download checks each .deb against the hash in the signed index,
# and skips files already in $debs that match it.
(cd "$debs" && apt_arm64 download "$GUEST_KERNEL_PKG/$GUEST_KERNEL_SUITE" "${pins[@]}" \
	>"$work/download.log" 2>&1) || die "download failed; see $work/download.log"
kdeb=$(awk -v k="${GUEST_KERNEL_PKG}_" 'index($1, k) == 1 { print $1 }' "$work/debs.txt")
mapfile -t rootfs_debs < <(awk -v k="${GUEST_KERNEL_PKG}_" 'index($1, k) != 1 { print $1 }' "$work/debs.txt")
if [ -z "$kdeb" ] || [ "${#rootfs_debs[@]}" != "${#pins[@]}" ]; then
	die "apt named other files than asked for; see $work/debs.txt"
fi

step "checking the kernel"
kdeb="$debs/$kdeb"
kversion=$(dpkg-deb -f "$kdeb" Version)
mkdir -p "$work/kernel"
dpkg-deb --fsys-tarfile "$kdeb" | tar -x -C "$work/kernel" ./boot
config=$(echo "$work"/kernel/boot/config-*)
for opt in CONFIG_ARM64_POE CONFIG_SECCOMP_FILTER CONFIG_BLK_DEV_INITRD CONFIG_DEVTMPFS; do
	grep -qx "$opt=y" "$config" ||
		die "$GUEST_KERNEL_PKG $kversion lacks $opt=y; the guest needs it (pin another kernel in qemu/versions.env)"
done
cp "$work"/kernel/boot/vmlinuz-* "$work/vmlinuz"
info "$GUEST_KERNEL_PKG $kversion: POE, seccomp filters, initramfs"

step "unpacking the root file system"
rootfs="$work/rootfs"
# usrmerge layout, as on an installed Debian system: the packages still ship
# files under /lib and /bin, and the dynamic loader's path
# /lib/ld-linux-aarch64.so.1 must resolve into /usr/lib.
mkdir -p "$rootfs"/usr/{bin,sbin,lib} "$rootfs"/{dev,proc,sys,tmp,ara}
for d in bin sbin lib; do ln -s "usr/$d" "$rootfs/$d"; done
chmod 1777 "$rootfs/tmp"
for deb in "${rootfs_debs[@]}"; do
	# dpkg -x would replace the /lib symlink by a directory;
	# --keep-directory-symlink keeps the usrmerge layout.
	dpkg-deb --fsys-tarfile "$debs/$deb" | tar -x --keep-directory-symlink -C "$rootfs"
done
# Documentation (8 MB) is never read in the guest.
doc_dirs=(doc man info locale lintian)
for d in "${doc_dirs[@]}"; do rm -rf "${rootfs:?}/usr/share/$d"; done
# dpkg's status database lists the packages unpacked above (their file lists
# without the documentation), so that dpkg -i in the guest checks
# dependencies against them.
"$dpkg_database" "$rootfs" "^/usr/share/($(IFS='|'; echo "${doc_dirs[*]}"))(/|\$)" \
	"${rootfs_debs[@]/#/$debs/}"
# busybox is the guest's shell (init, the test scripts); dash, whose package
# also ships /bin/sh, is there for the tests of programs ARA starts with
# execve (tests/ara/with_dash_sh.sh): busybox is static, which ARA refuses.
ln -sfn busybox "$rootfs/bin/sh"
mknod -m 600 "$rootfs/dev/console" c 5 1
# The accounts of a minimal system (base-passwd would make them in its
# postinst, which dpkg -x does not run); some tests read these files, as
# files every system has (protection_keys reads /etc/passwd).
mkdir -p "$rootfs/etc"
echo 'root:x:0:0:root:/root:/bin/sh' >"$rootfs/etc/passwd"
echo 'root:x:0:' >"$rootfs/etc/group"
install -m 755 "$init" "$rootfs/init"
[ -x "$rootfs/lib/ld-linux-aarch64.so.1" ] || die "the arm64 dynamic loader is missing from the root file system"

step "packing base.cpio"
# Uncompressed: the emulated guest kernel unpacked a 190 MB root file system
# in 24 s from zstd and in 11 s from plain cpio (busy 2-core host), and QEMU
# loads the larger file in no measurable time. cpio pads to 512 bytes, so the
# runner's archives appended to it start 4-byte aligned, as Linux requires.
(cd "$rootfs" && find . | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) >"$work/base.cpio"

{
	echo "kernel $GUEST_KERNEL_PKG $kversion"
	printf 'package %s\n' "${pins[@]}"
	sed 's/^/deb /' "$work/debs.txt"
	echo "initramfs base.cpio $(du -h "$work/base.cpio" | cut -f1)"
} >"$work/manifest.txt"
rm -rf "$work/rootfs" "$work/kernel" "$work"/*.bin "$work"/*.log "$work/debs.txt"
rm -rf "$out"
mv "$work" "$out"
ln -sfn "$key" "$ARA_CACHE/guest/current"
info "guest built in $(elapsed "$t0"): $out ($(du -h "$out/base.cpio" | cut -f1) initramfs)"
echo "$out"
