#!/usr/bin/env bash
# Cross-builds Linux's own pkey/POE selftests for arm64, to run in the POE
# guest as ground truth that does not come from this project:
#   protection_keys, poe_siginfo, hwcap  from linux $SELFTESTS_SRC_VERSION
#   pkey_sighandler_tests                from linux $SELFTESTS_NEW_SRC_VERSION
# (qemu/versions.env; README.md says why two sources).
# Output: $ARA_CACHE/selftests/<key>/ with the static binaries,
# run-selftests.sh and a manifest; $ARA_CACHE/selftests/current links to it.
# <key> digests every input (pins, these scripts, the cross toolchain); an
# unchanged key reuses the build. Prints the output directory on stdout.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

need_cmd apt-get apt
need_cmd make make
need_cmd gcc gcc
need_cmd xz xz-utils
need_cmd aarch64-linux-gnu-gcc gcc-aarch64-linux-gnu

here="$ARA_QEMU_DIR/selftests"
dl="$ARA_CACHE/dl/linux"
# Static binaries run in any initramfs, with or without an arm64 libc.
cc="aarch64-linux-gnu-gcc -static"

key=$({
	cat "$here/build-selftests.sh" "$here/run-selftests.sh"
	grep '^SELFTESTS_' "$ARA_QEMU_DIR/versions.env"
	dpkg-query -W gcc-aarch64-linux-gnu libc6-dev-arm64-cross
} | sha256sum | cut -c1-16)
out="$ARA_CACHE/selftests/$key"

if [ -f "$out/manifest" ]; then
	info "selftests are cached: $out"
	ln -sfn "$out" "$ARA_CACHE/selftests/current"
	echo "$out"
	exit 0
fi

# verified VERSION DSC_SHA256: the .dsc in $dl matches its pin, and every
# file the .dsc names matches the .dsc.
verified() {
	(cd "$dl" && echo "$2  linux_$1.dsc" | sha256sum -c --quiet - &&
		awk '/^Checksums-Sha256:/ {f=1; next} /^([^ ]|$)/ {f=0} f {print $1 "  " $3}' \
			"linux_$1.dsc" | sha256sum -c --quiet -) >/dev/null 2>&1
}

# fetch VERSION DSC_SHA256: the verified Debian source package in $dl.
fetch() {
	verified "$1" "$2" && return
	step "downloading Debian source linux=$1 (about 160 MB)"
	mkdir -p "$dl"
	(cd "$dl" && apt-get source --download-only -q "linux=$1" >/dev/null 2>&1) ||
		die "apt-get source linux=$1 failed: is deb-src configured (qemu/host-deps.sh) and does the mirror still serve this version?"
	verified "$1" "$2" ||
		die "linux_$1.dsc does not match its pin in qemu/versions.env, or a file it names does not match it"
}

# The only parts of the kernel tree that end up in the binaries; everything
# else Debian's patches touch (kbuild, drivers, perf) is irrelevant here.
compiled_paths='^(tools/testing/selftests/|tools/include/|include/uapi/|arch/arm64/include/uapi/)'

# unpack VERSION DIR: extracts from the orig tarball only what the headers and
# the tests need (about 20 MB of 1.5 GB) into DIR.
unpack() {
	local ver=$1 dir=$2 up=${1%-*} touched
	touched=$(tar -xJOf "$dl/linux_$ver.debian.tar.xz" --wildcards 'debian/patches/*' |
		sed -n 's|^+++ [^/]*/||p' | grep -E "$compiled_paths" | sort -u || true)
	[ -z "$touched" ] || die "Debian's patches of linux=$ver touch files the tests are built from: $touched"
	step "extracting the selftests and uapi headers of linux $up"
	mkdir -p "$dir"
	# Kbuild (Makefile, scripts/, arch Makefiles) is needed to generate the
	# uapi headers; the rest is what the test Makefiles compile.
	tar -xJf "$dl/linux_$up.orig.tar.xz" -C "$dir" --strip-components=1 \
		"linux-$up/Makefile" "linux-$up/scripts" \
		"linux-$up/include/uapi" "linux-$up/arch/arm64/include/uapi" \
		"linux-$up/arch/arm64/Makefile" "linux-$up/arch/arm64/kernel/Makefile.syscalls" \
		"linux-$up/arch/arm64/tools/syscall_64.tbl" \
		"linux-$up/mm/gup_test.h" "linux-$up/tools/include" \
		"linux-$up/tools/testing/selftests/lib.mk" \
		"linux-$up/tools/testing/selftests/kselftest.h" \
		"linux-$up/tools/testing/selftests/kselftest_harness.h" \
		"linux-$up/tools/testing/selftests/mm" "linux-$up/tools/testing/selftests/arm64"
}

