#!/usr/bin/env bash
# Fetches and unpacks the pinned Debian Stockfish source (qemu/versions.env)
# into $ARA_CACHE/src/stockfish-<version>, which the arm64 tree compiles
# with the RTM's instrumentation (tests/rtm/stockfish/). Idempotent: a stamp
# keyed on the pins and this script reuses an earlier unpack.
# Usage: fetch-stockfish.sh   prints the source directory on stdout.
#
# The package is pinned by its two tarballs' SHA-256, not by its .dsc (see
# versions.env), so this script does by hand what dpkg-source -x does for a
# "3.0 (quilt)" package: unpack the orig tarball, add debian/, apply
# debian/patches/series in order.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

need_cmd apt-get apt
need_cmd patch patch

version=$STOCKFISH_SRC_VERSION
upstream=${version%-*}
out="$ARA_CACHE/src/stockfish-$version"
want=$(stamp_of "$0" <(printf '%s\n' "$STOCKFISH_SRC_PKG" "$version" \
	"$STOCKFISH_ORIG_SHA256" "$STOCKFISH_DEBIAN_SHA256"))

if [ -f "$out/.ara-stamp" ] && [ "$(cat "$out/.ara-stamp")" = "$want" ]; then
	info "stockfish $version source is cached (stamp $want): $out"
	echo "$out"
	exit 0
fi

dl="$ARA_CACHE/dl/stockfish"
orig="$dl/${STOCKFISH_SRC_PKG}_$upstream.orig.tar.gz"
deb="$dl/${STOCKFISH_SRC_PKG}_$version.debian.tar.xz"
mkdir -p "$dl" "$ARA_CACHE/src"
# --tar-only / --diff-only: the two tarballs without the .dsc (apt checks
# them against the Sources index, and here against the pins).
for what in tar diff; do
	f=$orig
	[ "$what" = diff ] && f=$deb
	[ -f "$f" ] && continue
	step "downloading Debian source $STOCKFISH_SRC_PKG=$version ($what)"
	(cd "$dl" && apt-get source --download-only -q "--$what-only" \
		"$STOCKFISH_SRC_PKG=$version" >/dev/null 2>&1) ||
		die "apt-get source --$what-only $STOCKFISH_SRC_PKG=$version failed: is deb-src configured (qemu/host-deps.sh) and does the mirror still serve this version?"
done
printf '%s  %s\n' "$STOCKFISH_ORIG_SHA256" "$orig" "$STOCKFISH_DEBIAN_SHA256" "$deb" |
	sha256sum -c --quiet - ||
	die "a stockfish tarball in $dl does not match its SHA-256 in qemu/versions.env (delete it to download it again)"

# Unpack beside the final directory and rename it into place (an interrupted
# run leaves nothing that looks complete).
tmp="$out.tmp"
rm -rf "$tmp" "$out"
mkdir -p "$tmp"
step "unpacking stockfish $version"
tar -xzf "$orig" -C "$tmp" --strip-components=1 || die "cannot unpack $orig"
tar -xJf "$deb" -C "$tmp" || die "cannot unpack $deb"
while read -r p; do
	case $p in '' | '#'*) continue ;; esac
	patch -d "$tmp" -p1 -s -N <"$tmp/debian/patches/$p" >/dev/null ||
		die "Debian's patch $p does not apply to $orig"
done <"$tmp/debian/patches/series"
# The files the build names (tests/rtm/stockfish/CMakeLists.txt).
for f in src/main.cpp src/benchmark.cpp src/evaluate.h; do
	[ -f "$tmp/$f" ] || die "the unpacked stockfish source lacks $f ($tmp)"
done
ls "$tmp"/src/nn-*.nnue >/dev/null 2>&1 || die "the unpacked stockfish source has no NNUE network ($tmp/src)"
echo "$want" >"$tmp/.ara-stamp"
mv "$tmp" "$out"
info "stockfish $version source: $out"
echo "$out"
