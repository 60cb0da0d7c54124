#!/usr/bin/env bash
# Fetches and unpacks the pinned Debian mbedtls source (qemu/versions.env)
# into $ARA_CACHE/src/mbedtls-<version>, which the build compiles twice (for
# the tools and for DOM0, cmake/AraMbedtls.cmake). Idempotent: a stamp keyed
# on the pins and this script reuses an earlier unpack.
# Usage: fetch-mbedtls.sh   prints the source directory on stdout.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

need_cmd apt-get apt
need_cmd dpkg-source dpkg-dev

# No '~' in the directory name (the version has one): CMake quotes such paths
# for Ninja's depfiles, and Ninja then silently drops the header dependencies
# of every mbedtls object, so a changed configuration would not recompile it.
out="$ARA_CACHE/src/mbedtls-${MBEDTLS_SRC_VERSION//\~/_}"
want=$(stamp_of "$0" <(printf '%s\n' "$MBEDTLS_SRC_PKG" "$MBEDTLS_SRC_VERSION" "$MBEDTLS_DSC_SHA256"))

if [ -f "$out/.ara-stamp" ] && [ "$(cat "$out/.ara-stamp")" = "$want" ]; then
	info "mbedtls $MBEDTLS_SRC_VERSION source is cached (stamp $want): $out"
	echo "$out"
	exit 0
fi

mkdir -p "$ARA_CACHE/src"
dsc=$(fetch_dsc "$MBEDTLS_SRC_PKG" "$MBEDTLS_SRC_VERSION" "$MBEDTLS_DSC_SHA256" "$ARA_CACHE/dl/mbedtls")

# Unpack beside the final directory and rename it into place, so that an
# interrupted run never leaves a half-unpacked tree that looks complete.
# dpkg-source verifies the tarballs against the .dsc and applies Debian's
# patches (--no-copy: no copy of the tarball is left beside the tree).
tmp="$out.tmp"
rm -rf "$tmp" "$out"
step "unpacking mbedtls $MBEDTLS_SRC_VERSION"
dpkg-source -q -x --no-copy "$dsc" "$tmp" >"$tmp.log" 2>&1 ||
	die "dpkg-source -x $dsc failed; see $tmp.log"
# 3.6 release tarballs ship their generated sources, so library/*.c compiles
# as unpacked; these are the files the build cannot do without.
for f in include/mbedtls/build_info.h include/psa/crypto.h library/common.h library/sha256.c; do
	[ -f "$tmp/$f" ] || die "the unpacked mbedtls source lacks $f ($tmp)"
done
rm -f "$tmp.log"
echo "$want" >"$tmp/.ara-stamp"
mv "$tmp" "$out"
info "mbedtls $MBEDTLS_SRC_VERSION source: $out"
echo "$out"
