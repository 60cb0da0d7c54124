#!/usr/bin/env bash
# tests/sdk/check-install.sh ARM64_TREE HOST_TREE: installs both build trees
# into scratch prefixes (cmake --install) and checks the SDK (docs/sdk.md):
#   - each prefix holds exactly the files of tests/sdk/installed-arm64.txt
#     and installed-host.txt, and the man pages and completions exactly
#     those of docs/man and docs/completion: nothing private, nothing missing;
#   - every installed header compiles alone as C (gcc) and as C++
#     (clang++-14), with -Wall -Wextra -Werror;
#   - a C++ App that calls secure_call links against libara-entry.so (C names);
#   - with pkg-config only: an App links libara-client.a next to names of
#     its own that ARA uses inside; an RTM App gets full RELRO and the runtime's
#     evidence writer, and instrumented code without the runtime fails to link;
#   - a CMake project of its own (tests/sdk/app) builds with find_package(ara),
#     ara_add_app() and ara_rtm_app(), and gets its manifests.
# Runs on the build machine, after both trees are built (qemu/ara.sh test).
# Prints "check-install: PASS"; exits 1 on a failed check, 2 on usage.
set -euo pipefail

if [ $# != 2 ]; then
	echo "usage: $0 ARM64_TREE HOST_TREE" >&2
	exit 2
fi
arm64_tree=$(readlink -f "$1")
host_tree=$(readlink -f "$2")
here=$(dirname "$(readlink -f "$0")")
src=$(dirname "$(dirname "$here")")
for t in "$arm64_tree" "$host_tree"; do
	[ -f "$t/CMakeCache.txt" ] || { echo "check-install: FAIL: $t is not a build tree" >&2; exit 1; }
done

fail() {
	echo "check-install: FAIL: $*" >&2
	exit 1
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# output_has PATTERN CMD...: CMD's output (whole, in a file) matches PATTERN.
# Not "CMD | grep -q": with pipefail, grep's early exit makes a CMD that is
# still writing die of SIGPIPE, and the check fails at random.
output_has() {
	local pattern=$1
	shift
	"$@" >"$tmp/output" && grep -Eq -- "$pattern" "$tmp/output"
}
dev=$tmp/dev tools=$tmp/tools

cc=aarch64-linux-gnu-gcc
cxx=clang++-14
for p in "$cc" "$cxx" aarch64-linux-gnu-readelf aarch64-linux-gnu-nm pkg-config cmake; do
	command -v "$p" >/dev/null || fail "$p not found (qemu/host-deps.sh installs it)"
done

cmake --install "$arm64_tree" --prefix "$dev" >"$tmp/install-arm64.log" ||
	fail "cmake --install $arm64_tree: $(tail -3 "$tmp/install-arm64.log")"
cmake --install "$host_tree" --prefix "$tools" >"$tmp/install-host.log" ||
	fail "cmake --install $host_tree: $(tail -3 "$tmp/install-host.log")"

# check_list PREFIX LIST: the files under PREFIX, man pages and completions
# aside, are exactly LIST's; those are exactly docs/'s.
check_list() {
	local prefix=$1 list=$2
	(cd "$prefix" && find . \( -type f -o -type l \) | sed 's|^\./||' |
		grep -Ev '^share/(man|bash-completion)/' | LC_ALL=C sort) >"$tmp/got"
	diff -u "$list" "$tmp/got" >"$tmp/diff" ||
		fail "$prefix differs from $list (- missing, + not listed):
$(tail -n +3 "$tmp/diff" | grep '^[-+]')"
	# (find fails on a folder that does not exist: none installed, or none in docs/)
	(cd "$prefix" && { find share/man share/bash-completion -type f 2>/dev/null || true; }) |
		sed 's|.*/||' | LC_ALL=C sort >"$tmp/got-docs"
	(find "$src/docs/man" -name '*.[1-8]' 2>/dev/null || true
	 find "$src/docs/completion" -type f 2>/dev/null || true) |
		sed 's|.*/||' | LC_ALL=C sort >"$tmp/want-docs"
	diff -u "$tmp/want-docs" "$tmp/got-docs" >"$tmp/diff" ||
		fail "$prefix's man pages and completions differ from docs/:
$(tail -n +3 "$tmp/diff" | grep '^[-+]')"
}
check_list "$dev" "$here/installed-arm64.txt"
check_list "$tools" "$here/installed-host.txt"

warn=(-Wall -Wextra -Werror)
cross=(--target=aarch64-linux-gnu)
inc=$dev/include
# Every header alone, as C and as C++.
for h in "$inc"/ara/*.h; do
	name=ara/$(basename "$h")
	printf '#include <%s>\n' "$name" >"$tmp/one.c"
	"$cc" "${warn[@]}" -Wstrict-prototypes -std=c11 -I"$inc" -fsyntax-only "$tmp/one.c" ||
		fail "$name does not compile alone as C"
	cp "$tmp/one.c" "$tmp/one.cpp"
	"$cxx" "${cross[@]}" "${warn[@]}" -std=c++17 -I"$inc" -fsyntax-only "$tmp/one.cpp" ||
		fail "$name does not compile alone as C++"
done

# A C++ App: secure_call by its C name.
libdir=$(cd "$dev" && find . -name libara-entry.so -printf '%h\n' | sed 's|^\./||')
"$cxx" "${cross[@]}" "${warn[@]}" -std=c++17 -fPIE -I"$inc" -c "$here/app/hello.cpp" -o "$tmp/hello++.o" ||
	fail "hello.cpp does not compile"
"$cc" -o "$tmp/hello++" "$tmp/hello++.o" -L"$dev/$libdir" -lara-entry ||
	fail "a C++ App does not link secure_call from libara-entry.so"

# pkg-config only.
export PKG_CONFIG_LIBDIR=$dev/$libdir/pkgconfig PKG_CONFIG_PATH=
for m in ara ara-client ara-rtm-runtime; do
	pkg-config --exists --print-errors "$m" || fail "pkg-config does not find $m"
done
[ "$(pkg-config --modversion ara)" = "$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$arm64_tree/CMakeCache.txt")" ] ||
	fail "ara.pc's version is not the project's"
for v in libara entry; do
	[ -f "$(pkg-config --variable=$v ara)" ] || fail "ara.pc's variable $v names no file"
done
read -ra cflags <<<"$(pkg-config --cflags ara-client)"
read -ra libs <<<"$(pkg-config --libs ara-client)"
"$cc" "${warn[@]}" "${cflags[@]}" -o "$tmp/fetch" "$here/app/fetch.c" "$here/app/own_names.c" "${libs[@]}" ||
	fail "an App with names of its own that ARA uses inside does not link libara-client.a alone"
output_has 'NEEDED.*libara-entry.so' aarch64-linux-gnu-readelf -d "$tmp/fetch" ||
	fail "ara.pc's Libs give the App no DT_NEEDED on libara-entry.so"

# An instrumented object (the host tools' ara-rtm-cc), with and without the runtime.
ARA_RTM_CLANG=clang-14 "$tools/bin/ara-rtm-cc" "${warn[@]}" -O2 -I"$inc" -c "$here/app/rtm.c" -o "$tmp/rtm.o" ||
	fail "ara-rtm-cc does not compile rtm.c"
output_has ' U __ara_rtm_' aarch64-linux-gnu-nm "$tmp/rtm.o" || fail "ara-rtm-cc did not instrument rtm.c"
read -ra libs <<<"$(pkg-config --libs ara)"
if "$cc" -o "$tmp/rtm-none" "$tmp/rtm.o" "${libs[@]}" 2>"$tmp/link.log"; then
	fail "instrumented code links without the RTM runtime"
fi
grep -q '__ara_rtm_' "$tmp/link.log" || fail "the link without the runtime failed for another reason: $(cat "$tmp/link.log")"
read -ra libs <<<"$(pkg-config --libs ara-rtm-runtime)"
"$cc" -o "$tmp/rtm" "$tmp/rtm.o" "$here/app/own_names.c" "${libs[@]}" ||
	fail "an RTM App (with names of its own that the runtime uses inside) does not link with pkg-config ara-rtm-runtime"
output_has 'FLAGS.*\bNOW\b|BIND_NOW' aarch64-linux-gnu-readelf -d "$tmp/rtm" ||
	fail "the RTM App linked by pkg-config is not BIND_NOW"
output_has GNU_RELRO aarch64-linux-gnu-readelf -lW "$tmp/rtm" || fail "the RTM App has no RELRO segment"
output_has ' t exit_evidence_register$' aarch64-linux-gnu-nm "$tmp/rtm" ||
	fail "the RTM App linked by pkg-config lacks the runtime's evidence writer"

# A CMake project of its own.
cmake -S "$here/app" -B "$tmp/app" --toolchain "$dev/$libdir/cmake/ara/aarch64-linux-gnu.cmake" \
	-DCMAKE_PREFIX_PATH="$dev" -DARA_MANIFEST_TOOL="$tools/bin/ara-manifest" \
	-DCMAKE_C_FLAGS="-Wall -Wextra -Werror" >"$tmp/app.log" 2>&1 ||
	fail "find_package(ara) project does not configure: $(tail -5 "$tmp/app.log")"
cmake --build "$tmp/app" >>"$tmp/app.log" 2>&1 || fail "find_package(ara) project does not build: $(tail -15 "$tmp/app.log")"
# Manifests name files relative to their own folder.
for app in hello fetch rtm; do
	path=$(sed -n 's/^libara [0-9a-f]\{64\} //p' "$tmp/app/$app.ara-manifest")
	[ "$(cd "$tmp/app" && readlink -f "$path")" = "$(readlink -f "$dev/$libdir/libara.so")" ] ||
		fail "$app.ara-manifest does not name the installed libara.so"
done
output_has ' t exit_evidence_register$' aarch64-linux-gnu-nm "$tmp/app/rtm" ||
	fail "ara_rtm_app()'s App lacks the runtime's evidence writer"
echo "check-install: PASS"
