#!/usr/bin/env bash
# The project's two commands (see README.md):
#   qemu/ara.sh demo   boot the POE guest and show POE at work
#   qemu/ara.sh test   run every test: host ctest, then ctest inside the POE
#                      guest, then the SDK's examples built against the
#                      installed trees and run in the guest
#                      (tests/sdk/examples.sh), then ARA's Debian packages
#                      built and installed in the guest (qemu/build-debs.sh,
#                      qemu/test-debs.sh), then the instruction budget
#                      (qemu/budget.sh)
# two to build and try an App of one's own (qemu/README.md, "Running your
# own App in the POE guest"):
#   qemu/ara.sh sdk    build the SDK without the test suite and install it:
#                      build/sdk/device (arm64) and build/sdk/tools (the
#                      build machine's tools; docs/sdk.md)
#   qemu/ara.sh run [RUN-APP-OPTION...] APP [ARG...]
#                      the same, then run APP (built against build/sdk)
#                      under that ara-loader in the POE guest
#                      (qemu/run-app.sh: --out DIR brings the App's files
#                      back; exits with the App's status)
# and two more, not tests:
#   qemu/ara.sh bench  measure 1e6 POE domain switches in the guest, then a
#                      null secure_call against a plain call, a system call
#                      and a round trip to another process (qemu/bench.sh)
#   qemu/ara.sh eval [--quick] [--only rts|rtm] [--out DIR]
#                      the paper's evaluation: the RTS and RTM case studies
#                      in the guest, their CSVs, instruction counts, plots
#                      and summary in results/ (qemu/eval.sh,
#                      docs/evaluation.md)
# Each first installs what it needs (idempotently) and builds or reuses the
# cached platform (QEMU, guest, the TPM guest's kernel, Linux selftests) in
# $ARA_CACHE.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

