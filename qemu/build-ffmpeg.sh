#!/usr/bin/env bash
# Cross-builds, once, a minimal static FFmpeg for arm64 from the pinned Debian
# source (qemu/versions.env): libavformat with only the mov/mp4 demuxer and
# the file protocol, plus the libavcodec and libavutil it needs. The CENC
# interoperability App (tests/cenc/) links it statically, so the guest needs
# none of Debian's arm64 FFmpeg and its dependency closure. The result lives
# in $ARA_CACHE/ffmpeg/<key>, outside any build tree (the guest copies the
# whole build tree), keyed on the pins, this script and the cross compiler.
# Usage: build-ffmpeg.sh   prints the install prefix (include/, lib/) on stdout.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

need_cmd apt-get apt
need_cmd dpkg-source dpkg-dev
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu
need_cmd make make

upstream=${FFMPEG_SRC_VERSION#*:}
key=$(stamp_of "$0" <(printf '%s\n' "$FFMPEG_SRC_PKG" "$FFMPEG_SRC_VERSION" "$FFMPEG_DSC_SHA256") \
	<(aarch64-linux-gnu-gcc --version | head -n1))
out="$ARA_CACHE/ffmpeg/$key"

if [ -f "$out/.ara-done" ]; then
	info "FFmpeg $upstream for arm64 is cached: $out"
	echo "$out"
	exit 0
fi

mkdir -p "$ARA_CACHE/ffmpeg"
dsc=$(fetch_dsc "$FFMPEG_SRC_PKG" "$FFMPEG_SRC_VERSION" "$FFMPEG_DSC_SHA256" "$ARA_CACHE/dl/ffmpeg")

# Build beside the result; only a finished install gets .ara-done, so an
# interrupted run never leaves a prefix that looks complete. dpkg-source
# checks the tarballs against the .dsc and applies Debian's patches.
work="$out.tmp"
rm -rf "$work" "$out"
mkdir -p "$work"
t0=$(date +%s)
step "unpacking FFmpeg $upstream"
dpkg-source -q -x --no-copy "$dsc" "$work/src" >"$work/unpack.log" 2>&1 ||
	die "dpkg-source -x $dsc failed; see $work/unpack.log"

# Only what demuxing an ISO BMFF file needs. --disable-autodetect keeps out
# every optional host library (zlib included: compressed moov boxes are not
# needed for our clips); PIC because the App is a position-independent
# executable.
step "configuring FFmpeg for aarch64 (mov demuxer, file protocol, static)"
mkdir -p "$work/build"
(cd "$work/build" && "$work/src/configure" \
	--prefix="$out" --enable-cross-compile --arch=aarch64 --target-os=linux \
	--cross-prefix=aarch64-linux-gnu- --enable-pic --enable-static --disable-shared \
	--disable-autodetect --disable-everything --disable-programs --disable-doc \
	--disable-network --disable-avdevice --disable-swscale --disable-swresample \
	--disable-postproc --disable-avfilter --enable-demuxer=mov --enable-protocol=file \
	>"$work/configure.log" 2>&1) ||
	die "FFmpeg configure failed; see $work/configure.log and $work/build/ffbuild/config.log"
step "building FFmpeg (two jobs)"
make -C "$work/build" -j 2 >"$work/make.log" 2>&1 || die "FFmpeg build failed; see $work/make.log"
make -C "$work/build" install >"$work/install.log" 2>&1 || die "FFmpeg install failed; see $work/install.log"
for f in lib/libavformat.a lib/libavcodec.a lib/libavutil.a include/libavformat/avformat.h \
	include/libavutil/encryption_info.h; do
	[ -f "$out/$f" ] || die "the FFmpeg build did not install $f"
done
rm -rf "$work"
touch "$out/.ara-done"
info "FFmpeg $upstream for arm64 built in $(elapsed "$t0"): $out"
echo "$out"
