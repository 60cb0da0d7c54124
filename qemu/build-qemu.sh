#!/usr/bin/env bash
# Builds qemu-system-aarch64 and the instruction-counting TCG plugin from the
# pinned Debian QEMU source, in two variants:
#   patched    with qemu/patches/*.patch (FEAT_S1POE), the platform's QEMU;
#   unpatched  the same source without them, the control that must not show POE.
# Builds land in $ARA_CACHE/qemu/<variant>-<key>, where <key> digests every
# input (source pin, patches, this script); an unchanged key reuses the build.
# Usage: build-qemu.sh [patched|unpatched|both]   (default: both)
# Prints nothing on stdout; `qemu-path.sh VARIANT` names the binary.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

variants=${1:-both}
case $variants in
	both) variants="patched unpatched" ;;
	patched|unpatched) ;;
	*) die "usage: $0 [patched|unpatched|both]" ;;
esac

need_cmd dpkg-source dpkg-dev
need_cmd ninja ninja-build
need_cmd meson meson
need_cmd apt-get apt

upstream=${QEMU_SRC_VERSION#*:}            # 10.2.2+ds-1
dsc="qemu_${upstream}.dsc"
dl="$ARA_CACHE/dl/qemu"

fetch_source() {
	mkdir -p "$dl"
	if [ ! -f "$dl/$dsc" ]; then
		step "downloading Debian source $QEMU_SRC_PKG=$QEMU_SRC_VERSION (about 40 MB)"
		(cd "$dl" && apt-get source --download-only -q "$QEMU_SRC_PKG=$QEMU_SRC_VERSION" >/dev/null 2>&1) ||
			die "apt-get source $QEMU_SRC_PKG=$QEMU_SRC_VERSION failed: is deb-src for sid configured (qemu/host-deps.sh) and does the mirror still serve this version?"
	fi
	echo "$QEMU_DSC_SHA256  $dl/$dsc" | sha256sum -c --quiet - ||
		die "$dsc does not match the pinned SHA-256 in qemu/versions.env"
}

configure_args=(--target-list=aarch64-softmmu --python="$ARA_PYTHON"
	--enable-plugins --disable-docs --disable-werror --disable-user
	--disable-tools --disable-gtk --disable-sdl --disable-vnc --disable-opengl
	--disable-rust --disable-install-blobs)
build_targets=(qemu-system-aarch64 tests/tcg/plugins/libinsn.so)

# key_for VARIANT: digest of everything the build depends on: the source pin, the
# configure arguments and targets, and for 'patched' the patches.
key_for() {
	local inputs=()
	[ "$1" = patched ] && inputs+=("$ARA_QEMU_DIR"/patches/*.patch)
	stamp_of "${inputs[@]}" <(printf '%s\n' "$QEMU_SRC_VERSION" "$QEMU_DSC_SHA256" \
		"${configure_args[@]}" "${build_targets[@]}")
}

build_variant() {
	local variant=$1 key out src t0
	key=$(key_for "$variant")
	out="$ARA_CACHE/qemu/$variant-$key"
	if [ -x "$out/build/qemu-system-aarch64" ] && [ -f "$out/build/tests/tcg/plugins/libinsn.so" ]; then
		info "QEMU ($variant) is cached: $out"
		ln -sfn "$out" "$ARA_CACHE/qemu/$variant"
		return
	fi
	t0=$(date +%s)
	fetch_source
	rm -rf "$out"
	mkdir -p "$out"
	src="$out/src"
	step "unpacking QEMU source ($variant)"
	# dpkg-source verifies the tarballs against the .dsc and applies Debian's
	# patches (among them skip-unpack-edk2-blobs, needed by the +ds tarball).
	# It cannot check the .dsc's OpenPGP signature (no Debian maintainer
	# keyring here); the pinned SHA-256 above stands in for it.
	dpkg-source -q -x "$dl/$dsc" "$src" >"$out/unpack.log" 2>&1 ||
		die "dpkg-source failed; see $out/unpack.log"
	if [ "$variant" = patched ]; then
		local p
		for p in "$ARA_QEMU_DIR"/patches/*.patch; do
			info "applying $(basename "$p")"
			patch -s -p1 -d "$src" <"$p" || die "patch $(basename "$p") does not apply"
		done
	fi
	step "configuring QEMU ($variant)"
	mkdir -p "$out/build"
	(cd "$out/build" && "$src/configure" "${configure_args[@]}" >"$out/configure.log" 2>&1) ||
		die "configure failed; see $out/configure.log"
	step "building qemu-system-aarch64 ($variant): about 10 minutes on 2 cores"
	# ninja's own progress line ([n/m]) is the progress report.
	ninja -C "$out/build" "${build_targets[@]}" 2>&1 |
		tee "$out/build.log" | grep --line-buffered -E '^\[[0-9]+/[0-9]+\]' |
		awk '{ split(substr($1,2),a,"/"); p=int(100*a[1]/a[2]);
		       if (p>=last+10) { printf "    %d%% (%s)\n", p, $1; fflush(); last=p } }' >&2
	[ -x "$out/build/qemu-system-aarch64" ] || die "QEMU build failed; see $out/build.log"
	# Keep only what is used: the source tree is not needed after the build.
	rm -rf "$src"
	ln -sfn "$out" "$ARA_CACHE/qemu/$variant"
	info "QEMU ($variant) built in $(elapsed "$t0"): $out"
}

for v in $variants; do build_variant "$v"; done