usage() { die "usage: $0 demo|test|bench|sdk|eval [--quick] [--only rts|rtm] [--out DIR]|run [RUN-APP-OPTION...] APP [ARG...]"; }
[ $# -ge 1 ] || usage
[ $# -eq 1 ] || [ "$1" = eval ] || [ "$1" = run ] || usage
[ "$(id -u)" = 0 ] || die "run as root: the first run installs Debian packages"

HOST_BUILD="$ARA_SRC_DIR/build/host"
ARM64_BUILD="$ARA_SRC_DIR/build/aarch64"
# The fuzz targets as libFuzzer binaries: a clang tree of their own.
FUZZ_BUILD="$ARA_SRC_DIR/build/fuzz"

# The arm64 tree runs two build-machine programs from the host tree:
# ara-manifest (App manifests) and ara-seccomp-gen (the seccomp policy).
MANIFEST_TOOL="$HOST_BUILD/loader/ara-manifest"
SECCOMP_GEN_TOOL="$HOST_BUILD/libara/ara-seccomp-gen"
# and clang loads the host tree's RTM pass plugin (cmake/AraRtm.cmake).
RTM_PLUGIN="$HOST_BUILD/services/rtm/instrument/ara_rtm_pass.so"

# The installed SDK (docs/sdk.md): the arm64 tree's device side, and the
# build-machine tools from the host tree.
SDK_DEVICE="$ARA_SRC_DIR/build/sdk/device"
SDK_TOOLS="$ARA_SRC_DIR/build/sdk/tools"

# configure DIR [cmake args...]
configure() {
	local dir=$1; shift
	mkdir -p "$dir"
	cmake -S "$ARA_SRC_DIR" -B "$dir" -G Ninja "$@" >"$dir.configure.log" 2>&1 || {
		cat "$dir.configure.log" >&2
		die "cmake configure of $dir failed"
	}
}

# configure_and_build DIR [cmake args...]
configure_and_build() {
	configure "$@"
	cmake --build "$1" -j 2 || die "build of $1 failed"
}

# fuzz_all [cmake args...]: every fuzz target as a libFuzzer binary
# (ARA_LIBFUZZER, tests/fuzz/CMakeLists.txt) built by clang-14, a dependency
# of the tree (qemu/host-deps.sh), then each run for a bounded number of
# inputs (the ctests labelled libfuzzer). Without clang-14 it fails.
fuzz_all() {
	command -v clang-14 >/dev/null || { echo "clang-14 is missing: qemu/host-deps.sh installs it" >&2; return 1; }
	configure "$FUZZ_BUILD" -DCMAKE_C_COMPILER=clang-14 -DARA_LIBFUZZER=ON "$@"
	cmake --build "$FUZZ_BUILD" --target fuzzers -j 2 || return 1
	(cd "$FUZZ_BUILD" && ctest --output-on-failure -j 2 -L libfuzzer)
}

# platform_base [build-qemu.sh variant]: the host packages, QEMU, the guest,
# and mbedtls_src, the unpacked mbedtls source that both CMake builds
# compile (-DARA_MBEDTLS_SRC): what running an App in the guest needs.
platform_base() {
	"$ARA_QEMU_DIR/host-deps.sh"
	"$ARA_QEMU_DIR/build-qemu.sh" "$@"
	"$ARA_QEMU_DIR/guest/build-guest.sh"
	mbedtls_src=$("$ARA_QEMU_DIR/fetch-mbedtls.sh")
}

# platform [build-qemu.sh variant]: platform_base and what the test suite
# needs besides.
platform() {
	local t0
	t0=$(date +%s)
	platform_base "$@"
	# The TPM guest's kernel (run-ctest.sh boots it for the tests labelled
	# tpm): built here, so that its ten minutes are not spent in a test.
	"$ARA_QEMU_DIR/guest/build-tpm-kernel.sh"
	# The CENC test App's static FFmpeg for arm64 (tests/cenc): built once
	# here, in view; the arm64 tree's configure then finds it cached.
	"$ARA_QEMU_DIR/build-ffmpeg.sh" >/dev/null
	info "platform ready in $(elapsed "$t0")"
}

# build_arm64: the platform (patched QEMU), the host tools the arm64 tree
# needs, then the arm64 tree.
build_arm64() {
	platform patched
	step "building ara-manifest and ara-seccomp-gen for the host"
	configure "$HOST_BUILD" -DARA_MBEDTLS_SRC="$mbedtls_src"
	cmake --build "$HOST_BUILD" --target ara-manifest ara-seccomp-gen ara_rtm_pass ||
		die "build of the host tools failed"
	step "cross-building for arm64"
	configure_and_build "$ARM64_BUILD" --toolchain "$ARA_SRC_DIR/cmake/aarch64-linux-gnu.cmake" \
		-DARA_MBEDTLS_SRC="$mbedtls_src" -DARA_MANIFEST_TOOL="$MANIFEST_TOOL" \
		-DARA_SECCOMP_GEN_TOOL="$SECCOMP_GEN_TOOL" -DARA_RTM_PLUGIN="$RTM_PLUGIN"
}

# install_tree BUILD PREFIX: cmake --install BUILD into a fresh PREFIX.
install_tree() {
	step "installing $1 into $2"
	rm -rf "$2"
	mkdir -p "$(dirname "$2")"
	cmake --install "$1" --prefix "$2" >"$2.install.log" 2>&1 || {
		cat "$2.install.log" >&2
		die "cmake --install $1 failed"
	}
}

# build_sdk: the SDK (docs/sdk.md) from trees of its own without the test
# suite: the build machine's tools (no sanitizers), then the arm64
# libraries and tools, installed into SDK_TOOLS and SDK_DEVICE.
build_sdk() {
	local host=$ARA_SRC_DIR/build/sdk-build/host arm64=$ARA_SRC_DIR/build/sdk-build/aarch64
	platform_base patched
	step "building the SDK's build-machine tools"
	configure_and_build "$host" -DARA_BUILD_TESTS=OFF -DARA_SANITIZE=OFF \
		-DARA_MBEDTLS_SRC="$mbedtls_src"
	step "building the SDK's arm64 libraries and tools"
	configure_and_build "$arm64" --toolchain "$ARA_SRC_DIR/cmake/aarch64-linux-gnu.cmake" \
		-DARA_BUILD_TESTS=OFF -DARA_MBEDTLS_SRC="$mbedtls_src" \
		-DARA_MANIFEST_TOOL="$host/loader/ara-manifest" \
		-DARA_SECCOMP_GEN_TOOL="$host/libara/ara-seccomp-gen" \
		-DARA_RTM_PLUGIN="$host/services/rtm/instrument/ara_rtm_pass.so"
	install_tree "$arm64" "$SDK_DEVICE"
	install_tree "$host" "$SDK_TOOLS"
}

# in_guest COMMAND [ARG...]: cross-builds the tree and runs COMMAND (a path
# relative to the arm64 tree) in the POE guest (patched QEMU, -M virt -cpu
# max), which holds the arm64 tree and the source tree at their host paths.
in_guest() {
	build_arm64
	step "booting the POE guest and running $1"
	local cmd=$1
	shift
	"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 600 \
		--embed "$ARM64_BUILD" --embed "$ARA_SRC_DIR" -- "$ARM64_BUILD/$cmd" "$@"
}

test_all() {
	local selftests host_rc=0 fuzz_rc=0 sdk_rc=0 guest_rc=0 examples_rc=0 deb_rc=0 budget_rc=0 t0
	platform both
	"$ARA_QEMU_DIR/selftests/build-selftests.sh"
	selftests=$(readlink -f "$ARA_CACHE/selftests/current")
	local common=(-DARA_QEMU_PATCHED="$("$ARA_QEMU_DIR/qemu-path.sh" patched)"
		-DARA_QEMU_UNPATCHED="$("$ARA_QEMU_DIR/qemu-path.sh" unpatched)"
		-DARA_SELFTESTS_DIR="$selftests"
		-DARA_MBEDTLS_SRC="$mbedtls_src")

	step "host build (ASan/UBSan) and host ctest"
	configure_and_build "$HOST_BUILD" "${common[@]}"
	t0=$(date +%s)
	(cd "$HOST_BUILD" && ctest --output-on-failure -j 2) || host_rc=$?
	"$ARA_SRC_DIR/tests/platform/ctest-evidence.sh" "$HOST_BUILD" || true
	info "host ctest took $(elapsed "$t0")"

	step "the fuzz targets as libFuzzer binaries (clang), each run for bounded inputs"
	t0=$(date +%s)
	fuzz_all "${common[@]}" || fuzz_rc=$?
	info "libFuzzer build and runs took $(elapsed "$t0")"

	step "arm64 cross build and ctest inside the POE guest"
	configure_and_build "$ARM64_BUILD" --toolchain "$ARA_SRC_DIR/cmake/aarch64-linux-gnu.cmake" \
		"${common[@]}" -DARA_MANIFEST_TOOL="$MANIFEST_TOOL" \
		-DARA_SECCOMP_GEN_TOOL="$SECCOMP_GEN_TOOL" -DARA_RTM_PLUGIN="$RTM_PLUGIN"

	# The SDK both trees install (docs/sdk.md): on the build machine.
	t0=$(date +%s)
	"$ARA_SRC_DIR/tests/sdk/check-install.sh" "$ARM64_BUILD" "$HOST_BUILD" || sdk_rc=$?
	info "SDK install check took $(elapsed "$t0")"

	t0=$(date +%s)
	ARA_GUEST_EMBED="$selftests" "$ARA_QEMU_DIR/guest/run-ctest.sh" "$ARM64_BUILD" || guest_rc=$?
	info "guest ctest took $(elapsed "$t0")"

	# The SDK as users meet it: both trees installed, the examples built
	# against the installed prefixes only, run in the guest (one boot), and
	# qemu/run-app.sh (a second).
	step "the SDK: installed, the examples built against it and run in the POE guest"
	t0=$(date +%s)
	(
		install_tree "$ARM64_BUILD" "$SDK_DEVICE"
		install_tree "$HOST_BUILD" "$SDK_TOOLS"
		"$ARA_SRC_DIR/tests/sdk/examples.sh" "$SDK_DEVICE" "$SDK_TOOLS"
	) || examples_rc=$?
	info "the SDK's examples took $(elapsed "$t0")"

	# ARA's Debian packages, built from this tree and installed in the
	# guest with dpkg -i (docs/packaging.md).
	t0=$(date +%s)
	{ "$ARA_QEMU_DIR/build-debs.sh" && "$ARA_QEMU_DIR/test-debs.sh"; } || deb_rc=$?
	info "Debian packages took $(elapsed "$t0")"

	# Guest instructions per operation against qemu/instruction-budget.tsv:
	# counted from the host (QEMU's plugin), hence not a guest ctest.
	t0=$(date +%s)
	"$ARA_QEMU_DIR/budget.sh" "$ARM64_BUILD" || budget_rc=$?
	info "instruction budget took $(elapsed "$t0")"

	step "summary"
	info "host ctest:  $([ $host_rc = 0 ] && echo passed || echo "FAILED (status $host_rc)")"
	info "libFuzzer:   $([ $fuzz_rc = 0 ] && echo passed || echo "FAILED (status $fuzz_rc)")"
	info "SDK install: $([ $sdk_rc = 0 ] && echo passed || echo "FAILED (status $sdk_rc)")"
	info "guest ctest: $([ $guest_rc = 0 ] && echo passed || echo "FAILED (status $guest_rc)")"
	info "SDK examples: $([ $examples_rc = 0 ] && echo passed || echo "FAILED (status $examples_rc)")"
	info "Debian packages: $([ $deb_rc = 0 ] && echo passed || echo "FAILED (status $deb_rc)")"
	info "instruction budget: $([ $budget_rc = 0 ] && echo passed || echo "FAILED (status $budget_rc)")"
	[ $host_rc = 0 ] && [ $fuzz_rc = 0 ] && [ $sdk_rc = 0 ] && [ $guest_rc = 0 ] && [ $examples_rc = 0 ] &&
		[ $deb_rc = 0 ] && [ $budget_rc = 0 ]
}

case $1 in
	demo)
		# POE itself, then ARA end to end (tests/provision/provision.sh, case
		# demo): provisioning, CENC decryption, an RTM report ara-verify accepts.
		in_guest tests/platform/poe_demo
		"$ARA_QEMU_DIR/guest/run-guest.sh" --qemu patched --poe expect --timeout 900 \
			--embed "$ARM64_BUILD" --embed "$ARA_SRC_DIR" -- \
			/bin/sh "$ARA_SRC_DIR/tests/provision/provision.sh" demo "$ARM64_BUILD" dev-insecure
		;;
	test) test_all ;;
	bench)
		in_guest tests/platform/por_switch_bench
		"$ARA_QEMU_DIR/bench.sh" "$ARM64_BUILD"
		;;
	eval)
		shift
		build_arm64
		exec "$ARA_QEMU_DIR/eval.sh" "$@" "$ARM64_BUILD"
		;;
	sdk)
		build_sdk
		info "the SDK: $SDK_DEVICE (arm64: libraries, headers, CMake package, pkg-config, tools), $SDK_TOOLS (the build machine's tools); examples/README.md builds an App against them"
		;;
	run)
		shift
		build_sdk
		exec "$ARA_QEMU_DIR/run-app.sh" --sdk "$SDK_DEVICE" "$@"
		;;
	*) usage ;;
esac
