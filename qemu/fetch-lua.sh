#!/usr/bin/env bash
# Fetches and unpacks the pinned Debian Lua 5.4 source (qemu/versions.env)
# into $ARA_CACHE/src/lua-<version>, which the arm64 tree compiles with the
# RTM's instrumentation (tests/rtm/lua/). Idempotent: a stamp keyed on the
# pins and this script reuses an earlier unpack.
# Usage: fetch-lua.sh   prints the source directory on stdout.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

need_cmd apt-get apt
need_cmd dpkg-source dpkg-dev

# No '+' or '~' in the directory name: CMake quotes such paths for Ninja's
# depfiles (see fetch-mbedtls.sh), and the header dependencies would be lost.
out="$ARA_CACHE/src/lua-$(printf '%s' "$LUA_SRC_VERSION" | tr '+~' '__')"
want=$(stamp_of "$0" <(printf '%s\n' "$LUA_SRC_PKG" "$LUA_SRC_VERSION" "$LUA_DSC_SHA256"))

if [ -f "$out/.ara-stamp" ] && [ "$(cat "$out/.ara-stamp")" = "$want" ]; then
	info "lua $LUA_SRC_VERSION source is cached (stamp $want): $out"
	echo "$out"
	exit 0
fi

mkdir -p "$ARA_CACHE/src"
dsc=$(fetch_dsc "$LUA_SRC_PKG" "$LUA_SRC_VERSION" "$LUA_DSC_SHA256" "$ARA_CACHE/dl/lua")

# Unpack beside the final directory and rename it into place (an interrupted
# run leaves nothing that looks complete). dpkg-source verifies the tarballs
# against the .dsc and applies Debian's patches.
tmp="$out.tmp"
rm -rf "$tmp" "$out"
step "unpacking lua $LUA_SRC_VERSION"
dpkg-source -q -x --no-copy "$dsc" "$tmp" >"$tmp.log" 2>&1 ||
	die "dpkg-source -x $dsc failed; see $tmp.log"
# The files the build names (tests/rtm/lua/CMakeLists.txt).
for f in src/lua.c src/lvm.c src/ljumptab.h src/lua.h src/luaconf.h; do
	[ -f "$tmp/$f" ] || die "the unpacked lua source lacks $f ($tmp)"
done
rm -f "$tmp.log"
echo "$want" >"$tmp/.ara-stamp"
mv "$tmp" "$out"
info "lua $LUA_SRC_VERSION source: $out"
echo "$out"
