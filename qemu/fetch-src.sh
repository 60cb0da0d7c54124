#!/usr/bin/env bash
# Fetches and unpacks a pinned Debian source package (qemu/versions.env:
# <PREFIX>_SRC_PKG, _SRC_VERSION and the .dsc's _DSC_SHA256) into
# $ARA_CACHE/src/debian/<name>-<version>, with Debian's patches applied. The
# sources the build compiles from there:
#   lua      Lua 5.4, built with the RTM's instrumentation (tests/rtm/lua/)
#   mbedtls  the crypto, built for the tools and for DOM0 (cmake/AraMbedtls.cmake)
#   sqlite3  SQLite's speedtest1 under the RTM (tests/rtm/sqlite/); the
#            amalgamation, which the source package does not ship, is
#            generated here by SQLite's own Makefile into ara-amalgamation/
#   zstd     the zstd CLI under the RTM (tests/rtm/zstd/)
# Idempotent: a stamp keyed on the pins and this script reuses an earlier
# unpack.
#
# Usage: fetch-src.sh NAME   prints the source directory on stdout.
# Exit status: 0 done, 1 a download, check or unpack failed, 2 bad usage.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

usage() { sed -n 's/^# \{0,1\}//; 2,16p' "${BASH_SOURCE[0]}"; }

# NAME: the variables' prefix in versions.env, and the files the build
# cannot do without (checked after the unpack).
[ $# = 1 ] || { usage >&2; printf '\nerror: name one source\n' >&2; exit 2; }
case $1 in
lua)
	prefix=LUA
	need="src/lua.c src/lvm.c src/ljumptab.h src/lua.h src/luaconf.h" ;;
mbedtls)
	# 3.6 release tarballs ship their generated sources: library/*.c
	# compiles as unpacked.
	prefix=MBEDTLS
	need="include/mbedtls/build_info.h include/psa/crypto.h library/common.h library/sha256.c" ;;
sqlite3)
	prefix=SQLITE
	need="test/speedtest1.c ara-amalgamation/sqlite3.c ara-amalgamation/sqlite3.h" ;;
zstd)
	prefix=ZSTD
	need="lib/zstd.h lib/common/zstd_internal.h programs/zstdcli.c programs/fileio.c" ;;
-h | --help)
	usage
	exit 0 ;;
*)
	usage >&2
	printf '\nerror: %s\n' "${1:+unknown source: $1}" >&2
	exit 2 ;;
esac
name=$1
pkg_var=${prefix}_SRC_PKG version_var=${prefix}_SRC_VERSION sha_var=${prefix}_DSC_SHA256
pkg=${!pkg_var} version=${!version_var} sha=${!sha_var}

need_cmd apt-get apt
need_cmd dpkg-source dpkg-dev

# No '+' or '~' in the directory name: CMake quotes such paths for Ninja's
# depfiles, and Ninja then silently drops the header dependencies of every
# object compiled from there.
out="$ARA_CACHE/src/debian/$name-$(printf '%s' "$version" | tr '+~' '__')"
want=$(stamp_of "${BASH_SOURCE[0]}" <(printf '%s\n' "$name" "$pkg" "$version" "$sha"))

if [ -f "$out/.ara-stamp" ] && [ "$(cat "$out/.ara-stamp")" = "$want" ]; then
	info "$name $version source is cached (stamp $want): $out"
	echo "$out"
	exit 0
fi

# sqlite3_amalgamation DIR: sqlite3.c and sqlite3.h, the single-file form
# SQLite's own Makefile builds speedtest1 from, generated from DIR's sources
# by that Makefile (its configure, lemon and Tcl scripts run on the build
# machine; nothing of the build machine's ends up in the two files).
sqlite3_amalgamation() {
	need_cmd tclsh tcl
	need_cmd cc gcc
	need_cmd make make
	step "generating the sqlite3 amalgamation"
	mkdir "$1/ara-amalgamation.build"
	(cd "$1/ara-amalgamation.build" && ../configure --quiet && make -s sqlite3.c) \
		>"$1/ara-amalgamation.log" 2>&1 ||
		die "generating sqlite3.c failed; see $1/ara-amalgamation.log"
	mkdir "$1/ara-amalgamation"
	mv "$1/ara-amalgamation.build/sqlite3.c" "$1/ara-amalgamation.build/sqlite3.h" \
		"$1/ara-amalgamation/"
	rm -rf "$1/ara-amalgamation.build" "$1/ara-amalgamation.log"
}

mkdir -p "$ARA_CACHE/src/debian"
dsc=$(fetch_dsc "$pkg" "$version" "$sha" "$ARA_CACHE/dl/$name")

# Unpack beside the final directory and rename it into place, so that an
# interrupted run never leaves a half-unpacked tree that looks complete.
# dpkg-source verifies the tarballs against the .dsc and applies Debian's
# patches (--no-copy: no copy of the tarball is left beside the tree).
tmp="$out.tmp"
rm -rf "$tmp" "$out"
step "unpacking $name $version"
dpkg-source -q -x --no-copy "$dsc" "$tmp" >"$tmp.log" 2>&1 ||
	die "dpkg-source -x $dsc failed; see $tmp.log"
rm -f "$tmp.log"
if [ "$name" = sqlite3 ]; then
	sqlite3_amalgamation "$tmp"
fi
for f in $need; do
	[ -f "$tmp/$f" ] || die "the unpacked $name source lacks $f ($tmp)"
done
echo "$want" >"$tmp/.ara-stamp"
mv "$tmp" "$out"
info "$name $version source: $out"
echo "$out"
