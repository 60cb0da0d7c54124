#!/usr/bin/env bash
# Cross-builds the arm64 kernel of the TPM guest (run-guest.sh --tpm): Debian's
# linux source $TPM_KERNEL_SRC_VERSION (qemu/versions.env), configured as
# `allnoconfig` plus qemu/guest/tpm-kernel.config. Debian's own arm64 kernels,
# which the other guest runs, have no driver for QEMU's tpm-tis-device.
# Output: $ARA_CACHE/tpm-kernel/<key>/ ($ARA_CACHE/tpm-kernel/current links
# to the newest), <key> digesting this script, the fragment, the pins and the
# cross compiler:
#   Image          the kernel (uncompressed arm64 Image, for QEMU's -kernel)
#   config         its final .config
#   manifest.txt   source, compiler, build time
# Usage: build-tpm-kernel.sh   prints the output directory on stdout.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

need_cmd apt-get apt
need_cmd dpkg-source dpkg-dev
need_cmd make make
need_cmd gcc gcc
need_cmd flex flex
need_cmd bison bison
need_cmd bc bc
need_cmd xz xz-utils
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu

fragment="$ARA_QEMU_DIR/guest/tpm-kernel.config"
dl="$ARA_CACHE/dl/linux"
ver=$TPM_KERNEL_SRC_VERSION

key=$({
	cat "$0" "$fragment"
	grep '^TPM_KERNEL_' "$ARA_QEMU_DIR/versions.env"
	dpkg-query -W gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu
} | sha256sum | cut -c1-16)
out="$ARA_CACHE/tpm-kernel/$key"

mkdir -p "$ARA_CACHE/tpm-kernel"
# Runners may call this before every TPM boot, possibly in parallel: one
# builds, the others wait for it and then find the cached kernel.
exec 9>"$ARA_CACHE/tpm-kernel/.lock"
flock 9

if [ -f "$out/manifest.txt" ]; then
	ln -sfn "$key" "$ARA_CACHE/tpm-kernel/current"
	echo "$out"
	exit 0
fi

# verified: the .dsc in $dl matches its pin, and every file the .dsc names
# matches the .dsc (as build-selftests.sh checks the same source).
verified() {
	(cd "$dl" && echo "$TPM_KERNEL_DSC_SHA256  linux_$ver.dsc" | sha256sum -c --quiet - &&
		awk '/^Checksums-Sha256:/ {f=1; next} /^([^ ]|$)/ {f=0} f {print $1 "  " $3}' \
			"linux_$ver.dsc" | sha256sum -c --quiet -) >/dev/null 2>&1
}

t0=$(date +%s)
# A failed build leaves $work and its log for inspection; the next build
# starts afresh.
work="$out.tmp"
rm -rf "$work"
mkdir -p "$work"
log="$work/build.log"

if ! verified; then
	step "downloading Debian source linux=$ver (about 160 MB)"
	mkdir -p "$dl"
	(cd "$dl" && apt-get source --download-only -q "linux=$ver" >/dev/null 2>&1) ||
		die "apt-get source linux=$ver failed: is deb-src configured (qemu/host-deps.sh) and does the mirror still serve this version?"
	verified ||
		die "linux_$ver.dsc does not match TPM_KERNEL_DSC_SHA256 in qemu/versions.env, or a file it names does not match it"
fi

step "unpacking linux $ver with Debian's patches"
# dpkg-source checks the tarballs against the .dsc once more and applies
# debian/patches: the kernel is Debian's source, only configured otherwise.
# --no-copy: the 150 MB orig tarball stays in $dl.
(cd "$work" && dpkg-source --no-copy -x "$dl/linux_$ver.dsc" src >>"$log" 2>&1) ||
	die "dpkg-source -x linux_$ver.dsc failed; see $log"

# The build is reproducible from the pins: no user, host or time of the
# build machine ends up in the kernel (uname -v shows the changelog's date).
kmake() {
	make -C "$work/src" O="$work/build" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- \
		KBUILD_BUILD_USER=ara KBUILD_BUILD_HOST=ara \
		KBUILD_BUILD_TIMESTAMP="$(dpkg-parsechangelog -l "$work/src/debian/changelog" -S Date)" \
		"$@" >>"$log" 2>&1
}

step "configuring: allnoconfig + $(basename "$fragment")"
# KCONFIG_ALLCONFIG: allnoconfig with the fragment's values forced, i.e.
# what scripts/kconfig/merge_config.sh -n does; olddefconfig then settles
# the defaults of anything new that those values made visible.
kmake KCONFIG_ALLCONFIG="$fragment" allnoconfig || die "allnoconfig failed; see $log"
kmake olddefconfig || die "olddefconfig failed; see $log"
# Kconfig drops a value whose dependencies are not met without failing, and
# an option renamed in another kernel version simply disappears: each line
# of the fragment must hold in the final .config.
config="$work/build/.config"
bad=()
while read -r line; do
	case $line in
	'# CONFIG_'*' is not set')
		opt=${line#\# }; opt=${opt%% *}
		grep -q "^$opt=" "$config" && bad+=("$opt (wanted off, got $(grep "^$opt=" "$config"))")
		;;
	CONFIG_*=*)
		grep -qxF "$line" "$config" ||
			bad+=("$line (got: $(grep -E "^(# )?${line%%=*}[= ]" "$config" || echo absent))")
		;;
	esac
done <"$fragment"
[ ${#bad[@]} -eq 0 ] ||
	die "the final .config does not keep $(basename "$fragment"): $(printf '\n    %s' "${bad[@]}")"
info "$(grep -c '=y$' "$config") options built in"

step "building Image (make -j$(nproc); about 10 minutes on 2 cores)"
kmake -j"$(nproc)" Image || die "the kernel build failed; see $log"
image="$work/build/arch/arm64/boot/Image"
# The arm64 Image header's magic, "ARM\x64" at offset 56.
[ "$(od -An -tx1 -j56 -N4 "$image" | tr -d ' ')" = 41524d64 ] ||
	die "$image is not an arm64 Image"
cp "$image" "$work/Image"
cp "$config" "$work/config"
release=$(cat "$work/build/include/config/kernel.release")
{
	echo "kernel $release"
	echo "source linux $ver (Debian), .dsc sha256 $TPM_KERNEL_DSC_SHA256"
	echo "config allnoconfig + tpm-kernel.config sha256 $(sha256sum <"$fragment" | cut -d' ' -f1)"
	echo "compiler $(aarch64-linux-gnu-gcc --version | head -n1)"
	echo "image Image sha256 $(sha256sum <"$work/Image" | cut -d' ' -f1)"
	echo "built in $(elapsed "$t0") with $(nproc) jobs"
} >"$work/manifest.txt"
rm -rf "$work/src" "$work/build" "$log"
rm -rf "$out"
mv "$work" "$out"
ln -sfn "$key" "$ARA_CACHE/tpm-kernel/current"
info "TPM guest kernel $release built in $(elapsed "$t0"): $out"
echo "$out"