# headers DIR: the kernel's own exported uapi headers in DIR/usr/include,
# where the selftest Makefiles look first. The cross sysroot's headers (Linux
# 6.1) predate arm64 pkeys, and copying include/uapi by hand would miss the
# generated ones (asm/unistd_64.h).
headers() {
	make -C "$1" ARCH=arm64 headers >>"$log" 2>&1 || die "make headers failed; see $log"
}

# ksft_make TREE ARGS...: the selftests' own Makefiles, so that the tests get
# upstream's flags; KHDR_INCLUDES is what tools/testing/selftests/Makefile
# would pass down.
ksft_make() {
	local tree=$1; shift
	make ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu- CC="$cc" \
		KHDR_INCLUDES="-isystem $tree/usr/include" "$@" >>"$log" 2>&1 ||
		die "building the selftests failed; see $log"
}

t0=$(date +%s)
rm -rf "$out" "$out.tmp"
mkdir -p "$out.tmp/bin"
log="$out.tmp/build.log"
work="$out.tmp/src"

fetch "$SELFTESTS_SRC_VERSION" "$SELFTESTS_DSC_SHA256"
fetch "$SELFTESTS_NEW_SRC_VERSION" "$SELFTESTS_NEW_DSC_SHA256"

src="$work/base"
unpack "$SELFTESTS_SRC_VERSION" "$src"
step "building protection_keys, poe_siginfo, hwcap (linux ${SELFTESTS_SRC_VERSION%-*})"
headers "$src"
mkdir -p "$work/base-mm" "$work/new-mm"
ksft_make "$src" -C "$src/tools/testing/selftests/mm" OUTPUT="$work/base-mm" "$work/base-mm/protection_keys"
# The arm64 Makefile is the one that sets the flags of its subdirectories, and
# it builds whole subdirectories: signal has some thirty small tests.
ksft_make "$src" -C "$src/tools/testing/selftests/arm64" ARM64_SUBTARGETS="signal abi" OUTPUT="$work/base-arm64"
cp "$work/base-mm/protection_keys" "$work/base-arm64/signal/poe_siginfo" \
	"$work/base-arm64/abi/hwcap" "$out.tmp/bin/"

src="$work/new"
unpack "$SELFTESTS_NEW_SRC_VERSION" "$src"
step "building pkey_sighandler_tests (linux ${SELFTESTS_NEW_SRC_VERSION%-*})"
headers "$src"
ksft_make "$src" -C "$src/tools/testing/selftests/mm" OUTPUT="$work/new-mm" "$work/new-mm/pkey_sighandler_tests"
cp "$work/new-mm/pkey_sighandler_tests" "$out.tmp/bin/"

cp "$here/run-selftests.sh" "$out.tmp/"
{
	echo "# Linux POE selftests: <name> <command>, one per line; run each command in the"
	echo "# POE guest with this directory embedded at the same path. Sources: linux"
	echo "# $SELFTESTS_SRC_VERSION, pkey_sighandler_tests from linux $SELFTESTS_NEW_SRC_VERSION."
	"$here/run-selftests.sh" --list | while read -r name; do
		echo "$name $out/run-selftests.sh $name"
	done
} >"$out.tmp/manifest"
# The sources are not needed after the build.
rm -rf "$work"
mv "$out.tmp" "$out"
ln -sfn "$out" "$ARA_CACHE/selftests/current"
info "selftests built in $(elapsed "$t0"): $out"
echo "$out"
